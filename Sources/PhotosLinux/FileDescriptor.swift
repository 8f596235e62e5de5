/// An open file descriptor, closed once, when the last reference to it goes.
///
/// For descriptors shared between a component and its thread (an inotify instance and its
/// reader), so that the thread can never use a descriptor already closed, or reused by another
/// file. Short-lived descriptors are closed where they are opened, with ``Syscall/close(_:)``.
public final class FileDescriptor: Sendable {
    /// The descriptor.
    public let rawValue: Int32

    /// Takes ownership of `rawValue`: it is closed when this object goes.
    public init(_ rawValue: Int32) {
        precondition(rawValue >= 0, "not a descriptor: \(rawValue)")
        self.rawValue = rawValue
    }

    deinit { Syscall.close(rawValue) }
}
