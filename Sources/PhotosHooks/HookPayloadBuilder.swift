import Foundation
import PhotosCore
import PhotosStore
import PhotosWire

/// Builds the JSON document a hook reads on standard input (``HookPayload``): each object as it
/// is now, read in one batch for the whole run, and deleted objects from their tombstones.
struct HookPayloadBuilder: Sendable {
    let database: LibraryDatabase
    let timeZone: TimeZone

    func payload(hook: String, since: Int64, until: Int64, changes: [LibraryChange]) throws -> [UInt8] {
        let reader = DescriptionReader(database: database, timeZone: timeZone)
        // What exists now, in one read per object type for the run.
        var assetIDs: [String] = []
        var collectionIDs: [String] = []
        var deletedIDs: [String] = []
        for change in changes {
            assetIDs += change.asset.inserted + change.asset.updated
            collectionIDs +=
                change.assetCollection.inserted + change.assetCollection.updated
                + change.collectionList.inserted + change.collectionList.updated
            deletedIDs += change.asset.deleted + change.assetCollection.deleted + change.collectionList.deleted
        }
        let assets = Dictionary(
            try reader.assetJSON(.localIdentifiers(Array(Set(assetIDs)))).map { ($0.localIdentifier, $0) },
            uniquingKeysWith: { first, _ in first })
        let collections = Dictionary(
            try reader.collections(.localIdentifiers(Array(Set(collectionIDs)))).map { ($0.localIdentifier, $0) },
            uniquingKeysWith: { first, _ in first })
        let tombstones = try database.deletedObjects(localIdentifiers: Array(Set(deletedIDs)))

        func objects<Object>(_ changes: ObjectChanges, type: PHObjectType, _ current: [String: Object])
            -> HookPayload.Objects<Object>
        {
            var objects = HookPayload.Objects<Object>()
            // An object inserted or updated, then deleted later in the same run, is told by its
            // deletion: "as the object is now" has nothing to say of it.
            objects.inserted = changes.inserted.compactMap { current[$0] }
            objects.updated = changes.updated.compactMap { identifier in
                current[identifier].map { ($0, changes.changedProperties[identifier] ?? []) }
            }
            objects.deleted = changes.deleted.map { identifier in
                tombstones[identifier].map(DeletedObjectDescription.init)
                    ?? DeletedObjectDescription(localIdentifier: identifier, objectType: type)
            }
            return objects
        }
        var payload = HookPayload(hook: hook, since: since, until: until)
        for change in changes {
            var entry = HookPayload.Change(token: change.token)
            entry.assets = objects(change.asset, type: .asset, assets)
            entry.assetCollections = objects(change.assetCollection, type: .assetCollection, collections)
            entry.collectionLists = objects(change.collectionList, type: .collectionList, collections)
            entry.sidecarConflicts = change.sidecarConflicts ?? []
            entry.imports = change.imports ?? []
            payload.changes.append(entry)
        }
        return try payload.encoded()
    }

    func expired(hook: String, since: Int64, until: Int64) throws -> [UInt8] {
        try HookPayload(hook: hook, since: since, until: until, expired: true).encoded()
    }
}
