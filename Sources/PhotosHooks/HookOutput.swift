import CPhotosLinux
import Glibc
import Logging
import PhotosLinux

/// What a hook wrote on its standard output and error, read on a thread of the run's own.
///
/// The pipes are read by a `SystemThread` that polls them, never by tasks of Swift's shared pool:
/// a pool kept busy elsewhere (a full scan, a full `swift test` on 2 cores) made 8 MB of output
/// take minutes to drain, the hook blocked on a full pipe all that while. The thread reads as fast
/// as the hook writes, whatever the pool does, and hands the result back once, to a continuation.
///
/// It ends when both pipes are at their end, or when the hook's own process has exited: then it
/// reads what the pipes hold at that moment and stops, even where something the hook started in
/// the background (`sleep 300 &`) still holds them open, as the drain on Subprocess's streams did
/// (Subprocess ended them at the hook's exit). The run then kills what is left of the group.
///
/// ```swift
/// let pipes = try HookOutput.Pipes()
/// // ... start the hook with pipes.outputWriting and pipes.errorWriting as its stdout and stderr:
/// let written = await HookOutput.read(pipes, process: pid)
/// written.log(to: logger)
/// ```
struct HookOutput: Sendable {
    /// What one stream held: its first bytes, and how many more there were.
    struct Stream: Sendable {
        /// At most ``HookProcess/logBytes``, for the log.
        var kept: [UInt8] = []
        /// Bytes past those kept, counted and dropped.
        var dropped = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            let room = max(0, HookProcess.logBytes - kept.count)
            kept.append(contentsOf: bytes.prefix(room))
            dropped += max(0, bytes.count - room)
        }
    }

    var standardOutput = Stream()
    var standardError = Stream()
    /// The last ``HookProcess/tailBytes`` of standard error.
    var errorTail: [UInt8] = []
    /// Every byte of both streams.
    var bytes = 0
    /// Why reading stopped early (a failed `poll` or `read`, or no thread to read with), if it did.
    var failure: SystemCallError?

    mutating func add(_ bytes: UnsafeRawBufferPointer, toError: Bool) {
        self.bytes += bytes.count
        if toError {
            standardError.add(bytes)
            errorTail.append(contentsOf: bytes.suffix(HookProcess.tailBytes))
            if errorTail.count > HookProcess.tailBytes {
                errorTail.removeFirst(errorTail.count - HookProcess.tailBytes)
            }
        } else {
            standardOutput.add(bytes)
        }
    }

    /// A run's two pipes, both ends closed on exec (no other hook started meanwhile inherits them,
    /// which would keep them open past this hook's end), and the event counter that stops their
    /// reader. The writing ends are given to the hook, and closed here once it has started them
    /// (Subprocess's `closeAfterSpawningProcess`); the reading ends close when the last reference
    /// to them goes.
    struct Pipes: Sendable {
        let outputReading: FileDescriptor
        let errorReading: FileDescriptor
        /// The hook's standard output and error.
        let outputWriting: Int32
        let errorWriting: Int32
        /// Signalled (``EventCounter/signal(_:)``), the reader reads what the pipes hold and ends.
        let stop: FileDescriptor

        init() throws(SystemCallError) {
            let stop = FileDescriptor(try EventCounter.create())
            let output = try Syscall.pipe()
            let errors: (reading: Int32, writing: Int32)
            do { errors = try Syscall.pipe() } catch {
                Syscall.close(output.reading)
                Syscall.close(output.writing)
                throw error
            }
            self.stop = stop
            (outputReading, outputWriting) = (FileDescriptor(output.reading), output.writing)
            (errorReading, errorWriting) = (FileDescriptor(errors.reading), errors.writing)
        }

        /// Tells the reader to end now, with what the pipes hold.
        func stopReading() { EventCounter.signal(stop.rawValue) }
    }

    /// Reads `pipes` on a thread of their own until both are at their end or the process `process`
    /// (a child not yet reaped) has exited, or until ``Pipes/stopReading()``; in the last two cases,
    /// what the pipes hold then is read too.
    static func read(_ pipes: Pipes, process: pid_t) async -> HookOutput {
        await withCheckedContinuation { continuation in
            // The pidfd is readable once the hook has exited. Where the kernel has none (before
            // 5.3), the thread asks every 100 ms instead.
            let exited = try? FileDescriptor(Syscall.processDescriptor(process))
            do throws(SystemCallError) {
                try SystemThread(name: "photosd-hook-out") {
                    let written = readAll(
                        output: pipes.outputReading.rawValue, error: pipes.errorReading.rawValue, process: process,
                        exited: exited?.rawValue ?? -1, stop: pipes.stop.rawValue)
                    // The descriptors stay open until the thread no longer uses them.
                    withExtendedLifetime((pipes, exited)) {}
                    continuation.resume(returning: written)
                }.detach()
            } catch {
                // Nothing reads: the reading ends close with this run, and the hook gets EPIPE.
                continuation.resume(returning: HookOutput(failure: error))
            }
        }
    }

    /// The thread's loop: one read per ready pipe and round (a pipe holds 64 KB), so that neither
    /// stream waits on the other.
    private static func readAll(output: Int32, error: Int32, process: pid_t, exited: Int32, stop: Int32)
        -> HookOutput
    {
        var written = HookOutput()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        let pipes = [output, error]
        var open = [true, true]
        var ended = false
        var descriptors = [pipes[0], pipes[1], stop, exited].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        do {
            while open[0] || open[1] {
                for index in 0..<2 { descriptors[index].fd = open[index] ? pipes[index] : -1 }
                for index in descriptors.indices { descriptors[index].revents = 0 }
                _ = try Syscall.poll(&descriptors, timeout: exited >= 0 ? -1 : 100)
                for index in 0..<2 where open[index] && descriptors[index].revents != 0 {
                    switch try Syscall.readSome(pipes[index], into: buffer) {
                    case nil: break
                    case 0: open[index] = false
                    case let count?:
                        written.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]), toError: index == 1)
                    }
                }
                if descriptors[2].revents != 0 || descriptors[3].revents != 0
                    || (exited < 0 && cphotos_child_has_exited(process) == 1)
                {
                    ended = true
                    break
                }
            }
            // Ended by the hook's exit (or told to stop): what is in the pipes now, and no more. A
            // process the hook left holding them may write on, and the run must not wait for it.
            if ended {
                for index in 0..<2 where open[index] {
                    var left = try Syscall.readableBytes(pipes[index])
                    while left > 0 {
                        let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(left, buffer.count)])
                        guard let count = try Syscall.readSome(pipes[index], into: room), count > 0 else { break }
                        written.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]), toError: index == 1)
                        left -= count
                    }
                }
            }
        } catch {
            written.failure = error
        }
        return written
    }

    /// Logs each stream's kept bytes as one record (`hook.stdout` at info, `hook.stderr` at
    /// warning), with the count of bytes dropped past ``HookProcess/logBytes``; nothing for a stream
    /// that held nothing.
    func log(to logger: Logger) {
        Self.log(standardOutput, level: .info, logger: logger)
        Self.log(standardError, level: .warning, logger: logger)
    }

    private static func log(_ stream: Stream, level: Logger.Level, logger: Logger) {
        var kept = stream.kept
        let dropped = stream.dropped
        if kept.last == UInt8(ascii: "\n") { kept.removeLast() }
        guard !kept.isEmpty || dropped > 0 else { return }
        // One record for the whole run, its lines kept together: the log handler writes a record
        // on one line (newlines escaped in text, inside the string in JSON), so a hook's output
        // never passes for photosd's own records.
        let name = level == .info ? "standard output" : "standard error"
        let key = level == .info ? "hook.stdout" : "hook.stderr"
        var metadata: Logger.Metadata = [key: "\(String(decoding: kept, as: UTF8.self))"]
        if dropped > 0 { metadata["hook.dropped.bytes"] = "\(dropped)" }
        logger.log(
            level: level,
            dropped > 0 ? "hook's \(name) (the log keeps \(HookProcess.logBytes) bytes per run)" : "hook's \(name)",
            metadata: metadata)
    }
}
