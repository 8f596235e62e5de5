import Glibc

/// Loopback TCP ports for tests of listeners: one the kernel picks, held or released.
public enum LoopbackPort {
    /// A loopback port of the kernel's pick, bound by `descriptor` (and listening, if asked) until
    /// it is closed.
    public static func bound(listening: Bool = false) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, size) == 0 && getsockname(descriptor, pointer, &size) == 0
                    && (!listening || listen(descriptor, 1) == 0)
            }
        }
        if !bound { close(descriptor) }
        guard bound else { throw LoopbackPortError() }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on now (the kernel's pick, released).
    public static func free() throws -> Int {
        let (descriptor, port) = try bound()
        close(descriptor)
        return port
    }
}

/// No loopback port could be bound.
public struct LoopbackPortError: Error, CustomStringConvertible {
    public var description: String { "cannot bind a loopback port" }
}
