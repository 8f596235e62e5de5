import Foundation
import GRDB
import PhotosCore

extension LibraryDatabase {
    /// The schema version this build writes and reads: the number of its migrations, kept in
    /// `PRAGMA user_version` so that other tools can tell a library's version too.
    public static var schemaVersion: Int { migrator.migrations.count }

    /// Brings a library's schema up to this build's, or refuses a library made by a newer build.
    ///
    /// A library whose `grdb_migrations` names a migration this build does not know, or whose
    /// `user_version` is above ``schemaVersion``, was made by a newer build: opening it would read
    /// tables whose meaning changed, and a migration here could damage it. It is refused with
    /// `StoreError.Code.newerSchema`, untouched.
    ///
    /// A file that holds nothing yet is given the schema at once from ``LibrarySchemaSnapshot``
    /// while it stands for this build's migrations (`fromSnapshot`; false runs the migrations).
    static func migrate(_ writer: any DatabaseWriter, path: String?, fromSnapshot: Bool = true) throws {
        let migrator = Self.migrator
        var applied = try writer.read { db in try checkSchema(db, path: path) }
        if applied == 0, fromSnapshot, LibrarySchemaSnapshot.standsFor(migrator.migrations) {
            // Checked again in the write: another process may have made the library meanwhile (the
            // migrator then finds what it made).
            let made = try writer.write { db -> Bool in
                guard try LibrarySchemaSnapshot.isEmpty(db) else { return false }
                try LibrarySchemaSnapshot.make(db)
                try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
                return true
            }
            if made { applied = migrator.migrations.count }
        }
        if applied < migrator.migrations.count {
            try migrator.migrate(writer)
            try writer.write { db in try db.execute(sql: "PRAGMA user_version = \(schemaVersion)") }
        }
        // Smart album counts kept by another build's triggers are made again with this build's
        // (a library that cannot be written is counted the slow way).
        guard try !writer.read(SmartAlbumCounts.areCurrent) else { return }
        do {
            try writer.write(SmartAlbumCounts.create)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            return
        }
    }

