import Foundation
import PhotosCore
import PhotosStore

/// Builds the JSON document a hook reads on standard input. TEMPORARY: identifiers only, until
/// the wire module's descriptions land.
struct HookPayloadBuilder: Sendable {
    let database: LibraryDatabase
    let timeZone: TimeZone

    func payload(hook: String, since: Int64, until: Int64, changes: [SelectedChange]) throws -> [UInt8] {
        struct Doc: Encodable {
            var hook: String
            var since: Int64
            var until: Int64
            var changes: [[String: Int64]]
        }
        return Array(try JSONEncoder().encode(Doc(hook: hook, since: since, until: until, changes: changes.map { ["token": $0.token] })))
    }

    func expired(hook: String, since: Int64, until: Int64) throws -> [UInt8] {
        Array("{\"hook\":\"\(hook)\",\"since\":\(since),\"until\":\(until),\"expired\":true,\"changes\":[]}".utf8)
    }
}
