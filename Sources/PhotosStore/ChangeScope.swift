import PhotosCore

/// What part of the change log a follower is told of: the object types, the kinds of change, a
/// predicate on assets, and albums. A hook's filter (`objects`, `changes`, `predicate`, `albums`)
/// and a limited client's change stream (its token's albums) are both a scope; ``Selector`` applies
/// one to entries as they are read.
///
/// An entry keeps, per object type in ``objects``, the identifiers of the kinds in ``kinds`` that
/// pass the rules below (and the changed properties of those kept); an entry nothing passes is
/// left out. Assets must also match ``predicate`` when there is one (a deleted asset is matched on
/// its tombstone, its last description). What ``albums`` means depends on ``bound``:
///
/// | | ``AlbumBound/assets`` (a hook) | ``AlbumBound/albumsAndTheirAssets`` (a limited client) |
/// |---|---|---|
/// | albums named by | directory or local identifier | local identifier |
/// | no album named | every asset | nothing |
/// | an inserted or updated asset passes when | it is in one of the albums now | the same |
/// | a deleted asset passes when | a file of it lay in an album's directory, or in a named one | it was seen in one |
/// | album changes | all | those of the albums only |
/// | folder changes | all | none |
///
/// A directory named that is no album yet counts for deleted assets (it may become one). A selector
/// sees an asset in the albums when it is made and at each ``Selector/select(_:)``.
///
/// The two differ because a hook's scope outlives the process (its cursor is durable: what it was
/// told is not remembered, a deleted asset's files tell where it was) while a client's lives as
/// long as its stream (it remembers what it saw, so a user album's deleted asset is told too).
///
/// ```swift
/// var scope = ChangeScope(objects: [.asset], kinds: [.inserted], albums: ["/home/me/Pictures/Family"])
/// var selector = try scope.selector(in: database)
/// for entry in try selector.select(database.changes(after: token)) { print(entry.asset.inserted) }
/// ```
public struct ChangeScope: Sendable, Hashable {
    /// What happened to an object, as a scope names it.
    public enum ChangeKind: String, Sendable, Hashable, CaseIterable, Codable {
        case inserted, updated, deleted
    }

    /// How ``albums`` bound the scope (the table in ``ChangeScope``).
    public enum AlbumBound: Sendable, Hashable {
        /// The albums' assets; album and folder changes are not bound. A hook's `albums`.
        case assets
        /// The albums themselves and their assets, nothing else. A limited token's albums.
        case albumsAndTheirAssets
    }

    /// The object types in scope.
    public var objects: Set<PHObjectType>
    /// The kinds of change in scope.
    public var kinds: Set<ChangeKind>
    /// A PhotoKit predicate format assets must match; nil: every asset.
    public var predicate: String?
    /// Directory paths or local identifiers of albums (see ``bound``).
    public var albums: [String]
    /// What ``albums`` bound.
    public var bound: AlbumBound

    /// A scope; the defaults let everything through.
    public init(
        objects: Set<PHObjectType> = Set(PHObjectType.allCases), kinds: Set<ChangeKind> = Set(ChangeKind.allCases),
        predicate: String? = nil, albums: [String] = [], bound: AlbumBound = .assets
    ) {
        self.objects = objects
        self.kinds = kinds
        self.predicate = predicate
        self.albums = albums
        self.bound = bound
    }

    /// What a limited token's client is told of: these albums (local identifiers) and their assets.
    public static func limited(toAlbums albums: [String]) -> ChangeScope {
        ChangeScope(objects: [.asset, .assetCollection], albums: albums, bound: .albumsAndTheirAssets)
    }

    /// The predicate compiled for a store of `dialect`; throws what is wrong with it.
    package func compiledPredicate(dialect: SQLDialect = .sqlite) throws(PredicateFormatError) -> SQLFragment? {
        guard let predicate else { return nil }
        return try PhotoKitPredicate(format: predicate, arguments: []).sql(
            for: .asset, dialect: dialect, column: AssetQuery.column(for:))
    }

    /// A selector of this scope over `database`. Throws `PredicateFormatError` for a predicate
    /// that does not compile, or the store's error reading the albums' members (bound
    /// ``AlbumBound/albumsAndTheirAssets``: the selector remembers them from now on).
    public func selector(in database: LibraryDatabase) throws -> Selector {
        try Selector(scope: self, database: database)
    }

    /// A scope applied to entries as a follower reads them; it remembers the assets it saw in
    /// the albums (bound ``AlbumBound/albumsAndTheirAssets``).
    public struct Selector: Sendable {
        /// The scope applied.
        public let scope: ChangeScope
        let database: LibraryDatabase
        let predicate: SQLFragment?
        /// Every asset seen in the albums since the selector was made: their deletions pass.
        private var seen: Set<String> = []

