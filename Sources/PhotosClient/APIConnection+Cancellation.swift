import Dispatch
import Glibc
import Synchronization

extension APIConnection {
    /// Ends a TCP connection's waiting from another thread, at any point of its life: the name
    /// lookup, the connect, the TLS handshake, a read or a write. Made before the connection (so
    /// that a stop that comes first is not lost), handed to its initializer, flipped once.
    ///
    /// ```swift
    /// let cancellation = APIConnection.Cancellation()
    /// // on a thread of its own:
    /// let connection = try APIConnection(host: "photos.example.net", port: 443, timeout: 30,
    ///                                    tls: .init(serverName: "photos.example.net"), cancellation: cancellation)
    /// // elsewhere, when the daemon stops:
    /// cancellation.cancel()   // the initializer, or the read in progress, throws at once
    /// ```
    public final class Cancellation: Sendable {
        private struct State {
            var cancelled = false
            /// The socket being connected or in use; shut down by `cancel` (never closed: its
            /// connection closes it, after `forget`, so the number is never one reused by another).
            var descriptor: Int32?
            /// A wait for a name lookup, woken by `cancel`.
            var wake: DispatchSemaphore?
        }

        private let state = Mutex(State())

        /// A cancellation not cancelled yet.
        public init() {}

        /// Ends the connection's wait, now and from now on: `shutdown` on its socket (a read, a
        /// write, a connect or a handshake in progress fails), or the end of a lookup's wait.
        public func cancel() {
            state.withLock { state in
                state.cancelled = true
                if let descriptor = state.descriptor { shutdown(descriptor, Int32(SHUT_RDWR)) }
                state.wake?.signal()
            }
        }

        /// Whether `cancel` was called.
        public var isCancelled: Bool { state.withLock { $0.cancelled } }

        /// Shuts `descriptor` down when cancelled; false (and nothing kept) if cancelled already.
        func watch(_ descriptor: Int32) -> Bool {
            state.withLock { state in
                guard !state.cancelled else { return false }
                state.descriptor = descriptor
                return true
            }
        }

        /// Stops watching `descriptor`, before it is closed.
        func forget(_ descriptor: Int32) {
            state.withLock { state in
                if state.descriptor == descriptor { state.descriptor = nil }
            }
        }

        /// Waits for `done` to be signalled for at most `seconds`; false if cancelled before or meanwhile.
        func wait(for done: DispatchSemaphore, seconds: Int) -> Bool {
            let cancelled = state.withLock { state in
                state.wake = done
                return state.cancelled
            }
            guard !cancelled else { return false }
            _ = done.wait(timeout: .now() + .seconds(seconds))
            return state.withLock { state in
                state.wake = nil
                return !state.cancelled
            }
        }
    }
}
