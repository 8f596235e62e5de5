import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PhotosLinux

/// A system thread releases its body, and all the body captured, before the thread ends: while
/// libdispatch's per-thread state is still alive.
@Suite struct SystemThreadTests {
    /// Owns a queue with a queue-specific value, as GRDB's database connections do: releasing it
    /// makes libdispatch queue the value's destructor, with a continuation from the releasing
    /// thread's cache.
    final class QueueOwner: Sendable {
        static let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "test-queue-owner")
        let released: @Sendable (_ onThread: pthread_t) -> Void
        init(released: @escaping @Sendable (_ onThread: pthread_t) -> Void) {
            self.released = released
            queue.setSpecific(key: Self.key, value: 1)
        }
        deinit { released(pthread_self()) }
    }

    /// The thread that released the owner.
    final class Releaser: Sendable {
        let thread = Mutex<pthread_t?>(nil)
    }

    /// Starts a thread whose body fills its continuation cache (`concurrentPerform`, as
    /// the scan's reads do) and then holds the only reference to a `QueueOwner` until `dropped`
    /// is signalled. Returns the thread.
    static func start(dropped: DispatchSemaphore, released: @escaping @Sendable (pthread_t) -> Void) throws
        -> SystemThread
    {
        let owner = QueueOwner(released: released)
        let thread = try SystemThread(name: "test-release") {
            DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = owner.queue.label }
            dropped.wait()
        }
        return thread
    }

    /// With Foundation's `Thread`, the closure lives until the thread's thread-specific data is
    /// destroyed, after libdispatch freed that cache: the owner's release there reused freed
    /// memory, and glibc aborted the process at the thread's exit ("tcache_thread_shutdown():
    /// unaligned tcache chunk detected"), at the first or second round. Here every round releases
    /// the owner on the thread, inside its function, and the process lives on.
    @Test func theBodyIsReleasedOnTheThreadBeforeItEnds() throws {
        for _ in 0..<100 {
            let dropped = DispatchSemaphore(value: 0)
            let releasedOn = Releaser()
            let released = DispatchSemaphore(value: 0)
            let thread = try Self.start(dropped: dropped) { on in
                releasedOn.thread.withLock { $0 = on }
                released.signal()
            }
            // The test holds no reference now: the body's is the last.
            dropped.signal()
            #expect(released.wait(timeout: .now() + 30) == .success, "the owner is released")
            let on = try #require(releasedOn.thread.withLock { $0 })
            #expect(pthread_equal(on, pthread_self()) == 0, "released by the thread, which held the last reference")
            thread.join()
        }
    }
}
