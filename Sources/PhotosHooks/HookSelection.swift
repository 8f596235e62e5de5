import PhotosCore
import PhotosStore

/// What of one change-log entry a hook is told: the objects that pass its filter.
public struct SelectedChange: Sendable, Hashable {
    /// The entry's token.
    public var token: Int64
    /// Per object type, what passed: identifiers by kind of change, and the updated ones' changed properties.
    public var asset = ObjectChanges()
    /// What passed of the albums.
    public var assetCollection = ObjectChanges()
    /// What passed of the folders.
    public var collectionList = ObjectChanges()

    /// How many objects the hook is given for this entry.
    public var count: Int {
        [asset, assetCollection, collectionList].reduce(0) { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count }
    }
}

/// A hook's filter, compiled once: object types, kinds of change, the predicate on assets, and the
/// albums assets must be in. Applied per object; an entry nothing passes gives no run.
public struct HookFilter: Sendable {
    let hook: HookDefinition
    let predicate: SQLFragment?

    /// Compiles the hook's predicate; throws ``HookError`` naming what is wrong. Its albums are
    /// looked up at each batch: a directory that becomes an album later (the daemon's first scan of
    /// a new library) counts from then on.
    public init(hook: HookDefinition) throws {
        self.hook = hook
        if let format = hook.predicate {
            do {
                let parsed = try PhotoKitPredicate(format: format, arguments: [])
                predicate = try parsed.sql(for: .asset, column: AssetQuery.column(for:))
            } catch {
                throw HookError(
                    hook: hook.name, "predicate \"\(format)\": \(error.message)")
            }
        } else {
            predicate = nil
        }
    }

    /// Whether the filter needs the store to decide about assets.
    var asksStore: Bool { predicate != nil || !hook.albums.isEmpty }

    /// What of these entries passes, entry by entry (entries nothing passes are left out).
    public func select(_ entries: [LibraryChange], in database: LibraryDatabase) throws -> [SelectedChange] {
        var liveMatches: Set<String> = []
        var deletedMatches: Set<String> = []
        if asksStore, hook.objects.contains(.asset) {
            // One query for the whole batch, not one per entry.
            var live: [String] = []
            var deleted: [String] = []
            for entry in entries {
                if hook.changes.contains(.inserted) { live += entry.asset.inserted }
                if hook.changes.contains(.updated) { live += entry.asset.updated }
                if hook.changes.contains(.deleted) { deleted += entry.asset.deleted }
            }
            var albumIDs: [Int64]?
            var directories: [String]?
            if !hook.albums.isEmpty {
                let albums = try database.resolveAlbums(hook.albums)
                albumIDs = albums.ids
                // A path that is no album yet may become one; a deleted asset's files tell.
                directories = albums.directories + albums.missing.filter { $0.hasPrefix("/") }
            }
            liveMatches = try database.assetIdentifiers(among: live, matching: predicate, inAlbums: albumIDs)
            deletedMatches = try database.deletedAssetIdentifiers(
                among: deleted, matching: predicate, inDirectories: directories)
        }
        var selected: [SelectedChange] = []
        for entry in entries {
            var change = SelectedChange(token: entry.token)
            if hook.objects.contains(.asset) {
                change.asset = keep(entry.asset) { identifier, kind in
                    guard asksStore else { return true }
                    return kind == .deleted ? deletedMatches.contains(identifier) : liveMatches.contains(identifier)
                }
            }
            if hook.objects.contains(.assetCollection) {
                change.assetCollection = keep(entry.assetCollection) { _, _ in true }
            }
            if hook.objects.contains(.collectionList) {
                change.collectionList = keep(entry.collectionList) { _, _ in true }
            }
            if change.count > 0 { selected.append(change) }
        }
        return selected
    }

    private func keep(_ changes: ObjectChanges, _ passes: (String, HookDefinition.ChangeKind) -> Bool) -> ObjectChanges {
        var kept = ObjectChanges()
        if hook.changes.contains(.inserted) { kept.inserted = changes.inserted.filter { passes($0, .inserted) } }
        if hook.changes.contains(.updated) {
            kept.updated = changes.updated.filter { passes($0, .updated) }
            kept.changedProperties = changes.changedProperties.filter { kept.updated.contains($0.key) }
        }
        if hook.changes.contains(.deleted) { kept.deleted = changes.deleted.filter { passes($0, .deleted) } }
        return kept
    }
}

/// A hook that cannot run as configured, or a `photos hooks` request that cannot be done.
public struct HookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The hook's name.
    public var hook: String
    /// What is wrong.
    public var message: String

    /// An error about `hook`.
    public init(hook: String, _ message: String) {
        self.hook = hook
        self.message = message
    }

    /// `hook NAME: message`.
    public var description: String { "hook \(hook): \(message)" }
}
