import Dispatch
import Foundation
import Glibc
import Synchronization

/// A TCP address to connect to: a `sockaddr_in` or `sockaddr_in6` as getaddrinfo gives it.
struct SocketAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    var family: Int32
}

/// Host names to addresses (`getaddrinfo`), for a connection that must not outlive its timeout
/// nor its cancellation: a resolver that does not answer can hold glibc for many seconds (5 s a
/// try, per server, per family), and nothing interrupts it.
enum HostLookup {
    /// The TCP addresses of `host` (an IP literal, or a name looked up) on `port`, in the order
    /// getaddrinfo prefers. A literal is parsed on the calling thread; a name is looked up on a
    /// thread of its own, waited for at most `timeout` seconds and no longer than `cancellation`
    /// allows (a lookup given up on finishes alone, its answer dropped).
    static func addresses(
        of host: String, port: Int, timeout: Int, cancellation: APIConnection.Cancellation
    ) throws(APIConnection.ConnectionError) -> [SocketAddress] {
        if case .success(let addresses) = resolve(host, port: port, flags: AI_NUMERICHOST) { return addresses }
        let answer = Answer()
        Thread { answer.finish(resolve(host, port: port, flags: 0)) }.start()
        guard cancellation.wait(for: answer.done, seconds: timeout) else { throw .init("stopped") }
        switch answer.result {
        case .success(let addresses)?: return addresses
        case .failure(let reason)?: throw .init("cannot look up \(host): \(reason)")
        case nil: throw .init("cannot look up \(host): no answer within \(timeout) s")
        }
    }

    /// A lookup's answer, handed from its thread.
    private final class Answer: Sendable {
        let done = DispatchSemaphore(value: 0)
        private let state = Mutex<Result<[SocketAddress], LookupFailure>?>(nil)

        func finish(_ result: Result<[SocketAddress], LookupFailure>) {
            state.withLock { $0 = result }
            done.signal()
        }

        var result: Result<[SocketAddress], LookupFailure>? { state.withLock { $0 } }
    }

    /// getaddrinfo's reason (`gai_strerror`).
    struct LookupFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// `getaddrinfo` for TCP, with `flags` (`AI_NUMERICHOST`: literals only, nothing waits).
    private static func resolve(_ host: String, port: Int, flags: Int32) -> Result<[SocketAddress], LookupFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = flags | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, "\(port)", &hints, &list)
        guard code == 0 else {
            let reason = code == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(code))
            return .failure(LookupFailure(description: reason))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 else { continue }
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
            }
            addresses.append(SocketAddress(storage: storage, length: info.ai_addrlen, family: info.ai_family))
        }
        guard !addresses.isEmpty else { return .failure(LookupFailure(description: "no IPv4 or IPv6 address")) }
        return .success(addresses)
    }
}