    /// Whether the file at `path` is an SQLite database in WAL mode, by its header (bytes 18 and
    /// 19, the file format's write and read versions, are 2 in WAL mode).
    static func isInWALMode(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 20)
        guard pread(descriptor, &header, header.count, 0) == header.count else { return false }
        return header[0..<16].elementsEqual(Array("SQLite format 3".utf8) + [0]) && header[18] == 2
            && header[19] == 2
    }

    /// Checks, through a read-only connection, that an existing file is no library of a newer
    /// build, before anything (even switching it to WAL mode) writes to it.
    static func checkSchema(ofExistingFile path: String, busyTimeout: TimeInterval) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        _ = try queue.read { db in try checkSchema(db, path: path) }
    }

    /// Throws `newerSchema` for a library of a newer build; returns how many migrations it has.
    private static func checkSchema(_ db: Database, path: String?) throws -> Int {
        let migrator = Self.migrator
        let applied = try migrator.appliedIdentifiers(db)
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let unknown = applied.subtracting(migrator.migrations).sorted()
        guard unknown.isEmpty, version <= schemaVersion else {
            let what = unknown.isEmpty ? "schema version \(version)" : "migrations \(unknown.joined(separator: ", "))"
            throw StoreError(
                .newerSchema,
                "the library at \(path ?? "memory") was made by a newer version of photosd (\(what); this build knows "
                    + "schema version \(schemaVersion)): it is not opened, so that nothing in it is changed",
                path: path)
        }
        return applied.count
    }

    /// The versioned schema. Add migrations at the end; never edit one that has shipped.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE asset (
                        id INTEGER PRIMARY KEY,
                        localIdentifier TEXT NOT NULL UNIQUE,
                        mediaType INTEGER NOT NULL,
                        mediaSubtypes INTEGER NOT NULL DEFAULT 0,
                        sourceType INTEGER NOT NULL DEFAULT 1,
                        pixelWidth INTEGER NOT NULL DEFAULT 0,
                        pixelHeight INTEGER NOT NULL DEFAULT 0,
                        creationDate REAL,
                        creationDateOffset INTEGER,
                        creationDateIsFloating INTEGER NOT NULL DEFAULT 0,
                        modificationDate REAL,
                        addedDate REAL NOT NULL,
                        latitude REAL,
                        longitude REAL,
                        altitude REAL,
                        duration REAL NOT NULL DEFAULT 0,
                        isFavorite INTEGER NOT NULL DEFAULT 0,
                        isHidden INTEGER NOT NULL DEFAULT 0,
                        burstIdentifier TEXT,
                        burstSelectionTypes INTEGER NOT NULL DEFAULT 0,
                        representsBurst INTEGER NOT NULL DEFAULT 0,
                        adjustmentFormatIdentifier TEXT,
                        isRAW INTEGER NOT NULL DEFAULT 0,
                        -- Shown by default: not a burst member other than the representative or a user pick.
                        isBurstVisible INTEGER GENERATED ALWAYS AS (
                            burstIdentifier IS NULL OR representsBurst OR (burstSelectionTypes & 2) != 0
                        ) VIRTUAL
                    );
                    -- Covers the default fetch (visible assets by date) without touching the table.
                    CREATE INDEX asset_by_creationDate ON asset(creationDate, isHidden, isBurstVisible);
                    CREATE INDEX asset_by_addedDate ON asset(addedDate);
                    CREATE INDEX asset_by_burst ON asset(burstIdentifier) WHERE burstIdentifier IS NOT NULL;
                    CREATE INDEX asset_by_mediaType_creationDate ON asset(mediaType, creationDate);

                    CREATE TABLE resource (
                        id INTEGER PRIMARY KEY,
                        assetId INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        type INTEGER NOT NULL,
                        path TEXT NOT NULL,
                        uniformTypeIdentifier TEXT,
                        mimeType TEXT,
                        fileSize INTEGER NOT NULL DEFAULT 0,
                        originalFilename TEXT NOT NULL
                    );
                    CREATE INDEX resource_by_asset ON resource(assetId);
                    CREATE INDEX resource_by_path ON resource(path);

                    CREATE TABLE collection (
                        id INTEGER PRIMARY KEY,
                        localIdentifier TEXT NOT NULL UNIQUE,
                        isList INTEGER NOT NULL,
                        type INTEGER NOT NULL,
                        subtype INTEGER NOT NULL,
                        title TEXT,
                        parentId INTEGER REFERENCES collection(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL DEFAULT 0,
                        path TEXT,
                        createdDate REAL NOT NULL
                    );
                    CREATE INDEX collection_by_parent ON collection(parentId, position);
                    CREATE INDEX collection_by_type ON collection(isList, type, subtype);

                    CREATE TABLE collection_asset (
                        collectionId INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                        assetId INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (collectionId, assetId)
                    ) WITHOUT ROWID;
                    CREATE INDEX collection_asset_by_position ON collection_asset(collectionId, position);
                    CREATE INDEX collection_asset_by_asset ON collection_asset(assetId);

                    CREATE TABLE change (
                        token INTEGER PRIMARY KEY AUTOINCREMENT,
                        timestamp REAL NOT NULL,
                        payload TEXT NOT NULL
                    );

                    -- The last state of deleted objects, so that fetch results taken before a deletion
                    -- still serve them (PhotoKit's snapshots do), and change details can show them.
                    CREATE TABLE tombstone (
                        rowId INTEGER NOT NULL,
                        isAsset INTEGER NOT NULL,
                        localIdentifier TEXT NOT NULL,
                        record TEXT NOT NULL,
                        token INTEGER NOT NULL,
                        PRIMARY KEY (isAsset, rowId)
                    ) WITHOUT ROWID;
                    CREATE INDEX tombstone_by_token ON tombstone(token);
                    """)
            for album in SmartAlbum.all {
                try db.execute(
                    sql: """
                        INSERT INTO collection (localIdentifier, isList, type, subtype, title, position, createdDate)
                        VALUES (?, 0, ?, ?, ?, ?, 0)
                        """,
                    arguments: [
                        album.localIdentifier, PHAssetCollectionType.smartAlbum.rawValue, album.subtype.rawValue,
                        album.title, album.position,
                    ])
            }
        }
        migrator.registerMigration("v2: visible assets by date") { db in
            // The default fetch (visible assets, ordered by creationDate then id) reads this index in
            // order. In asset_by_creationDate the flags sit between the date and the row id, so SQLite
            // had to sort every run of equal dates by id in a temporary B-tree: at 1M assets the ids
            // of an unfiltered fetch took 4x longer, and COUNT(*) scanned the whole table
            // (Benchmarks/photos-bench).
            try db.execute(
                sql: """
                    CREATE INDEX asset_visible_by_creationDate ON asset(creationDate)
                        WHERE isHidden = 0 AND isBurstVisible = 1;
                    """)
        }
        migrator.registerMigration("v3: files and directories on disk") { db in
            try db.execute(
                sql: """
                    -- Where a resource's file is on disk, to notice moves (same inode) and changes (size, mtime).
                    ALTER TABLE resource ADD COLUMN device INTEGER;
                    ALTER TABLE resource ADD COLUMN inode INTEGER;
                    ALTER TABLE resource ADD COLUMN modificationTime REAL;
                    CREATE INDEX resource_by_inode ON resource(device, inode) WHERE inode IS NOT NULL;
                    -- A hash of the whole content, computed only where another file has the same size:
                    -- enough to find identical files (duplicates, copies moved across devices).
                    ALTER TABLE resource ADD COLUMN contentHash TEXT;
                    -- Apple's content identifier, which pairs a Live Photo's still and movie.
                    ALTER TABLE resource ADD COLUMN contentIdentifier TEXT;
                    CREATE INDEX resource_by_size ON resource(fileSize);
                    CREATE INDEX resource_by_hash ON resource(contentHash) WHERE contentHash IS NOT NULL;

                    -- The directory behind a directory-backed collection, to follow renames.
                    ALTER TABLE collection ADD COLUMN device INTEGER;
                    ALTER TABLE collection ADD COLUMN inode INTEGER;
                    CREATE INDEX collection_by_path ON collection(path) WHERE path IS NOT NULL;

                    -- Files that look like media but could not be read, with the reason.
                    CREATE TABLE rejected (
                        path TEXT PRIMARY KEY,
                        code TEXT NOT NULL,
                        reason TEXT NOT NULL,
                        fileSize INTEGER NOT NULL,
                        modificationTime REAL NOT NULL,
                        rejectedDate REAL NOT NULL
                    ) WITHOUT ROWID;

                    -- The directories scanned or watched, and whether they could be reached.
                    CREATE TABLE root (
                        path TEXT PRIMARY KEY,
                        isOffline INTEGER NOT NULL DEFAULT 0,
                        lastScanDate REAL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v4: change history bounds") { db in
            try db.execute(
                sql: """
                    -- One row of facts about the library: its identity (tokens of another library are
                    -- refused) and the newest token pruned from the change log (older tokens expired).
                    CREATE TABLE library (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        identifier TEXT NOT NULL,
                        prunedThrough INTEGER NOT NULL DEFAULT 0
                    );
                    """)
            try db.execute(
                sql: "INSERT INTO library (id, identifier) VALUES (1, ?)", arguments: [UUID().uuidString])
        }
        migrator.registerMigration("v5: all assets by date") { db in
            // Fetches that include hidden assets or every burst member, ordered by date then id,
            // read this index in order (the covering one has flags between the date and the id,
            // which made SQLite sort: 32 ms instead of ~10 for 100k assets, photos-bench).
            try db.execute(sql: "CREATE INDEX asset_by_creationDate_only ON asset(creationDate)")
        }
        migrator.registerMigration("v6: tombstones by identifier") { db in
            // Change details find the rows of deleted assets, which the log names by identifier.
            try db.execute(sql: "CREATE INDEX tombstone_by_identifier ON tombstone(localIdentifier)")
        }
        migrator.registerMigration("v7: row ids are never reused") { db in
            // SQLite hands a deleted row's id to the next insert when it was the largest. A fetch
            // result kept from before would then show the new object in place of the deleted
            // one, and change details would call it a move. AUTOINCREMENT never reuses an id.
            try rebuildWithAutoincrement("asset", isAsset: true, db)
            try rebuildWithAutoincrement("collection", isAsset: false, db)
        }
        migrator.registerMigration("v8: the file journal") { db in
            try db.execute(
                sql: """
                    -- Files the library itself placed in its import folder: the only ones a deletion may remove.
                    ALTER TABLE resource ADD COLUMN isLibraryOwned INTEGER NOT NULL DEFAULT 0;
                    -- What is left to do on disk for a committed change block: files to put in place (a
                    -- copy staged under a temporary name, or the caller's file to move) and files to
                    -- remove. A row is written in the block's own transaction and deleted once its work is
                    -- done, so a crash in between is finished at the next open (FileJournalEntry).
                    CREATE TABLE fileJournal (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL CHECK (operation IN ('place', 'remove')),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v9: unreadable directories") { db in
            // A directory that exists but cannot be listed (permissions, a stale mount) is not
            // deleted: what the library had under it stays, unavailable, until it reads again.
            try db.execute(
                sql: """
                    CREATE TABLE unreadable_directory (
                        path TEXT PRIMARY KEY,
                        code INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        since REAL NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v10: what deleted objects were") { db in
            // A tombstone keeps the deleted row, but an asset's files were in its resource rows,
            // which go with it: a hook cleaning up after a deletion (a backup, a thumbnail, a search
            // index) needs their paths. JSON `[{"type": "photo", "path": "/..."}]`, photo or video
            // first; NULL for collections and for tombstones kept before this migration.
            try db.execute(sql: "ALTER TABLE tombstone ADD COLUMN resources TEXT")
        }
        registerHookMigration(&migrator)
        migrator.registerMigration("v12: files by pairing name") { db in
            // Grouping a new file reads the files of its directory it can pair with: those of its
            // pairing name (``PairingName``) or Apple content identifier. Asked through a function
            // of every row, that cost a scan of the directory per file (0.6 ms at 300 files, and
            // growing); kept in an indexed column, it is a lookup.
            try db.execute(sql: "ALTER TABLE resource ADD COLUMN pairingName TEXT")
            let update = try db.makeStatement(sql: "UPDATE resource SET pairingName = ? WHERE id = ?")
            let rows = try Row.fetchCursor(db, sql: "SELECT id, originalFilename FROM resource")
            while let row = try rows.next() {
                let name: String = row[1]
                try update.execute(arguments: [PairingName.of(name), row[0] as Int64])
            }
            try db.execute(
                sql: """
                    CREATE INDEX resource_by_pairing_name ON resource(pairingName);
                    CREATE INDEX resource_by_content_identifier ON resource(contentIdentifier);
                    """)
        }
        registerTokenMigration(&migrator)
        migrator.registerMigration("v14: visible favorites by date") { db in
            // Favorites newest first (the Favorites smart album, `favorite == YES` sorted by date) read
            // asset_visible_by_creationDate from the newest and looked each row up in the table until
            // enough were favorites: twenty rows read for each one kept when one in twenty is a
            // favorite, most of the cost of an API listing of 50 (photos-bench --api). With the flag
            // before the date, the favorites (or the others) are one run of this index, in order.
            try db.execute(
                sql: """
                    CREATE INDEX asset_visible_by_favorite_creationDate ON asset(isFavorite, creationDate)
                        WHERE isHidden = 0 AND isBurstVisible = 1;
                    """)
        }
        migrator.registerMigration("v15: album counts and dates kept") { db in
            try CollectionStats.create(db)
        }
        migrator.registerMigration("v16: star ratings") { db in
            // PHAsset.rating (PhotoKit SDK 27): 0 (none) to 5, the user's or the file's xmp:Rating.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN rating INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v17: selfies and screen recordings") { db in
            // Front-camera pictures (EXIF LensModel) for the Selfies smart album; photos scanned
            // before are flagged when their files are read again.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN isSelfie INTEGER NOT NULL DEFAULT 0")
            try SmartAlbum.insertMissing(db)
        }
        migrator.registerMigration("v18: smart album counts kept") { db in
            try SmartAlbumCounts.create(db)
        }
        migrator.registerMigration("v19: files by directory") { db in
            try FileDirectories.migrate(db)
        }
        migrator.registerMigration("v20: portrait, cinematic and spatial smart albums") { db in
            // Their subtypes are read from files since issue 14; photos scanned before get them
            // when their files are read again. The kept counts gain a column each: opening the
            // library makes the count table and its triggers again (`migrate`).
            try SmartAlbum.insertMissing(db)
        }
        migrator.registerMigration("v21: original resource choice") { db in
            // PHAsset.originalResourceChoice (PhotoKit SDK 27): which original of a RAW+JPEG pair
            // renders and edits start from, 0 (compressed, PhotoKit's default) or 1 (RAW).
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN originalResourceChoice INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v22: pairing names by directory") { db in
            // Files pair (Live Photos, RAW+JPEG) only within their directory, so pairing names are
            // looked up by directory first. Keyed by name alone, a camera's IMG_0001 of every folder
            // shared one place in the index: a first scan of folders of camera names wrote each
            // directory's names all over it, and its disk writes nearly doubled (265 MB against
            // 140 at 100,000 files); by directory they arrive in order.
            try db.execute(
                sql: """
                    DROP INDEX resource_by_pairing_name;
                    CREATE INDEX resource_by_directory_pairing_name ON resource(directoryId, pairingName);
                    """)
        }
        migrator.registerMigration("v23: camera make and model") { db in
            // For the predicate keys `make` and `model` (EXIF Make and Model). Photos scanned before
            // get them when their files are read again.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN make TEXT")
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN model TEXT")
        }
        migrator.registerMigration("v24: the file journal carries the library's changes to the roots") { db in
            // Besides placing and removing the import folder's files, the journal now carries what
            // change blocks do under watched roots that allow it (RootWritePolicy): files moved to the
            // Trash, directories and files renamed, sidecars brought up to date with their asset
            // (`assetId`). SQLite cannot change a CHECK constraint in place: the table is made again.
            try db.execute(
                sql: """
                    CREATE TABLE fileJournal_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL
                            CHECK (operation IN ('place', 'remove', 'trash', 'rename', 'sidecar')),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL,
                        assetId INTEGER
                    );
                    INSERT INTO fileJournal_new (id, operation, destination, staged, source, removeSource, device,
                        inode, fileSize, modificationTime, owner)
                    SELECT id, operation, destination, staged, source, removeSource, device, inode, fileSize,
                        modificationTime, owner FROM fileJournal;
                    DROP TABLE fileJournal;
                    ALTER TABLE fileJournal_new RENAME TO fileJournal;
                    """)
        }
        migrator.registerMigration("v25: Recently Deleted") { db in
            // A deleted asset whose files went to the Trash is kept here, out of the asset table (so
            // that no fetch or count sees it), until it is restored or its days are up
            // (TrashedAsset): its row, its resources and its album memberships as they were, and
            // where each of its files went.
            try db.execute(
                sql: """
                    CREATE TABLE trashedAsset (
                        assetId INTEGER PRIMARY KEY,
                        localIdentifier TEXT NOT NULL UNIQUE,
                        trashedDate REAL NOT NULL,
                        record TEXT NOT NULL,
                        resources TEXT NOT NULL,
                        memberships TEXT NOT NULL
                    );
                    CREATE INDEX trashedAsset_by_date ON trashedAsset(trashedDate);
                    CREATE TABLE trashedFile (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        assetId INTEGER NOT NULL REFERENCES trashedAsset(assetId) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        trashDirectory TEXT NOT NULL,
                        trashKind TEXT NOT NULL,
                        trashTop TEXT NOT NULL,
                        trashName TEXT
                    );
                    CREATE INDEX trashedFile_by_asset ON trashedFile(assetId);
                    CREATE INDEX trashedFile_by_inode ON trashedFile(inode, device);
                    """)
        }
        migrator.registerMigration("v26: sidecar merge bases") { db in
            // What the library last wrote to or read from each asset's XMP sidecar, the base of the
            // three-way merge when the sidecar (another tool) or the asset (the library) changes next.
            try SidecarBase.create(db)
        }
        migrator.registerMigration("v27: Recently Deleted smart album") { db in
            // The trashed assets (v25) as a smart album of their own, a Linux subtype
            // (PHAssetCollectionSubtype.smartAlbumRecentlyDeleted).
            try SmartAlbum.insertMissing(db)
        }
        migrator.registerMigration("v28: album manifests") { db in
            // The journal also writes each root's album manifest (the user albums and folders, for a
            // library rebuilt from the disk): a new operation, so the table is made again (SQLite
            // cannot change a CHECK constraint in place), keeping its rows and its id sequence.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fileJournal'")
            try db.execute(
                sql: """
                    CREATE TABLE fileJournal_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL
                            CHECK (operation IN ('place', 'remove', 'trash', 'rename', 'sidecar', 'manifest')),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL,
                        assetId INTEGER
                    );
                    INSERT INTO fileJournal_new (id, operation, destination, staged, source, removeSource, device,
                        inode, fileSize, modificationTime, owner, assetId)
                    SELECT id, operation, destination, staged, source, removeSource, device, inode, fileSize,
                        modificationTime, owner, assetId FROM fileJournal;
                    DROP TABLE fileJournal;
                    ALTER TABLE fileJournal_new RENAME TO fileJournal;
                    """)
            if let sequence {
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'fileJournal'",
                    arguments: [sequence])
                try db.execute(
                    sql: """
                        INSERT INTO sqlite_sequence (name, seq) SELECT 'fileJournal', ?
                        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'fileJournal')
                        """, arguments: [sequence])
            }
        }
        migrator.registerMigration("v29: directories the library makes") { db in
            // An album created inside a directory-backed folder is a directory the library makes
            // (`madeDirectory`): the mirror keeps its album while the directory exists, empty or not,
            // and the file journal makes it (`mkdir`). The journal's table is made again for the new
            // operation (SQLite cannot change a CHECK constraint in place), keeping its rows and its
            // id sequence.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fileJournal'")
            try db.execute(
                sql: """
                    ALTER TABLE collection ADD COLUMN madeDirectory INTEGER;
                    CREATE TABLE fileJournal_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL
                            CHECK (operation IN ('place', 'remove', 'trash', 'rename', 'sidecar', 'manifest', 'mkdir')),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL,
                        assetId INTEGER
                    );
                    INSERT INTO fileJournal_new (id, operation, destination, staged, source, removeSource, device,
                        inode, fileSize, modificationTime, owner, assetId)
                    SELECT id, operation, destination, staged, source, removeSource, device, inode, fileSize,
                        modificationTime, owner, assetId FROM fileJournal;
                    DROP TABLE fileJournal;
                    ALTER TABLE fileJournal_new RENAME TO fileJournal;
                    """)
            if let sequence {
                try db.execute(
                    sql: """
                        INSERT INTO sqlite_sequence (name, seq) SELECT 'fileJournal', ?
                        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'fileJournal')
                        """, arguments: [sequence])
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'fileJournal'",
                    arguments: [sequence])
            }
        }
        migrator.registerMigration("v30: imports") { db in
            // Imports from drop folders: the journal links or copies each file into a root
            // (`import`), and what a copying import took is remembered by content (`importedContent`),
            // so that a card inserted again is not imported twice. The journal's table is made again
            // for the new operation, keeping its rows and its id sequence.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fileJournal'")
            try db.execute(
                sql: """
                    CREATE TABLE importedContent (
                        contentHash TEXT NOT NULL,
                        fileSize INTEGER NOT NULL,
                        source TEXT NOT NULL,
                        destination TEXT NOT NULL,
                        importedDate REAL NOT NULL,
                        PRIMARY KEY (contentHash, fileSize)
                    ) WITHOUT ROWID;
                    CREATE TABLE fileJournal_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL
                            CHECK (operation IN (
                                'place', 'remove', 'trash', 'rename', 'sidecar', 'manifest', 'mkdir', 'import')),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL,
                        assetId INTEGER
                    );
                    INSERT INTO fileJournal_new (id, operation, destination, staged, source, removeSource, device,
                        inode, fileSize, modificationTime, owner, assetId)
                    SELECT id, operation, destination, staged, source, removeSource, device, inode, fileSize,
                        modificationTime, owner, assetId FROM fileJournal;
                    DROP TABLE fileJournal;
                    ALTER TABLE fileJournal_new RENAME TO fileJournal;
                    """)
            if let sequence {
                try db.execute(
                    sql: """
                        INSERT INTO sqlite_sequence (name, seq) SELECT 'fileJournal', ?
                        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'fileJournal')
                        """, arguments: [sequence])
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'fileJournal'",
                    arguments: [sequence])
            }
        }
        migrator.registerMigration("v31: dates taken from the file's time") { db in
            // An asset whose file states no date is dated by the file's modification time, and now
            // says so. Rows made before are found as the scanner left them: no offset, not
            // floating, and the date of one of the asset's files to the millisecond.
            try db.execute(
                sql: """
                    ALTER TABLE asset ADD COLUMN creationDateIsFileTime INTEGER NOT NULL DEFAULT 0;
                    UPDATE asset SET creationDateIsFileTime = 1
                    WHERE creationDateOffset IS NULL AND creationDateIsFloating = 0 AND creationDate IS NOT NULL
                        AND EXISTS (
                            SELECT 1 FROM resource r
                            WHERE r.assetId = asset.id AND abs(r.modificationTime - asset.creationDate) < 0.001);
                    """)
        }
        migrator.registerMigration("v32: speed and course") { db in
            // For `PHAsset.location`'s speed and course (EXIF GPSSpeed and GPSTrack). Photos
            // scanned before get them when their files are read again.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN speed REAL")
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN course REAL")
        }
        migrator.registerMigration("v33: roots by host") { db in
            // In a library several hosts share, the host whose disk holds each root (NULL: none
            // has scanned it there; always so in a library file).
            try db.execute(sql: "ALTER TABLE root ADD COLUMN host TEXT")
        }
        migrator.registerMigration("v34: file work by host") { db in
            // The host whose disk a file journal entry's paths are on: only that host's processes
            // read, take over and carry out the entry (NULL in a library file, which one machine holds).
            try db.execute(sql: "ALTER TABLE fileJournal ADD COLUMN host TEXT")
        }
        migrator.registerMigration("v35: sort indexes in the order reads sort") { _ in
            // PostgreSQL's sort indexes are made again NULLs first, as SQLite orders them, with the
            // row id last (PostgreSQLSchema.sortIndexes). A file's indexes already are: a NULL sorts
            // first in SQLite, and every index ends with the row id. Nothing changes here.
        }
        migrator.registerMigration("v36: counts kept once a statement") { _ in
            // PostgreSQL's counting triggers become statement triggers, for inserts of many rows a
            // statement (PostgreSQLSchema.statementTriggersAgain). SQLite has no statement
            // triggers, and its inserts are one row each: nothing changes here.
        }
        migrator.registerMigration("v37: roots named by host and path") { db in
            // In a library several hosts share, two hosts' /home/me/Pictures are two roots: each
            // row kept by path names the host whose disk the path is on ("" for none: a library
            // file's, or one copied from a file, which the first host to scan its root takes). A
            // library file keeps its paths unique alone; the (path, host) indexes give both engines
            // the same conflict targets.
            for table in RootHosts.tablesGivenAHost {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN host TEXT NOT NULL DEFAULT ''")
            }
            for statement in RootHosts.migration { try db.execute(sql: statement) }
        }
        migrator.registerMigration(Self.filesBySizeAndTime.identifier) { db in
            for statement in Self.filesBySizeAndTime.statements { try db.execute(sql: statement) }
        }
        migrator.registerMigration(Self.restoresJournaled) { db in
            // A restore from the Trash is journaled too (`restore`): the table is made again for the
            // new operation (SQLite cannot change a CHECK constraint in place), keeping its rows, its
            // host column and its id sequence.
            let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'fileJournal'")
            try db.execute(
                sql: """
                    CREATE TABLE fileJournal_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        operation TEXT NOT NULL
                            CHECK (operation IN (\(Self.journalOperations))),
                        destination TEXT NOT NULL,
                        staged TEXT,
                        source TEXT,
                        removeSource INTEGER NOT NULL DEFAULT 0,
                        device INTEGER,
                        inode INTEGER,
                        fileSize INTEGER,
                        modificationTime REAL,
                        owner INTEGER NOT NULL,
                        assetId INTEGER,
                        host TEXT
                    );
                    INSERT INTO fileJournal_new (id, operation, destination, staged, source, removeSource, device,
                        inode, fileSize, modificationTime, owner, assetId, host)
                    SELECT id, operation, destination, staged, source, removeSource, device, inode, fileSize,
                        modificationTime, owner, assetId, host FROM fileJournal;
                    DROP TABLE fileJournal;
                    ALTER TABLE fileJournal_new RENAME TO fileJournal;
                    """)
            if let sequence {
                try db.execute(
                    sql: """
                        INSERT INTO sqlite_sequence (name, seq) SELECT 'fileJournal', ?
                        WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'fileJournal')
                        """, arguments: [sequence])
                try db.execute(
                    sql: "UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'fileJournal'",
                    arguments: [sequence])
            }
        }
        migrator.registerMigration(Self.birthTimes.identifier) { db in
            for statement in Self.birthTimes.sqlite { try db.execute(sql: statement) }
        }
        return migrator
    }

    /// A file new at a path that is no known file's is looked for among the files of the same size
    /// and modification time (a copy moved across devices keeps its asset): with an index on the
    /// size alone, every file of that size was read for each new file, and a folder of files of one
    /// size (uncompressed RAWs, the same picture copied) scanned in quadratic time, 20,000 new files
    /// beside 10,000 known ones in 54 s. Both engines make the same index.
    static let filesBySizeAndTime = (
        identifier: "v38: files by size and time",
        statements: [
            "DROP INDEX resource_by_size",
            "CREATE INDEX resource_by_size_time ON resource(fileSize, modificationTime)",
        ]
    )

    /// The migration that journals restores from the Trash (`restore`, a new operation).
    static let restoresJournaled = "v39: restores journaled"

    /// The migration that keeps each file's birth time (nanoseconds since 1970; NULL where the file
    /// system keeps none, and for files stored before it, until a scan sees them): with the device
    /// and inode, what tells a file from one given its inode number after it went.
    static let birthTimes = (
        identifier: "v40: files by birth time",
        sqlite: ["ALTER TABLE resource ADD COLUMN birthTime INTEGER"],
        postgreSQL: ["ALTER TABLE resource ADD COLUMN birthTime BIGINT"]
    )

    /// The file journal's operations, as its CHECK constraint lists them (both engines).
    static let journalOperations = FileJournalEntry.Operation.allCases.map { "'\($0.rawValue)'" }
        .joined(separator: ", ")

    /// Rebuilds a table as its `id INTEGER PRIMARY KEY AUTOINCREMENT` twin, keeping its rows, ids
    /// and indexes (SQLite's way to change a table's definition; foreign keys are off during
    /// migrations). No id that a live row or a tombstone holds is handed out again.
    private static func rebuildWithAutoincrement(_ table: String, isAsset: Bool, _ db: Database) throws {
        guard
            let definition = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]),
            let primaryKey = definition.range(of: "id INTEGER PRIMARY KEY,"),
            definition.hasPrefix("CREATE TABLE \(table) (")
        else { throw StoreError(.corrupt, "unexpected definition of table \(table)") }
        var rebuilt = definition
        rebuilt.replaceSubrange(primaryKey, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
        rebuilt = "CREATE TABLE \(table)_rebuilt (" + rebuilt.dropFirst("CREATE TABLE \(table) (".count)
        let indexes = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
            arguments: [table])
        // table_info leaves out generated columns, which cannot be inserted.
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }
            .joined(separator: ", ")
        try db.execute(sql: rebuilt)
        try db.execute(sql: "INSERT INTO \(table)_rebuilt (\(columns)) SELECT \(columns) FROM \(table)")
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE \(table)_rebuilt RENAME TO \(table)")
        for index in indexes { try db.execute(sql: index) }
        try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ?", arguments: [table])
        try db.execute(
            sql: """
                INSERT INTO sqlite_sequence (name, seq) SELECT ?1, MAX(COALESCE(a, 0), COALESCE(b, 0))
                FROM (SELECT MAX(id) AS a FROM \(table)), (SELECT MAX(rowId) AS b FROM tombstone WHERE isAsset = ?2)
                """, arguments: [table, isAsset])
    }
}
