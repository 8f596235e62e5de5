// Written by LibrarySchemaSnapshotTests (PHOTOS_RECORD_SCHEMA=1): do not edit.

extension LibrarySchemaSnapshot {
    static let migrations: [String] = [
        #"v1"#,
        #"v2: visible assets by date"#,
        #"v3: files and directories on disk"#,
        #"v4: change history bounds"#,
        #"v5: all assets by date"#,
        #"v6: tombstones by identifier"#,
        #"v7: row ids are never reused"#,
        #"v8: the file journal"#,
        #"v9: unreadable directories"#,
        #"v10: what deleted objects were"#,
        #"v11: hook cursors"#,
        #"v12: files by pairing name"#,
        #"v13: access tokens"#,
        #"v14: visible favorites by date"#,
        #"v15: album counts and dates kept"#,
        #"v16: star ratings"#,
        #"v17: selfies and screen recordings"#,
        #"v18: smart album counts kept"#,
        #"v19: files by directory"#,
        #"v20: portrait, cinematic and spatial smart albums"#,
        #"v21: original resource choice"#,
        #"v22: pairing names by directory"#,
        #"v23: camera make and model"#,
        #"v24: the file journal carries the library's changes to the roots"#,
        #"v25: Recently Deleted"#,
        #"v26: sidecar merge bases"#,
        #"v27: Recently Deleted smart album"#,
        #"v28: album manifests"#,
        #"v29: directories the library makes"#,
        #"v30: imports"#,
        #"v31: dates taken from the file's time"#,
        #"v32: speed and course"#,
        #"v33: roots by host"#,
        #"v34: file work by host"#,
        #"v35: sort indexes in the order reads sort"#,
        #"v36: counts kept once a statement"#,
        #"v37: roots named by host and path"#,
        #"v38: files by size and time"#,
        #"v39: restores journaled"#,
        #"v40: files by birth time"#,
    ]

