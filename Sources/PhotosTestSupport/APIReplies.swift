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