        init(scope: ChangeScope, database: LibraryDatabase) throws {
            self.scope = scope
            self.database = database
            predicate = try scope.compiledPredicate(dialect: database.dialect)
            if scope.bound == .albumsAndTheirAssets {
                seen = try database.assetIdentifiers(inAlbums: scope.albums)
            }
        }

        /// What of these entries is in scope, entry by entry; entries nothing passes are left out.
        /// The store is asked once for the whole batch, not once per entry.
        public mutating func select(_ entries: [LibraryChange]) throws -> [LibraryChange] {
            let assets = try assetsInScope(of: entries)
            let albums = scope.bound == .albumsAndTheirAssets ? Set(scope.albums) : nil
            var selected: [LibraryChange] = []
            for entry in entries {
                var kept = LibraryChange(token: entry.token, timestamp: entry.timestamp)
                if scope.objects.contains(.asset) {
                    kept.asset = keep(entry.asset) { identifier, kind in
                        assets.map { kind == .deleted ? $0.deleted.contains(identifier) : $0.live.contains(identifier) }
                            ?? true
                    }
                }
                if scope.objects.contains(.assetCollection) {
                    kept.assetCollection = keep(entry.assetCollection) { identifier, _ in
                        albums?.contains(identifier) ?? true
                    }
                }
                if scope.objects.contains(.collectionList), scope.bound == .assets {
                    kept.collectionList = keep(entry.collectionList) { _, _ in true }
                }
                // Where the kept assets came from, and the sidecar edits they settled: only theirs.
                let keptAssets = Set(kept.asset.inserted + kept.asset.updated)
                kept.imports = entry.imports?.filter { keptAssets.contains($0.localIdentifier) }.nilIfEmpty
                kept.sidecarConflicts =
                    entry.sidecarConflicts?.filter { keptAssets.contains($0.localIdentifier) }.nilIfEmpty
                if kept.objectCount > 0 { selected.append(kept) }
            }
            return selected
        }

        /// The assets of `entries` that pass, live and deleted; nil when every asset passes.
        private mutating func assetsInScope(of entries: [LibraryChange]) throws
            -> (live: Set<String>, deleted: Set<String>)?
        {
            guard scope.objects.contains(.asset) else { return nil }
            var live: [String] = []
            var deleted: [String] = []
            for entry in entries {
                if scope.kinds.contains(.inserted) { live += entry.asset.inserted }
                if scope.kinds.contains(.updated) { live += entry.asset.updated }
                if scope.kinds.contains(.deleted) { deleted += entry.asset.deleted }
            }
            switch scope.bound {
            case .assets:
                guard predicate != nil || !scope.albums.isEmpty else { return nil }
                var albumIDs: [Int64]?
                var directories: [String]?
                if !scope.albums.isEmpty {
                    // Looked up at each batch: a directory that becomes an album later (the first
                    // scan of a new library) counts from then on.
                    let albums = try database.resolveAlbums(scope.albums)
                    albumIDs = albums.ids
                    // A path that is no album yet may become one; a deleted asset's files tell.
                    directories = albums.directories + albums.missing.filter { $0.hasPrefix("/") }
                }
                let live = try database.assetIdentifiers(among: live, matching: predicate, inAlbums: albumIDs)
                let deleted = try database.deletedAssetIdentifiers(
                    among: deleted, matching: predicate, inDirectories: directories)
                return (live, deleted)
            case .albumsAndTheirAssets:
                let members = try database.assetIdentifiers(inAlbums: scope.albums)
                seen.formUnion(members)
                guard let predicate else { return (members, seen) }
                let matching = try database.assetIdentifiers(among: live, matching: predicate, inAlbums: nil)
                let deletedMatching = try database.deletedAssetIdentifiers(
                    among: deleted, matching: predicate, inDirectories: nil)
                return (members.intersection(matching), seen.intersection(deletedMatching))
            }
        }

        /// The identifiers of the kinds in scope that pass, and the changed properties of those kept.
        private func keep(_ changes: ObjectChanges, _ passes: (String, ChangeKind) -> Bool) -> ObjectChanges {
            var kept = ObjectChanges()
            if scope.kinds.contains(.inserted) { kept.inserted = changes.inserted.filter { passes($0, .inserted) } }
            if scope.kinds.contains(.updated) { kept.updated = changes.updated.filter { passes($0, .updated) } }
            if scope.kinds.contains(.deleted) { kept.deleted = changes.deleted.filter { passes($0, .deleted) } }
            let ids = Set(kept.inserted + kept.updated + kept.deleted)
            kept.changedProperties = changes.changedProperties.filter { ids.contains($0.key) }
            return kept
        }
    }
}

extension Array {
    /// Nil for an empty array: a change entry's optional lists are absent, never empty.
    fileprivate var nilIfEmpty: [Element]? { isEmpty ? nil : self }
}
