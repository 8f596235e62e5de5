import Foundation
import Synchronization

/// Reads a pipe to its end on a thread of its own while a process runs, so that a full pipe cannot
/// stop the process, then hands over what was read.
///
/// Never `DispatchQueue.global()`: on Linux that queue's threads are the ones Swift concurrency runs
/// on, as many as there are cores, and a read blocked until the process exits would hold one of them
/// for the process's whole run (two such reads stall every test of a full run on 2 cores).
///
/// ```swift
/// let errors = PipeDrain(err)
/// let output = out.fileHandleForReading.readDataToEndOfFile()
/// process.waitUntilExit()
/// let text = String(decoding: errors.wait(), as: UTF8.self)
/// ```
public final class PipeDrain: Sendable {
    private let read = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `pipe`'s reading end.
    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            let data = handle.readDataToEndOfFile()
            read.withLock { $0 = data }
            done.signal()
        }.start()
    }

    /// What the pipe held, once its writers have all closed it.
    public func wait() -> Data {
        done.wait()
        done.signal()
        return read.withLock { $0 }
    }
}
