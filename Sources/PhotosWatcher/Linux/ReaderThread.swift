import Glibc

/// A dedicated POSIX thread, so that a blocking `poll` never holds a thread of Swift's cooperative
/// pool (the shape of swift-subprocess's Linux I/O thread).
struct ReaderThread: Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t

    /// Starts a thread named `name` (at most 15 bytes show in `top` and `/proc`) running `body`.
    ///
    /// The corresponding C function is `pthread_create`.
    init(name: String, _ body: @escaping @Sendable () -> Void) throws(WatchError) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw WatchError(
                code: .systemCallFailed, message: "cannot start the inotify reader thread",
                cause: SystemCallError(call: "pthread_create", errno: result))
        }
        Syscall.setName(of: thread, to: name)
        self.thread = thread
    }

    /// Whether the caller is this thread (which must not join itself).
    var isCurrent: Bool { pthread_equal(thread, pthread_self()) != 0 }

    /// Waits for the thread to return. Call once.
    ///
    /// The corresponding C function is `pthread_join`.
    func join() {
        let result = pthread_join(thread, nil)
        precondition(result == 0, "pthread_join failed: \(result)")
    }
}