    static let statements: [String] = [
        #"""
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)
        """#,
        #"""
        CREATE TABLE collection_asset (
            collectionId INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
            assetId INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            PRIMARY KEY (collectionId, assetId)
        ) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE change (
            token INTEGER PRIMARY KEY AUTOINCREMENT,
            timestamp REAL NOT NULL,
            payload TEXT NOT NULL
        )
        """#,
        #"""
        CREATE TABLE tombstone (
            rowId INTEGER NOT NULL,
            isAsset INTEGER NOT NULL,
            localIdentifier TEXT NOT NULL,
            record TEXT NOT NULL,
            token INTEGER NOT NULL, resources TEXT,
            PRIMARY KEY (isAsset, rowId)
        ) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE rejected (
            path TEXT PRIMARY KEY,
            code TEXT NOT NULL,
            reason TEXT NOT NULL,
            fileSize INTEGER NOT NULL,
            modificationTime REAL NOT NULL,
            rejectedDate REAL NOT NULL
        , host TEXT NOT NULL DEFAULT '') WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE root (
            path TEXT PRIMARY KEY,
            isOffline INTEGER NOT NULL DEFAULT 0,
            lastScanDate REAL
        , host TEXT) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE library (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            identifier TEXT NOT NULL,
            prunedThrough INTEGER NOT NULL DEFAULT 0
        , hookHistoryLimit INTEGER NOT NULL DEFAULT 1000000)
        """#,
        #"""
        CREATE TABLE "asset" (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
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
        , rating INTEGER NOT NULL DEFAULT 0, isSelfie INTEGER NOT NULL DEFAULT 0, originalResourceChoice INTEGER NOT NULL DEFAULT 0, make TEXT, model TEXT, creationDateIsFileTime INTEGER NOT NULL DEFAULT 0, speed REAL, course REAL)
        """#,
        #"""
        CREATE TABLE "collection" (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            localIdentifier TEXT NOT NULL UNIQUE,
            isList INTEGER NOT NULL,
            type INTEGER NOT NULL,
            subtype INTEGER NOT NULL,
            title TEXT,
            parentId INTEGER REFERENCES collection(id) ON DELETE CASCADE,
            position INTEGER NOT NULL DEFAULT 0,
            path TEXT,
            createdDate REAL NOT NULL
        , device INTEGER, inode INTEGER, madeDirectory INTEGER, host TEXT NOT NULL DEFAULT '')
        """#,
        #"""
        CREATE TABLE unreadable_directory (
            path TEXT PRIMARY KEY,
            code INTEGER NOT NULL,
            reason TEXT NOT NULL,
            since REAL NOT NULL
        , host TEXT NOT NULL DEFAULT '') WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE hook (
            name TEXT PRIMARY KEY,
            cursor INTEGER NOT NULL,
            enabled INTEGER NOT NULL DEFAULT 1,
            failures INTEGER NOT NULL DEFAULT 0,
            parkedAt REAL,
            parkedReason TEXT,
            lastRunAt REAL,
            lastOutcome TEXT,
            lastDuration REAL,
            lastError TEXT,
            runs INTEGER NOT NULL DEFAULT 0,
            delivered INTEGER NOT NULL DEFAULT 0,
            generation INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE accessToken (
            id TEXT PRIMARY KEY,
            name TEXT,
            level TEXT NOT NULL,
            albumList TEXT NOT NULL DEFAULT '[]',
            secretHash BLOB NOT NULL UNIQUE,
            createdAt REAL NOT NULL,
            expiresAt REAL,
            lastUsedAt REAL,
            owner TEXT
        ) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE collection_stats (
            collectionId INTEGER PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
            assetCount INTEGER NOT NULL DEFAULT 0,
            startDate REAL,
            endDate REAL,
            dirty INTEGER NOT NULL DEFAULT 0
        )
        """#,
        #"""
        CREATE TABLE smart_album_count (id INTEGER PRIMARY KEY CHECK (id = 1), s209 INTEGER NOT NULL, s203 INTEGER NOT NULL, s202 INTEGER NOT NULL, s210 INTEGER NOT NULL, s211 INTEGER NOT NULL, s220 INTEGER NOT NULL, s201 INTEGER NOT NULL, s213 INTEGER NOT NULL, s212 INTEGER NOT NULL, s207 INTEGER NOT NULL, s208 INTEGER NOT NULL, s204 INTEGER NOT NULL, s218 INTEGER NOT NULL, s219 INTEGER NOT NULL, s214 INTEGER NOT NULL, s217 INTEGER NOT NULL, s205 INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE directory (
            id INTEGER PRIMARY KEY,
            path TEXT NOT NULL UNIQUE
        , host TEXT NOT NULL DEFAULT '')
        """#,
        #"""
        CREATE TABLE "resource" (
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
        , birthTime INTEGER)
        """#,
        #"""
        CREATE TABLE trashedAsset (
            assetId INTEGER PRIMARY KEY,
            localIdentifier TEXT NOT NULL UNIQUE,
            trashedDate REAL NOT NULL,
            record TEXT NOT NULL,
            resources TEXT NOT NULL,
            memberships TEXT NOT NULL
        , host TEXT NOT NULL DEFAULT '')
        """#,
        #"""
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
        )
        """#,
        #"""
        CREATE TABLE sidecarBase (
            assetId INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            state TEXT NOT NULL,
            modificationTime REAL
        )
        """#,
        #"""
        CREATE TABLE importedContent (
            contentHash TEXT NOT NULL,
            fileSize INTEGER NOT NULL,
            source TEXT NOT NULL,
            destination TEXT NOT NULL,
            importedDate REAL NOT NULL,
            PRIMARY KEY (contentHash, fileSize)
        ) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "fileJournal" (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            operation TEXT NOT NULL
                CHECK (operation IN ('place', 'remove', 'trash', 'rename', 'sidecar', 'manifest', 'mkdir', 'import', 'restore')),
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
        )
        """#,
        #"""
        CREATE INDEX collection_asset_by_position ON collection_asset(collectionId, position)
        """#,
        #"""
        CREATE INDEX collection_asset_by_asset ON collection_asset(assetId)
        """#,
        #"""
        CREATE INDEX tombstone_by_token ON tombstone(token)
        """#,
        #"""
        CREATE INDEX tombstone_by_identifier ON tombstone(localIdentifier)
        """#,
        #"""
        CREATE INDEX asset_by_burst ON asset(burstIdentifier) WHERE burstIdentifier IS NOT NULL
        """#,
        #"""
        CREATE INDEX asset_by_mediaType_creationDate ON asset(mediaType, creationDate)
        """#,
        #"""
        CREATE INDEX asset_visible_by_creationDate ON asset(creationDate)
            WHERE isHidden = 0 AND isBurstVisible = 1
        """#,
        #"""
        CREATE INDEX asset_by_creationDate_only ON asset(creationDate)
        """#,
        #"""
        CREATE INDEX collection_by_parent ON collection(parentId, position)
        """#,
        #"""
        CREATE INDEX collection_by_type ON collection(isList, type, subtype)
        """#,
        #"""
        CREATE INDEX asset_visible_by_favorite_creationDate ON asset(isFavorite, creationDate)
            WHERE isHidden = 0 AND isBurstVisible = 1
        """#,
        #"""
        CREATE INDEX collection_stats_dirty ON collection_stats(collectionId) WHERE dirty = 1
        """#,
        #"""
        CREATE INDEX resource_by_asset ON resource(assetId)
        """#,
        #"""
        CREATE INDEX resource_by_file ON resource(directoryId, name)
        """#,
        #"""
        CREATE INDEX resource_by_inode ON resource(device, inode) WHERE inode IS NOT NULL
        """#,
        #"""
        CREATE INDEX resource_by_hash ON resource(contentHash) WHERE contentHash IS NOT NULL
        """#,
        #"""
        CREATE INDEX resource_by_content_identifier ON resource(contentIdentifier) WHERE contentIdentifier IS NOT NULL
        """#,
        #"""
        CREATE INDEX asset_visible_by_addedDate ON asset(addedDate) WHERE isHidden = 0 AND isBurstVisible = 1
        """#,
        #"""
        CREATE INDEX resource_by_directory_pairing_name ON resource(directoryId, pairingName)
        """#,
        #"""
        CREATE INDEX trashedAsset_by_date ON trashedAsset(trashedDate)
        """#,
        #"""
        CREATE INDEX trashedFile_by_asset ON trashedFile(assetId)
        """#,
        #"""
        CREATE INDEX trashedFile_by_inode ON trashedFile(inode, device)
        """#,
        #"""
        CREATE INDEX sidecarBase_by_path ON sidecarBase(path)
        """#,
        #"""
        CREATE UNIQUE INDEX directory_by_path_host ON directory(path, host)
        """#,
        #"""
        CREATE UNIQUE INDEX root_by_path_host ON root(path, host)
        """#,
        #"""
        CREATE UNIQUE INDEX rejected_by_path_host ON rejected(path, host)
        """#,
        #"""
        CREATE UNIQUE INDEX unreadable_directory_by_path_host ON unreadable_directory(path, host)
        """#,
        #"""
        CREATE INDEX collection_by_path ON collection(path, host) WHERE path IS NOT NULL
        """#,
        #"""
        CREATE INDEX resource_by_size_time ON resource(fileSize, modificationTime)
        """#,
        #"""
        CREATE TRIGGER collection_stats_member_added AFTER INSERT ON collection_asset BEGIN
            INSERT OR IGNORE INTO collection_stats (collectionId) VALUES (NEW.collectionId);
            UPDATE collection_stats SET
            assetCount = assetCount + 1,
            startDate = COALESCE((SELECT CASE
                WHEN a.creationDate IS NULL THEN collection_stats.startDate
                WHEN collection_stats.startDate IS NULL OR a.creationDate < collection_stats.startDate
                    THEN a.creationDate
                ELSE collection_stats.startDate END FROM asset a WHERE a.id = NEW.assetId),
                collection_stats.startDate),
            endDate = COALESCE((SELECT CASE
                WHEN a.creationDate IS NULL THEN collection_stats.endDate
                WHEN collection_stats.endDate IS NULL OR a.creationDate > collection_stats.endDate
                    THEN a.creationDate
                ELSE collection_stats.endDate END FROM asset a WHERE a.id = NEW.assetId),
                collection_stats.endDate)
        WHERE collectionId = NEW.collectionId;
        END
        """#,
        #"""
        CREATE TRIGGER collection_stats_member_removed AFTER DELETE ON collection_asset BEGIN
            UPDATE collection_stats SET
                assetCount = assetCount - 1,
                dirty = dirty OR NOT EXISTS (SELECT 1 FROM asset WHERE id = OLD.assetId)
                    OR COALESCE((SELECT creationDate FROM asset WHERE id = OLD.assetId)
                        IN (collection_stats.startDate, collection_stats.endDate), 0)
            WHERE collectionId = OLD.collectionId;
        END
        """#,
        #"""
        CREATE TRIGGER collection_stats_date_changed AFTER UPDATE OF creationDate ON asset
        WHEN OLD.creationDate IS NOT NEW.creationDate BEGIN
            UPDATE collection_stats SET dirty = 1
            WHERE collectionId IN (SELECT collectionId FROM collection_asset WHERE assetId = NEW.id);
        END
        """#,
        #"""
        CREATE TRIGGER smart_album_count_inserted AFTER INSERT ON asset BEGIN
            UPDATE smart_album_count SET s209 = s209 + (CASE WHEN (1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s203 = s203 + (CASE WHEN (NEW.isFavorite = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s202 = s202 + (CASE WHEN (NEW.mediaType = 2) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s210 = s210 + (CASE WHEN (NEW.isSelfie = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s211 = s211 + (CASE WHEN ((NEW.mediaSubtypes & 4) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s220 = s220 + (CASE WHEN ((NEW.mediaSubtypes & 524288) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s201 = s201 + (CASE WHEN ((NEW.mediaSubtypes & 1) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s213 = s213 + (CASE WHEN ((NEW.mediaSubtypes & 8) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s212 = s212 + (CASE WHEN ((NEW.mediaSubtypes & 16) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s207 = s207 + (CASE WHEN (NEW.burstIdentifier IS NOT NULL) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s208 = s208 + (CASE WHEN ((NEW.mediaSubtypes & 131072) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s204 = s204 + (CASE WHEN ((NEW.mediaSubtypes & 262144) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s218 = s218 + (CASE WHEN ((NEW.mediaSubtypes & 2097152) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s219 = s219 + (CASE WHEN ((NEW.mediaSubtypes & 1024) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s214 = s214 + (CASE WHEN ((NEW.mediaSubtypes & 64) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s217 = s217 + (CASE WHEN (NEW.isRAW = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END), s205 = s205 + (CASE WHEN (NEW.isHidden = 1) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) WHERE id = 1;
        END
        """#,
        #"""
        CREATE TRIGGER smart_album_count_deleted AFTER DELETE ON asset BEGIN
            UPDATE smart_album_count SET s209 = s209 + -(CASE WHEN (1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s203 = s203 + -(CASE WHEN (OLD.isFavorite = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s202 = s202 + -(CASE WHEN (OLD.mediaType = 2) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s210 = s210 + -(CASE WHEN (OLD.isSelfie = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s211 = s211 + -(CASE WHEN ((OLD.mediaSubtypes & 4) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s220 = s220 + -(CASE WHEN ((OLD.mediaSubtypes & 524288) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s201 = s201 + -(CASE WHEN ((OLD.mediaSubtypes & 1) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s213 = s213 + -(CASE WHEN ((OLD.mediaSubtypes & 8) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s212 = s212 + -(CASE WHEN ((OLD.mediaSubtypes & 16) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s207 = s207 + -(CASE WHEN (OLD.burstIdentifier IS NOT NULL) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s208 = s208 + -(CASE WHEN ((OLD.mediaSubtypes & 131072) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s204 = s204 + -(CASE WHEN ((OLD.mediaSubtypes & 262144) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s218 = s218 + -(CASE WHEN ((OLD.mediaSubtypes & 2097152) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s219 = s219 + -(CASE WHEN ((OLD.mediaSubtypes & 1024) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s214 = s214 + -(CASE WHEN ((OLD.mediaSubtypes & 64) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s217 = s217 + -(CASE WHEN (OLD.isRAW = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s205 = s205 + -(CASE WHEN (OLD.isHidden = 1) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END) WHERE id = 1;
        END
        """#,
        #"""
        CREATE TRIGGER smart_album_count_updated AFTER UPDATE ON asset BEGIN
            UPDATE smart_album_count SET s209 = s209 + (CASE WHEN (1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s203 = s203 + (CASE WHEN (NEW.isFavorite = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.isFavorite = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s202 = s202 + (CASE WHEN (NEW.mediaType = 2) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.mediaType = 2) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s210 = s210 + (CASE WHEN (NEW.isSelfie = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.isSelfie = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s211 = s211 + (CASE WHEN ((NEW.mediaSubtypes & 4) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 4) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s220 = s220 + (CASE WHEN ((NEW.mediaSubtypes & 524288) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 524288) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s201 = s201 + (CASE WHEN ((NEW.mediaSubtypes & 1) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 1) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s213 = s213 + (CASE WHEN ((NEW.mediaSubtypes & 8) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 8) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s212 = s212 + (CASE WHEN ((NEW.mediaSubtypes & 16) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 16) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s207 = s207 + (CASE WHEN (NEW.burstIdentifier IS NOT NULL) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.burstIdentifier IS NOT NULL) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s208 = s208 + (CASE WHEN ((NEW.mediaSubtypes & 131072) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 131072) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s204 = s204 + (CASE WHEN ((NEW.mediaSubtypes & 262144) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 262144) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s218 = s218 + (CASE WHEN ((NEW.mediaSubtypes & 2097152) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 2097152) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s219 = s219 + (CASE WHEN ((NEW.mediaSubtypes & 1024) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 1024) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s214 = s214 + (CASE WHEN ((NEW.mediaSubtypes & 64) != 0) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN ((OLD.mediaSubtypes & 64) != 0) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s217 = s217 + (CASE WHEN (NEW.isRAW = 1) AND (NEW.isHidden = 0) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.isRAW = 1) AND (OLD.isHidden = 0) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END), s205 = s205 + (CASE WHEN (NEW.isHidden = 1) AND (NEW.isBurstVisible = 1) THEN 1 ELSE 0 END) - (CASE WHEN (OLD.isHidden = 1) AND (OLD.isBurstVisible = 1) THEN 1 ELSE 0 END) WHERE id = 1;
        END
        """#,
        #"""
        CREATE TRIGGER directory_emptied AFTER DELETE ON resource
        WHEN NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = old.directoryId) BEGIN
            DELETE FROM directory WHERE id = old.directoryId;
        END
        """#,
        #"""
        CREATE TRIGGER directory_left AFTER UPDATE OF directoryId ON resource
        WHEN NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = old.directoryId) BEGIN
            DELETE FROM directory WHERE id = old.directoryId;
        END
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v1')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v2: visible assets by date')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v3: files and directories on disk')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v4: change history bounds')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v5: all assets by date')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v6: tombstones by identifier')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v7: row ids are never reused')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v8: the file journal')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v9: unreadable directories')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v10: what deleted objects were')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v11: hook cursors')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v12: files by pairing name')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v13: access tokens')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v14: visible favorites by date')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v15: album counts and dates kept')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v16: star ratings')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v17: selfies and screen recordings')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v18: smart album counts kept')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v19: files by directory')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v20: portrait, cinematic and spatial smart albums')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v21: original resource choice')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v22: pairing names by directory')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v23: camera make and model')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v24: the file journal carries the library''s changes to the roots')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v25: Recently Deleted')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v26: sidecar merge bases')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v27: Recently Deleted smart album')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v28: album manifests')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v29: directories the library makes')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v30: imports')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v31: dates taken from the file''s time')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v32: speed and course')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v33: roots by host')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v34: file work by host')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v35: sort indexes in the order reads sort')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v36: counts kept once a statement')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v37: roots named by host and path')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v38: files by size and time')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v39: restores journaled')
        """#,
        #"""
        INSERT INTO "grdb_migrations" ("identifier") VALUES ('v40: files by birth time')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (1, '00000000-0000-0000-0000-000000000209/L0/040', 0, 2, 209, 'Recents', NULL, 0, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (2, '00000000-0000-0000-0000-000000000203/L0/040', 0, 2, 203, 'Favorites', NULL, 1, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (3, '00000000-0000-0000-0000-000000000206/L0/040', 0, 2, 206, 'Recently Added', NULL, 2, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (4, '00000000-0000-0000-0000-000000000202/L0/040', 0, 2, 202, 'Videos', NULL, 3, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (5, '00000000-0000-0000-0000-000000000210/L0/040', 0, 2, 210, 'Selfies', NULL, 4, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (6, '00000000-0000-0000-0000-000000000211/L0/040', 0, 2, 211, 'Screenshots', NULL, 5, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (7, '00000000-0000-0000-0000-000000000220/L0/040', 0, 2, 220, 'Screen Recordings', NULL, 6, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (8, '00000000-0000-0000-0000-000000000201/L0/040', 0, 2, 201, 'Panoramas', NULL, 7, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (9, '00000000-0000-0000-0000-000000000213/L0/040', 0, 2, 213, 'Live Photos', NULL, 8, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (10, '00000000-0000-0000-0000-000000000212/L0/040', 0, 2, 212, 'Portrait', NULL, 9, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (11, '00000000-0000-0000-0000-000000000207/L0/040', 0, 2, 207, 'Bursts', NULL, 10, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (12, '00000000-0000-0000-0000-000000000208/L0/040', 0, 2, 208, 'Slo-mo', NULL, 11, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (13, '00000000-0000-0000-0000-000000000204/L0/040', 0, 2, 204, 'Time-lapse', NULL, 12, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (14, '00000000-0000-0000-0000-000000000218/L0/040', 0, 2, 218, 'Cinematic', NULL, 13, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (15, '00000000-0000-0000-0000-000000000219/L0/040', 0, 2, 219, 'Spatial', NULL, 14, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (16, '00000000-0000-0000-0000-000000000214/L0/040', 0, 2, 214, 'Animated', NULL, 15, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (17, '00000000-0000-0000-0000-000000000217/L0/040', 0, 2, 217, 'RAW', NULL, 16, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (18, '00000000-0000-0000-0000-000000000205/L0/040', 0, 2, 205, 'Hidden', NULL, 17, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "collection" ("id", "localIdentifier", "isList", "type", "subtype", "title", "parentId", "position", "path", "createdDate", "device", "inode", "madeDirectory", "host") VALUES (19, '00000000-0000-0000-0000-000001000100/L0/040', 0, 2, 1000100, 'Recently Deleted', NULL, 18, NULL, 0.0, NULL, NULL, NULL, '')
        """#,
        #"""
        INSERT INTO "smart_album_count" ("id", "s209", "s203", "s202", "s210", "s211", "s220", "s201", "s213", "s212", "s207", "s208", "s204", "s218", "s219", "s214", "s217", "s205") VALUES (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        """#,
        #"""
        DELETE FROM sqlite_sequence
        """#,
        #"""
        INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('asset', 0)
        """#,
        #"""
        INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('collection', 76)
        """#,
        #"""
        INSERT INTO "sqlite_sequence" ("name", "seq") VALUES ('fileJournal', 0)
        """#,
    ]
}
