import Dispatch
import Foundation
import Glibc
import PhotosLinux

/// Tells when a library file may have a new commit, from any process, without polling.
///
/// A commit appends frames to the WAL file (`<library>-wal`); a checkpoint writes the library file
/// itself. The signal watches the directory holding them with inotify and calls its handler when
/// either file is modified, created, moved in or closed after writing. The directory is watched, not
/// the files, because SQLite deletes the WAL file when the last connection closes and creates it
/// again on the next open: a watch on the file would die with it.
///
/// The handler is a hint, not a change: it may run when nothing was committed (a checkpoint, a
/// connection opening or closing the WAL file), so it should read the log
/// (`LibraryDatabase.changes(after:)`) and find out. It runs once per batch of kernel events (one
/// commit writes several pages), and again ``settleDelays`` after the last batch, because the kernel
/// reports a WAL write a moment before the committing process publishes the commit to readers (it
/// updates the shared-memory index, which inotify cannot see). When nobody writes, it does not run.
/// Readers of this process touch only the `-shm` file, so reading the log does not wake it.
///
/// Where inotify cannot be used (an in-memory library, no inotify instance or watch left) the
/// signal falls back to calling the handler every ``fallbackInterval``; ``mechanism`` says which.
///
/// Each `LibraryDatabase` keeps one, shared by everything in the process that follows its commits
/// (change feeds, observers, hooks, the daemon's services): ``LibraryDatabase/followCommits(_:)``.
/// A signal of its own is for a reader without a `LibraryDatabase`, and for tests.
///
/// Make the signal before reading, so that a commit landing between a read and the wait after it
/// still wakes the wait:
///
/// ```swift
/// let database = try LibraryDatabase(path: "/tmp/library.sqlite")
/// let wakeups = DispatchSemaphore(value: 0)
/// let follower = database.followCommits { wakeups.signal() }
/// defer { follower.cancel() }  // the last follower gone, the inotify descriptor is released
/// var token = try database.currentToken()
/// while true {
///     wakeups.wait()
///     for entry in try database.changes(after: token) { print(entry.token); token = entry.token }
/// }
/// ```
public final class CommitSignal: Sendable {
    /// How the signal learns of commits.
    public enum Mechanism: Sendable, Equatable {
        /// inotify on the library's directory: the handler runs only when the files change.
        case inotify
        /// A timer every ``CommitSignal/fallbackInterval``, where inotify cannot be used.
        case timer
        /// PostgreSQL's LISTEN on the library's channel, which every host's commit notifies.
        case notify
    }

    /// How often the handler runs when inotify cannot be used.
    public static let fallbackInterval: DispatchTimeInterval = .milliseconds(20)

    /// After the last batch of events, the handler runs again this long later, then again after
    /// each next delay (the default of ``init(path:queue:settleDelays:handler:)``): a commit whose
    /// WAL write woke the signal but whose publication was not yet visible to the first read is
    /// seen by one of these. The later ones (1 and 5 s on) cover a committing process descheduled
    /// between its write and its publication on a loaded machine, which with only 10 and 100 ms
    /// waited for the next commit to be seen. (Once, in a full test run beside a CI build, an
    /// observer of another process's commits heard of neither of two within a minute; whether this
    /// was the cause is not known.)
    public static let settleDelays: [DispatchTimeInterval] = [
        .milliseconds(10), .milliseconds(100), .seconds(1), .seconds(5),
    ]

    /// After a batch of events, the signal rests this long before reading more. A large
    /// transaction writes the WAL file thousands of times; without the rest each write cost a
    /// wakeup and a read of the log, and slowed a 10,000-edit commit threefold (photos-bench).
    /// Events of the rest wait in the kernel, which merges repeats, and are read when it ends.
    public static let restInterval: DispatchTimeInterval = .milliseconds(5)

