import GRDB
import PhotosCore

/// How the store keeps the path of a resource's file: its directory once, in the `directory`
/// table (the path up to and with its last "/"), and its name in the resource row.
///
/// A library of a million photos in a thousand folders held each folder's path a thousand times
/// over, in the rows and again in the index on paths: about 150 of every asset's 700 bytes. Kept
/// once per directory, a path costs a small integer and its name, and the index that finds a file
/// by path is an index on (directory, name).
///
/// SQL that reads resources joins the two as `resource r JOIN directory d ON d.id = r.directoryId`
/// (``join``) and reads a file's path as `d.path || r.name` (``path(_:)``; another host's file as
/// `nas:/srv/photos/IMG_1.JPG`, ``RootHosts``). Conditions on where files
/// are go on `d.path`: the directory paths end with "/", so a range of paths under a root is the
/// same range of directory paths. In a library several hosts share, a path is found on this host
/// (``RootHosts``): the conditions here keep to its directories.
enum FileDirectories {
    /// The resources with their directories.
    static let join = "resource r JOIN directory d ON d.id = r.directoryId"

    /// A file's path, in SQL over ``join``: in a library several hosts share, another host's file
    /// is named by its host, `nas:/srv/photos/IMG_1.JPG` (``RootHosts``).
    static func path(_ dialect: SQLDialect) -> String {
        "\(dialect.hostedPath("d")) || r.name"
    }

    /// Every column of a resource row, its path (``path(_:)``) in place of its directory and name,
    /// in the order ``ResourceRecord/init(row:)`` reads them.
    static func columns(_ dialect: SQLDialect) -> String {
        """
        r.id, r.assetId, r.type, \(path(dialect)), r.uniformTypeIdentifier, r.mimeType, r.fileSize,
        COALESCE(r.originalFilename, r.name), r.device, r.inode, r.modificationTime, r.contentHash,
        r.contentIdentifier, r.isLibraryOwned, r.pixelWidth, r.pixelHeight, r.birthTime
        """
    }

    /// Splits a path at its last "/": the directory with its "/", and the name after it.
    static func split(_ path: String) -> (directory: String, name: String) {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
        let nameStart = bytes.index(after: slash)
        return (String(path[..<nameStart]), String(path[nameStart...]))
    }

    /// The condition on ``join`` for files directly in `directory`, not below it.
    static func directlyIn(_ directory: String, _ dialect: SQLDialect) -> (String, [SQLValue]) {
        (
            "d.path = ? AND \(dialect.isThisHost("d.host"))",
            [.text(directory.hasSuffix("/") ? directory : directory + "/")]
        )
    }

    /// The condition on ``join`` for files under `root`, at any depth: one range of the index on
    /// directory paths.
    static func under(_ root: String, _ dialect: SQLDialect) -> (String, [SQLValue]) {
        let (range, arguments) = LibraryTransaction.under(root, column: "d.path")
        return ("\(range) AND \(dialect.isThisHost("d.host"))", arguments)
    }

    /// A query of the row ids of the resources at these paths, for `id IN (...)`: a search of the
    /// index on (directory, name) per path.
    static func ids(at paths: some Sequence<String>, _ dialect: SQLDialect) -> (String, [SQLValue]) {
        let pairs = paths.map { path in
            let (directory, name) = split(path)
            return JSONText.array([directory, name])
        }
        return (
            """
            SELECT fr.id FROM \(dialect.elementsOfJSONArray(as: "fj"))
                JOIN directory fd ON fd.path = \(dialect.element(0, of: "fj.value")) AND \(dialect.isThisHost("fd.host"))
                JOIN resource fr ON fr.directoryId = fd.id AND fr.name = \(dialect.element(1, of: "fj.value"))
            """,
            [.text("[" + pairs.joined(separator: ",") + "]")]
        )
    }

    /// The row of `directory` (a path ending with "/"), inserted if the library has no file there yet.
    static func id(of directory: String, _ db: some StoreConnection) throws -> Int64 {
        if let id = try db.scalarInt64(
            "SELECT id FROM directory WHERE path = ? AND \(db.dialect.isThisHost("host"))", [.text(directory)])
        {
            return id
        }
        return try db.insert("INSERT INTO directory (path) VALUES (?)", [.text(directory)])
    }

