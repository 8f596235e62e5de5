import Foundation

extension LibraryDatabase {
    /// Whether a file is some asset's resource: the one at `path`, or any with the same device and
    /// inode (another name of the same file, a hard link). The API refuses to take such a file as
    /// a new asset: a client would otherwise copy what it may not read, or move what is not its own.
    public func isResourceFile(path: String, device: Int64, inode: Int64) throws -> Bool {
        try read { db in
            let (ids, arguments) = FileDirectories.ids(at: [path], db.dialect)
            if try db.scalarInt64("SELECT 1 FROM resource WHERE id IN (\(ids)) LIMIT 1", arguments) != nil {
                return true
            }
            return try db.scalarInt64(
                "SELECT 1 FROM resource WHERE device = ? AND inode = ? LIMIT 1", [.int(device), .int(inode)]) != nil
        }
    }

    /// The local identifiers of the assets whose files (any of them) are at `paths`, by path: what
    /// names an asset by one of its files (`photos rm IMG_1.JPG`), in one indexed look-up per path
    /// rather than a search through every asset's names.
    public func assetIdentifiers(ofFilesAt paths: [String]) throws -> [String: String] {
        guard !paths.isEmpty else { return [:] }
        return try read { db in
            let (ids, arguments) = FileDirectories.ids(at: paths, db.dialect)
            let rows = try db.rows(
                """
                SELECT \(FileDirectories.path(db.dialect)), a.localIdentifier FROM \(FileDirectories.join)
                JOIN asset a ON a.id = r.assetId WHERE r.id IN (\(ids))
                """, arguments
            ) { (path: try $0.text(0), identifier: try $0.text(1)) }
            return Dictionary(rows.map { ($0.path, $0.identifier) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Records the device and inode of the file at `path` (a file the library copied there from
    /// another file system, which is a new inode with the same bytes and times), so that the scanner
    /// knows it as the same file; its birth time is the copy's, learnt at the next scan.
    /// Bookkeeping, outside the change log.
    public func noteFileIdentity(at path: String, device: Int64, inode: Int64) throws {
        _ = try bookkeeping { db in
            let (ids, arguments) = FileDirectories.ids(at: [path], db.dialect)
            try db.execute(
                "UPDATE resource SET device = ?, inode = ?, birthTime = NULL WHERE id IN (\(ids))",
                [.int(device), .int(inode)] + arguments)
        }
    }

    /// Records the birth times of files the store knew without one (kept since before birth times
    /// were, or copied by the library) as a scan found them unchanged: by resource id. Bookkeeping,
    /// outside the change log; one statement for all.
    public func noteBirthTimes(_ times: [(resourceID: Int64, birthTime: Int64)]) throws {
        guard !times.isEmpty else { return }
        let pairs = "[" + times.map { "[\($0.resourceID),\($0.birthTime)]" }.joined(separator: ",") + "]"
        _ = try bookkeeping { db in
            let dialect = db.dialect
            try db.execute(
                """
                UPDATE resource SET birthTime = CAST(\(dialect.element(1, of: "t.value")) AS BIGINT)
                FROM \(dialect.elementsOfJSONArray(as: "t"))
                WHERE resource.id = CAST(\(dialect.element(0, of: "t.value")) AS BIGINT) AND resource.birthTime IS NULL
                """, [.text(pairs)])
        }
    }
}
