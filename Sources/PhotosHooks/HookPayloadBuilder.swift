import Foundation
import PhotosCore
import PhotosStore

/// Builds the JSON document a hook reads on standard input. TEMPORARY: identifiers only, until
/// the wire module's descriptions land.
struct HookPayloadBuilder: Sendable {
    let database: LibraryDatabase
    let timeZone: TimeZone

    struct Object: Encodable {
        var localIdentifier: String
        var changedProperties: [String]?
    }
    struct Objects: Encodable {
        var inserted: [Object]
        var updated: [Object]
        var deleted: [Object]
    }
    struct Change: Encodable {
        var token: Int64
        var assets: Objects
        var assetCollections: Objects
        var collectionLists: Objects
    }
    struct Document: Encodable {
        var hook: String
        var since: Int64
        var until: Int64
        var expired: Bool
        var changes: [Change]
    }

    func payload(hook: String, since: Int64, until: Int64, changes: [SelectedChange]) throws -> [UInt8] {
        func objects(_ changes: ObjectChanges) -> Objects {
            Objects(
                inserted: changes.inserted.map { Object(localIdentifier: $0) },
                updated: changes.updated.map { Object(localIdentifier: $0, changedProperties: changes.changedProperties[$0] ?? []) },
                deleted: changes.deleted.map { Object(localIdentifier: $0) })
        }
        let document = Document(
            hook: hook, since: since, until: until, expired: false,
            changes: changes.map {
                Change(
                    token: $0.token, assets: objects($0.asset), assetCollections: objects($0.assetCollection),
                    collectionLists: objects($0.collectionList))
            })
        return Array(try JSONEncoder().encode(document))
    }

    func expired(hook: String, since: Int64, until: Int64) throws -> [UInt8] {
        Array(try JSONEncoder().encode(Document(hook: hook, since: since, until: until, expired: true, changes: [])))
    }
}