    /// What a write, a new file, a file moved in, or a file closed after writing report.
    static let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR)

    /// Whether the kernel or a timer drives the handler.
    public let mechanism: Mechanism
    /// Why the signal fell back to a timer, or nil when it uses inotify.
    public let fallbackReason: String?

    /// The read source and settle timer, or the fallback timer. Dispatch does not mark its sources
    /// `Sendable`, but the one thing done with them after `init`, `cancel()`, is thread-safe.
    private nonisolated(unsafe) let sources: [any DispatchSourceProtocol]

    /// Starts signalling commits to the library file at `path` (nil: an in-memory library, which
    /// gets the timer) by calling `handler` on `queue`.
    ///
    /// The handler runs on `queue` only, never twice at once (even on a concurrent queue); pass a
    /// serial queue to keep it in order with other work there. It keeps running until ``cancel()``
    /// or until the signal is released.
    public init(
        path: String?, queue: DispatchQueue, settleDelays: [DispatchTimeInterval] = CommitSignal.settleDelays,
        handler: @escaping @Sendable () -> Void
    ) {
        var reason = "an in-memory library has no file to watch"
        if let path {
            do {
                let watch = try Self.watch(path)
                let reader = EventReader(watch: watch, queue: queue, settleDelays: settleDelays, handler: handler)
                mechanism = .inotify
                fallbackReason = nil
                sources = reader.sources
                return
            } catch {
                reason = error.description
            }
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(
            deadline: .now() + Self.fallbackInterval, repeating: Self.fallbackInterval, leeway: .milliseconds(5))
        timer.setEventHandler(handler: handler)
        timer.resume()
        mechanism = .timer
        fallbackReason = reason
        sources = [timer]
    }

    /// Stops the handler and releases the inotify descriptor. A call of the handler already under
    /// way finishes; none starts after it. Calling it again does nothing.
    public func cancel() {
        // Cancelling a source is thread-safe and idempotent.
        for source in sources { source.cancel() }
    }

    deinit { cancel() }

    /// What the signal watches: an inotify descriptor with one watch on the library's directory,
    /// and the names in it that mean a commit.
    struct Watch {
        let descriptor: Int32
        let names: Set<String>
    }

    /// Creates the inotify instance and its watch for the library file at `path`.
    private static func watch(_ path: String) throws(SystemCallError) -> Watch {
        // SQLite follows a symbolic link to the library and keeps the WAL file beside the target.
        let resolved = FileOperations.resolved(path) ?? path
        let file = (resolved as NSString).lastPathComponent
        let directory = (resolved as NSString).deletingLastPathComponent
        let descriptor = try Inotify.create()
        do {
            _ = try Inotify.addWatch(directory.isEmpty ? "." : directory, mask: Self.mask, to: descriptor)
        } catch {
            Syscall.close(descriptor)
            throw error
        }
        return Watch(descriptor: descriptor, names: [file, file + "-wal"])
    }
}

/// Reads the inotify descriptor when it is readable and runs the handler: once per drained batch
/// that names a library file, then once per settle delay after the last such batch.
///
/// Its state is touched only on its serial queue, where both sources' handlers run.
private final class EventReader: @unchecked Sendable {
    private let watch: CommitSignal.Watch
    private let handler: @Sendable () -> Void
    private let readSource: any DispatchSourceRead
    private let settleTimer: any DispatchSourceTimer
    private let serial: DispatchQueue
    /// The delays of the settle reads after a batch (``CommitSignal/settleDelays``).
    private let settleDelays: [DispatchTimeInterval]
    /// Which of ``settleDelays`` the settle timer waits for next.
    private var settleStage = 0
    /// Bytes for `read`: room for many events, and at least one with the longest name.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: 64 * Inotify.minimumBufferSize, alignment: Inotify.bufferAlignment)

    /// The sources to cancel; cancelling the read source closes the descriptor.
    var sources: [any DispatchSourceProtocol] { [readSource, settleTimer] }

    init(
        watch: CommitSignal.Watch, queue: DispatchQueue, settleDelays: [DispatchTimeInterval],
        handler: @escaping @Sendable () -> Void
    ) {
        self.watch = watch
        self.handler = handler
        self.settleDelays = settleDelays
        // One serial queue for both sources: the handler never runs twice at once, and the settle
        // stage needs no lock, whatever kind of queue the caller gave.
        let serial = DispatchQueue(label: "photos.commit-signal", target: queue)
        self.serial = serial
        readSource = DispatchSource.makeReadSource(fileDescriptor: watch.descriptor, queue: serial)
        settleTimer = DispatchSource.makeTimerSource(queue: serial)
        // The sources hold the reader (and it holds them) until they are cancelled: cancelling
        // frees their handlers.
        readSource.setEventHandler { self.drain() }
        readSource.setCancelHandler {
            // Closing the instance removes its watch.
            Syscall.close(watch.descriptor)
            self.buffer.deallocate()
        }
        settleTimer.setEventHandler { self.settle() }
        settleTimer.schedule(deadline: .distantFuture)
        settleTimer.resume()
        readSource.resume()
    }

    /// Reads every queued event; runs the handler once if any names a library file.
    private func drain() {
        var relevant = false
        // A read that fails otherwise than EAGAIN ends the batch; the next readiness reads again.
        while let count = try? Inotify.read(watch.descriptor, into: buffer), count > 0 {
            for event in InotifyEventParser.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                // An overflow lost events, which may have been commits.
                if event.has(IN_Q_OVERFLOW) { relevant = true }
                if let name = event.name, watch.names.contains(name) { relevant = true }
            }
        }
        guard relevant else { return }
        handler()
        settleStage = 0
        if let first = settleDelays.first { settleTimer.schedule(deadline: .now() + first, leeway: .milliseconds(1)) }
        readSource.suspend()
        serial.asyncAfter(deadline: .now() + CommitSignal.restInterval) { self.readSource.resume() }
    }

    private func settle() {
        handler()
        settleStage += 1
        guard settleStage < settleDelays.count else { return }
        settleTimer.schedule(deadline: .now() + settleDelays[settleStage], leeway: .milliseconds(1))
    }
}
