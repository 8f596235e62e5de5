import PhotosCore

/// An asset's local identifier and the path of its photo (its first original): what a root's
/// identifier log keeps of it.
public struct AssetFile: Sendable, Hashable {
    /// The asset's local identifier.
    public var localIdentifier: String
    /// The absolute path of its first original.
    public var path: String

    /// An asset's identifier and the path of its first original.
    public init(localIdentifier: String, path: String) {
        self.localIdentifier = localIdentifier
        self.path = path
    }
}

extension LibraryDatabase {
    /// The path of asset `a`'s first original (photo before video, then the oldest), in SQL: the file
    /// an album manifest and an identifier log name it by.
    static func firstOriginal(_ dialect: SQLDialect) -> String {
        """
        (SELECT \(FileDirectories.path(dialect)) FROM \(FileDirectories.join)
            WHERE r.assetId = a.id AND r.type IN (1, 2, 3, 4) ORDER BY r.type, r.id LIMIT 1)
        """
    }

    /// Every asset with a file under `root`, with the path of its first original, and the newest
    /// change-log token, read together: the files are those of that token.
    public func assetFiles(under root: String) throws -> (files: [AssetFile], token: Int64) {
        try read { db in
            let (condition, arguments) = FileDirectories.under(root, db.dialect)
            let files = try db.rows(
                """
                SELECT a.localIdentifier, \(Self.firstOriginal(db.dialect)) AS file FROM asset a
                WHERE a.id IN (SELECT r.assetId FROM \(FileDirectories.join) WHERE \(condition))
                """, arguments, Self.assetFile)
            return (files.compactMap { $0 }, try Self.newestToken(db))
        }
    }

    /// The assets among `localIdentifiers` that the library has, with the path of their first original.
    public func assetFiles(localIdentifiers: [String]) throws -> [AssetFile] {
        guard !localIdentifiers.isEmpty else { return [] }
        return try read { db in
            try db.rows(
                """
                SELECT a.localIdentifier, \(Self.firstOriginal(db.dialect)) AS file FROM asset a
                WHERE a.localIdentifier IN (\(db.dialect.elementsOfJSONArray()))
                """, [.text(JSONText.array(localIdentifiers))], Self.assetFile
            ).compactMap { $0 }
        }
    }

    /// How many assets have a file under `root`.
    public func assetCount(under root: String) throws -> Int {
        try read { db in
            let (condition, arguments) = FileDirectories.under(root, db.dialect)
            return Int(
                try db.scalarInt64(
                    "SELECT COUNT(DISTINCT r.assetId) FROM \(FileDirectories.join) WHERE \(condition)", arguments) ?? 0)
        }
    }

    /// An asset and its first original's path from a row of both; nil for an asset with no original.
    private static func assetFile(_ row: StoreRow) throws -> AssetFile? {
        guard let file = row.optionalText(1) else { return nil }
        return AssetFile(localIdentifier: try row.text(0), path: file)
    }
}

extension LibraryTransaction {
    /// Gives the assets whose files are at the paths of `identifiers` (absolute path → local
    /// identifier) those identifiers back (a library rebuilt from the disk, where a root's identifier
    /// log names them), in path order, except where no asset has a file at the path, another asset
    /// has that identifier, the asset already took one, or the asset's own identifier is the one its
    /// sidecar names (`sidecarIdentifier` reads that from the sidecar's merge base). Where two
    /// sidecars name one identifier (a photo copied with its sidecar), the log says whose it is: the
    /// asset the scan gave it to, whose path the log names another identifier for (or none: a copy
    /// made since the last scan), takes that one (or a new one), and the other asset the identifier. Returns how many
    /// identifiers it gave.
    ///
    /// Like the album manifest's ``restoreUserCollection(_:)``, this is a rebuild's bookkeeping: it
    /// records no change.
    public func restoreIdentifiers(_ identifiers: [String: String], sidecarIdentifier: (String) -> String?) throws
        -> Int
    {
        guard !identifiers.isEmpty else { return 0 }
        let (files, fileArguments) = FileDirectories.ids(at: identifiers.keys, db.dialect)
        var assets: [String: (id: Int64, current: String, state: String?)] = [:]
        _ = try db.rows(
            """
            SELECT d.path || r.name AS path, a.id, a.localIdentifier, s.state FROM \(FileDirectories.join)
            JOIN asset a ON a.id = r.assetId LEFT JOIN sidecarBase s ON s.assetId = a.id
            WHERE r.id IN (\(files))
            """, fileArguments
        ) { assets[try $0.text(0)] = (try $0.int64(1), try $0.text(2), $0.optionalText(3)) }
        var used = Set(
            try db.rows(
                "SELECT localIdentifier FROM asset WHERE localIdentifier IN (\(db.dialect.elementsOfJSONArray()))",
                [.text(JSONText.array(Array(identifiers.values)))]
            ) { try $0.text(0) })
        var changed: Set<Int64> = []
        var count = 0
        // Two sidecars that name one identifier (a photo copied with its sidecar): the scan gave it
        // to the first it read. The log, which names each path's own, says whose it is: the holder
        // the log names another identifier for gives it up for that one (or a new one), first.
        for (path, identifier) in identifiers.sorted(by: { $0.key < $1.key }) {
            guard let asset = assets[path], asset.current != identifier, used.contains(identifier),
                let state = asset.state, sidecarIdentifier(state) == identifier
            else { continue }
            // The holder: at a path the log names another identifier for, or none (a copy made
            // since the last scan).
            let logged = assets.first { $0.value.current == identifier }
            guard
                let holder = try logged?.value.id
                    ?? db.scalarInt64("SELECT id FROM asset WHERE localIdentifier = ?", [.text(identifier)]),
                !changed.contains(holder)
            else { continue }
            let own = logged.flatMap { identifiers[$0.key] }
            guard own != identifier else { continue }
            let replacement = own.flatMap { used.contains($0) ? nil : $0 } ?? LocalIdentifier.make(.asset)
            try db.execute("UPDATE asset SET localIdentifier = ? WHERE id = ?", [.text(replacement), .int(holder)])
            if let (holderPath, _) = logged { assets[holderPath]?.current = replacement }
            used.insert(replacement)
            used.remove(identifier)
            changed.insert(holder)
            count += 1
        }
        for (path, identifier) in identifiers.sorted(by: { $0.key < $1.key }) {
            guard let asset = assets[path], asset.current != identifier, !used.contains(identifier),
                !changed.contains(asset.id)
            else { continue }
            if let state = asset.state, sidecarIdentifier(state) == asset.current { continue }
            try db.execute("UPDATE asset SET localIdentifier = ? WHERE id = ?", [.text(identifier), .int(asset.id)])
            used.insert(identifier)
            changed.insert(asset.id)
            count += 1
        }
        return count
    }
}
