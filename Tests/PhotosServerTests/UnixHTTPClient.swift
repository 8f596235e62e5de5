import Foundation
import PhotosClient
import Testing

/// The tests speak to the server through the client `photos` uses.
typealias UnixHTTPClient = APIConnection

extension APIConnection.Reply {
    /// The body as a JSON object, or the test fails.
    func object() throws -> [String: Any] { try #require(try json() as? [String: Any]) }
}
