import Foundation
import PhotosLinux

/// A value handed from the thread that made it to the task that waits for it, once.
private struct HandedOver<T>: @unchecked Sendable { var value: T }

/// Runs blocking work (a socket read, a process's start, stop or run) on a thread of its own, off
/// Swift's shared pool, which a test must never hold waiting: under a full test run it is shared by
/// every suite.
public func offPool<T>(_ body: @escaping () throws -> T) async throws -> T {
    // The closure runs once, on that thread, while the caller waits.
    nonisolated(unsafe) let body = body
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HandedOver<T>, any Error>) in
        // A `SystemThread`, not Foundation's `Thread`, which would keep `body` (and the library it
        // captured) until the thread's thread-specific data is destroyed: a database released there
        // makes libdispatch write into memory it has already freed (see `SystemThread`).
        let run: @Sendable () -> Void = { continuation.resume(with: Result { HandedOver(value: try body()) }) }
        do {
            try SystemThread(name: "test-off-pool", run).detach()
        } catch {
            continuation.resume(throwing: error)
        }
    }.value
}
