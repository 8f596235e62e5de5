import Foundation
import PhotosClient

/// The tests speak to the server through the client `photos` uses.
public typealias UnixHTTPClient = APIConnection

extension APIConnection.Reply {
    /// The body as a JSON object; throws ``NotAJSONObject`` when it is something else.
    public func object() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw NotAJSONObject(status: status, body: text) }
        return object
    }
}

/// A reply whose body was expected to be a JSON object and is not.
public struct NotAJSONObject: Error, CustomStringConvertible {
    /// The reply's HTTP status.
    public let status: Int
    /// The reply's body as text.
    public let body: String

    public var description: String { "expected a JSON object, got HTTP \(status): \(body.prefix(500))" }
}

extension APIConnection {
    /// One request to a loopback TCP listener on `port`, read whole (off Swift's shared pool).
    public static func tcp(
        _ port: Int, _ method: String, _ target: String, headers: [String: String] = [:], body: String = ""
    ) async throws -> Reply {
        try await offPool {
            let connection = try APIConnection(host: "127.0.0.1", port: port, timeout: 30)
            var headers = headers
            if !body.isEmpty { headers["Content-Type"] = "application/json" }
            let head = try connection.send(method, target, headers: headers, body: Array(body.utf8))
            return Reply(status: head.status, headers: head.headers, body: try connection.readAll())
        }
    }
}
