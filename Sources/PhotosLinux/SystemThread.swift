import CPhotosLinux
import Glibc

/// A dedicated POSIX thread, so that a blocking call (`poll`, a decoder's work at a low priority)
/// never holds a thread of Swift's cooperative pool (the shape of swift-subprocess's Linux I/O
/// thread).
///
/// Prefer it to Foundation's `Thread`, which keeps its closure (and everything the closure
/// captured) until the thread's thread-specific data is destroyed, after libdispatch has freed its
/// per-thread cache of continuations. A library database released there (its GRDB queue carries a
/// queue-specific value) makes libdispatch take a continuation from that freed cache and write into
/// glibc's free list; the process aborts as the thread exits (`tcache_thread_shutdown(): unaligned
/// tcache chunk detected`). A `SystemThread` releases `body` before the thread's function returns.
///
/// ```swift
/// let thread = try SystemThread(name: "photosd-inotify") { reader.run() }
/// // ... after telling the body to return:
/// thread.join()
/// ```
public struct SystemThread: Sendable {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(_ name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    private let thread: pthread_t

    /// Starts a thread named `name` (its first 15 bytes show in `top -H` and `/proc`) running `body`.
    ///
    /// The corresponding C functions are `pthread_create` and `pthread_setname_np`.
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(name, body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                // A missing name only makes the thread harder to find.
                _ = cphotos_name_this_thread(body.name)
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemCallError(call: "pthread_create", errno: result)
        }
        self.thread = thread
    }

    /// Whether the caller is this thread (which must not join itself).
    public var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to return. Call once, or call ``detach()`` once.
    ///
    /// The corresponding C function is `pthread_join`.
    public func join() {
        let result = pthread_join(thread, nil)
        precondition(result == 0, "pthread_join failed: \(result)")
    }

    /// Lets the thread release its resources itself when it returns: nobody will join it.
    ///
    /// The corresponding C function is `pthread_detach`.
    public func detach() {
        let result = pthread_detach(thread)
        precondition(result == 0, "pthread_detach failed: \(result)")
    }
}