    /// Moves the paths of the `resource` table into `directory` (schema v19). The resource table is
    /// made again with `directoryId` and `name` in place of `path`; its `originalFilename` is NULL
    /// where it is the file's name (most files: a scanned file's name is its original name), and
    /// its index on Apple content identifiers holds only the files that have one. Each file gets
    /// its displayed size (`PHAssetResource.pixelWidth`). Two indexes of
    /// assets by date are traded for one that serves the query they were for (see below).
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE directory (
                    id INTEGER PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE
                );
                -- rtrim of every character but "/" leaves the path up to and with its last "/".
                INSERT INTO directory (path)
                    SELECT DISTINCT rtrim(path, replace(path, '/', '')) FROM resource ORDER BY 1;
                CREATE TABLE resource_rebuilt (
                    id INTEGER PRIMARY KEY,
                    assetId INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    type INTEGER NOT NULL,
                    directoryId INTEGER NOT NULL REFERENCES directory(id),
                    name TEXT NOT NULL,
                    uniformTypeIdentifier TEXT,
                    mimeType TEXT,
                    fileSize INTEGER NOT NULL DEFAULT 0,
                    -- NULL when it is the name.
                    originalFilename TEXT,
                    device INTEGER,
                    inode INTEGER,
                    modificationTime REAL,
                    contentHash TEXT,
                    contentIdentifier TEXT,
                    isLibraryOwned INTEGER NOT NULL DEFAULT 0,
                    pairingName TEXT,
                    -- The file's displayed size (PHAssetResource.pixelWidth), NULL when not known.
                    pixelWidth INTEGER,
                    pixelHeight INTEGER
                );
                INSERT INTO resource_rebuilt
                    SELECT r.id, r.assetId, r.type, d.id, substr(r.path, length(d.path) + 1), r.uniformTypeIdentifier,
                        r.mimeType, r.fileSize, nullif(r.originalFilename, substr(r.path, length(d.path) + 1)), r.device,
                        r.inode, r.modificationTime, r.contentHash, r.contentIdentifier, r.isLibraryOwned, r.pairingName,
                        -- An unedited asset's size is its photo's or video's; other files are read again
                        -- (or stay unknown).
                        CASE WHEN r.type IN (1, 2) AND a.adjustmentFormatIdentifier IS NULL THEN nullif(a.pixelWidth, 0) END,
                        CASE WHEN r.type IN (1, 2) AND a.adjustmentFormatIdentifier IS NULL THEN nullif(a.pixelHeight, 0) END
                    FROM resource r JOIN directory d ON d.path = rtrim(r.path, replace(r.path, '/', ''))
                    LEFT JOIN asset a ON a.id = r.assetId;
                DROP TABLE resource;
                ALTER TABLE resource_rebuilt RENAME TO resource;
                CREATE INDEX resource_by_asset ON resource(assetId);
                CREATE INDEX resource_by_file ON resource(directoryId, name);
                CREATE INDEX resource_by_inode ON resource(device, inode) WHERE inode IS NOT NULL;
                CREATE INDEX resource_by_size ON resource(fileSize);
                CREATE INDEX resource_by_hash ON resource(contentHash) WHERE contentHash IS NOT NULL;
                CREATE INDEX resource_by_pairing_name ON resource(pairingName);
                CREATE INDEX resource_by_content_identifier ON resource(contentIdentifier) WHERE contentIdentifier IS NOT NULL;

                -- A directory's row lives as long as a file of the library is in it.
                CREATE TRIGGER directory_emptied AFTER DELETE ON resource
                WHEN NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = old.directoryId) BEGIN
                    DELETE FROM directory WHERE id = old.directoryId;
                END;
                CREATE TRIGGER directory_left AFTER UPDATE OF directoryId ON resource
                WHEN NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = old.directoryId) BEGIN
                    DELETE FROM directory WHERE id = old.directoryId;
                END;

                -- Redundant: visible assets by date read asset_visible_by_creationDate (v2), all assets by
                -- date asset_by_creationDate_only (v5). 21 bytes of every asset.
                DROP INDEX asset_by_creationDate;
                -- Recently Added (visible assets added in the last 30 days) is counted at every listing of
                -- albums: through asset_by_addedDate that was a read of each asset's row for its flags,
                -- 190 to 480 ms after an import of a million. Counted in this index alone, 63 ms.
                -- Nothing else reads assets by their added date.
                DROP INDEX asset_by_addedDate;
                CREATE INDEX asset_visible_by_addedDate ON asset(addedDate) WHERE isHidden = 0 AND isBurstVisible = 1;
                """)
    }
}
