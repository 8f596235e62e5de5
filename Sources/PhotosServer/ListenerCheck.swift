import Foundation
import Glibc

extension APIServer {
    /// Whether photosd's listeners can be had, checked before it starts anything: a daemon whose
    /// API cannot start is a startup error with a plain sentence, not a log line and a daemon
    /// running on without it.
    ///
    /// The socket's directory must exist (photosd makes only its fallback, `/tmp/photosd-UID`), and
    /// the socket's path must be free or a stale socket nobody answers on; a TCP address must be
    /// free to bind. Throws ``APIStartError`` saying which and why:
    /// ```swift
    /// try APIServer.checkListeners(socket: "/run/user/1000/photosd.sock", listen: try ListenAddress("127.0.0.1:8421"))
    /// // 127.0.0.1:8421 is taken: Address already in use (another program listens there; choose another port)
    /// ```
    public static func checkListeners(socket: String, listen: ListenAddress?) throws(APIStartError) {
        if !socket.isEmpty {
            let directory = (socket as NSString).deletingLastPathComponent
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw APIStartError(
                    "the socket's directory \(directory) does not exist; photosd does not make it (make it, or choose "
                        + "another socket with --socket or the config's socket)")
            }
            try SocketFile.check(socket)
        }
        if let listen { try checkBind(listen) }
    }

    /// Binds `address` once and lets it go: the port must not be another program's.
    static func checkBind(_ address: ListenAddress) throws(APIStartError) {
        let isIPv6 = address.host.contains(":")
        let descriptor = Glibc.socket(
            isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw APIStartError("cannot make a TCP socket: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        // As the server binds: SO_REUSEADDR, so that a port in TIME_WAIT is not taken for a busy one.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let result =
            isIPv6
            ? bind(descriptor, as: sockaddr_in6.self) {
                $0.sin6_family = sa_family_t(AF_INET6)
                $0.sin6_port = in_port_t(UInt16(address.port).bigEndian)
                inet_pton(AF_INET6, address.host, &$0.sin6_addr)
            }
            : bind(descriptor, as: sockaddr_in.self) {
                $0.sin_family = sa_family_t(AF_INET)
                $0.sin_port = in_port_t(UInt16(address.port).bigEndian)
                inet_pton(AF_INET, address.host, &$0.sin_addr)
            }
        guard result == 0 else {
            let number = errno
            let why =
                number == EADDRINUSE
                ? "another program listens there; choose another port" : "photosd cannot listen there"
            throw APIStartError("\(address) is taken: \(String(cString: strerror(number))) (\(why))")
        }
    }

    /// `bind(2)` of `descriptor` to the address `fill` writes into a zeroed `Address` (a
    /// `sockaddr_in` or `sockaddr_in6`).
    private static func bind<Address>(_ descriptor: Int32, as _: Address.Type, _ fill: (inout Address) -> Void)
        -> Int32
    {
        let storage = UnsafeMutablePointer<Address>.allocate(capacity: 1)
        defer { storage.deallocate() }
        UnsafeMutableRawPointer(storage).initializeMemory(
            as: UInt8.self, repeating: 0, count: MemoryLayout<Address>.size)
        fill(&storage.pointee)
        return storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
        }
    }
}
