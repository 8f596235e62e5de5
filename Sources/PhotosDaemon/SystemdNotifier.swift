import Foundation
import Glibc

/// Tells systemd how the daemon is doing (`sd_notify`), for units with `Type=notify`.
///
/// Messages go as datagrams to the socket named by `$NOTIFY_SOCKET`; without it (not started
/// by systemd) every call does nothing.
/// ```swift
/// let notifier = SystemdNotifier()
/// notifier.send("READY=1")
/// ```
public struct SystemdNotifier: Sendable {
    /// The socket path, or nil when systemd did not ask to be notified.
    public let socketPath: String?
    /// How often systemd expects a `WATCHDOG=1`, from `$WATCHDOG_USEC`.
    public let watchdogInterval: Duration?

    /// Reads `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` from `environment`.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if let micros = environment["WATCHDOG_USEC"].flatMap(Int64.init), micros > 0 {
            watchdogInterval = .microseconds(micros)
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends one message (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`); false when not sent.
    ///
    /// The corresponding C calls are `socket(AF_UNIX, SOCK_DGRAM)` and `sendto`.
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard var path = socketPath else { return false }
        // An abstract socket is written with a leading "@" and addressed with a leading NUL.
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count + (abstract ? 1 : 0) < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let start = abstract ? 1 : 0
            for (index, byte) in bytes.enumerated() { buffer[start + index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 1 : 0))
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, payload, payload.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == payload.count
    }
}
