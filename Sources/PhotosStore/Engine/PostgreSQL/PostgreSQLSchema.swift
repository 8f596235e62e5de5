import Foundation
import PhotosCore

/// A library's tables in PostgreSQL: the same tables, columns (in the same order), keys and
/// indexes as SQLite's after all of its migrations (``LibraryDatabase``'s), so that the store's SQL
/// reads and writes both alike. A new library is made whole at once: the baseline (SQLite's `v1` to
/// `v32`), then each later migration (``later``), which changes both engines alike; a library made
/// before a later migration gets it when it is next opened. The tests compare the two schemas.
///
/// What differs, and why:
/// - Whole numbers are `BIGINT` (SQLite's INTEGER is 64 bits), numbers `DOUBLE PRECISION`, bytes
///   `BYTEA`; flags stay numbers (0 or 1), as the store's SQL compares and adds them.
/// - Text is `COLLATE "C"`: ordered and compared byte for byte, as SQLite's BINARY does, whatever
///   the database's locale (paths and titles sort the same on both engines).
/// - Generated ids are identity columns `BY DEFAULT` (never reused, as SQLite's AUTOINCREMENT;
///   an id may be given, as a copy between engines does).
/// - `asset.isBurstVisible` is a stored generated column (PostgreSQL has no virtual ones).
///
/// The triggers keep what SQLite's keep, by the same names: albums' counts and dates
/// (``CollectionStats``), smart albums' counts (``SmartAlbumCounts``, from the same conditions) and
/// the directory table tidy. Each is a PL/pgSQL function of the same name, run for each row;
/// PostgreSQL's trigger conditions hold no subquery, so a SQLite `WHEN NOT EXISTS (…)` is an `IF`
/// in the function.
enum PostgreSQLSchema {
    /// Every migration this build's schema holds: the baseline's, then the later ones.
    static let migrations = baselineMigrations + later.map(\.identifier)

    /// The migrations after the baseline, in order: SQLite's identifier and the same change here.
    static let later: [(identifier: String, statements: [String])] = [
        ("v33: roots by host", [#"ALTER TABLE root ADD COLUMN host TEXT COLLATE "C""#]),
        ("v34: file work by host", [#"ALTER TABLE fileJournal ADD COLUMN host TEXT COLLATE "C""#]),
        ("v35: sort indexes in the order reads sort", sortIndexes),
        ("v36: counts kept once a statement", statementTriggersAgain),
        ("v37: roots named by host and path", RootHosts.postgreSQLMigration),
        LibraryDatabase.filesBySizeAndTime,
        (
            LibraryDatabase.restoresJournaled,
            [
                "ALTER TABLE fileJournal DROP CONSTRAINT filejournal_operation_check",
                """
                ALTER TABLE fileJournal ADD CONSTRAINT filejournal_operation_check
                    CHECK (operation IN (\(LibraryDatabase.journalOperations)))
                """,
            ]
        ),
        (LibraryDatabase.birthTimes.identifier, LibraryDatabase.birthTimes.postgreSQL),
    ]

    /// The triggers that count what a statement inserts (and the smart albums' what it deletes
    /// and updates), made again as statement triggers: a first scan inserts a batch's assets and
    /// memberships hundreds to a statement, and a row trigger updated the one row of counts (or an
    /// album's figures) once per row, each update a new version of that row for the next to find.
    static let statementTriggersAgain =
        ([("collection_stats_member_added", "collection_asset")] + smartAlbumCountTriggerNames.map { ($0, "asset") })
        .flatMap { name, table in ["DROP TRIGGER \(name) ON \(table)", "DROP FUNCTION \(name)()"] }
        + memberAddedTrigger + smartAlbumCountTriggers.flatMap { $0 }

    /// The indexes a sorted fetch reads in order, made again in the order the store sorts in: NULLs
    /// first ascending and last descending, as SQLite sorts (``SQLDialect``'s sort clause), then the
    /// row id that breaks ties. PostgreSQL's default order puts NULLs last ascending, so a fetch of
    /// the newest 50 read an index it could not follow and sorted every match (4.7 ms at 100,000
    /// assets, 0.15 ms read in order). SQLite's indexes need no change: a NULL sorts first there,
    /// and every index ends with the row id.
    static let sortIndexes = [
        ("asset_by_mediaType_creationDate", "asset(mediaType, creationDate NULLS FIRST, id NULLS FIRST)"),
        (
            "asset_visible_by_creationDate",
            "asset(creationDate NULLS FIRST, id NULLS FIRST) WHERE isHidden = 0 AND isBurstVisible = 1"
        ),
        ("asset_by_creationDate_only", "asset(creationDate NULLS FIRST, id NULLS FIRST)"),
        (
            "asset_visible_by_favorite_creationDate",
            "asset(isFavorite, creationDate NULLS FIRST, id NULLS FIRST) WHERE isHidden = 0 AND isBurstVisible = 1"
        ),
        (
            "asset_visible_by_addedDate",
            "asset(addedDate NULLS FIRST, id NULLS FIRST) WHERE isHidden = 0 AND isBurstVisible = 1"
        ),
    ].flatMap { name, definition in ["DROP INDEX \(name)", "CREATE INDEX \(name) ON \(definition)"] }

    /// The migrations the baseline stands for: SQLite's identifiers, recorded as applied.
    static let baselineMigrations = [
        "v1", "v2: visible assets by date", "v3: files and directories on disk", "v4: change history bounds",
        "v5: all assets by date", "v6: tombstones by identifier", "v7: row ids are never reused",
        "v8: the file journal", "v9: unreadable directories", "v10: what deleted objects were", "v11: hook cursors",
        "v12: files by pairing name", "v13: access tokens", "v14: visible favorites by date",
        "v15: album counts and dates kept", "v16: star ratings", "v17: selfies and screen recordings",
        "v18: smart album counts kept", "v19: files by directory", "v20: portrait, cinematic and spatial smart albums",
        "v21: original resource choice", "v22: pairing names by directory", "v23: camera make and model",
        "v24: the file journal carries the library's changes to the roots", "v25: Recently Deleted",
        "v26: sidecar merge bases", "v27: Recently Deleted smart album", "v28: album manifests",
        "v29: directories the library makes", "v30: imports", "v31: dates taken from the file's time",
        "v32: speed and course",
    ]

    /// The baseline's statements, in order: tables before the tables and indexes that name them.
    static let baseline: [String] = [
        """
        CREATE TABLE schema_migration (identifier TEXT COLLATE "C" NOT NULL PRIMARY KEY)
        """,
        """
        CREATE TABLE library (
            id BIGINT PRIMARY KEY CHECK (id = 1),
            identifier TEXT COLLATE "C" NOT NULL,
            prunedThrough BIGINT NOT NULL DEFAULT 0,
            hookHistoryLimit BIGINT NOT NULL DEFAULT 1000000
        )
        """,
        """
        CREATE TABLE asset (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
            mediaType BIGINT NOT NULL,
            mediaSubtypes BIGINT NOT NULL DEFAULT 0,
            sourceType BIGINT NOT NULL DEFAULT 1,
            pixelWidth BIGINT NOT NULL DEFAULT 0,
            pixelHeight BIGINT NOT NULL DEFAULT 0,
            creationDate DOUBLE PRECISION,
            creationDateOffset BIGINT,
            creationDateIsFloating BIGINT NOT NULL DEFAULT 0,
            modificationDate DOUBLE PRECISION,
            addedDate DOUBLE PRECISION NOT NULL,
            latitude DOUBLE PRECISION,
            longitude DOUBLE PRECISION,
            altitude DOUBLE PRECISION,
            duration DOUBLE PRECISION NOT NULL DEFAULT 0,
            isFavorite BIGINT NOT NULL DEFAULT 0,
            isHidden BIGINT NOT NULL DEFAULT 0,
            burstIdentifier TEXT COLLATE "C",
            burstSelectionTypes BIGINT NOT NULL DEFAULT 0,
            representsBurst BIGINT NOT NULL DEFAULT 0,
            adjustmentFormatIdentifier TEXT COLLATE "C",
            isRAW BIGINT NOT NULL DEFAULT 0,
            -- Shown by default: not a burst member other than the representative or a user pick.
            isBurstVisible BIGINT GENERATED ALWAYS AS (
                CASE WHEN burstIdentifier IS NULL OR representsBurst <> 0 OR (burstSelectionTypes & 2) <> 0
                    THEN 1 ELSE 0 END
            ) STORED,
            rating BIGINT NOT NULL DEFAULT 0,
            isSelfie BIGINT NOT NULL DEFAULT 0,
            originalResourceChoice BIGINT NOT NULL DEFAULT 0,
            make TEXT COLLATE "C",
            model TEXT COLLATE "C",
            creationDateIsFileTime BIGINT NOT NULL DEFAULT 0,
            speed DOUBLE PRECISION,
            course DOUBLE PRECISION
        )
        """,
        "CREATE INDEX asset_by_burst ON asset(burstIdentifier) WHERE burstIdentifier IS NOT NULL",
        "CREATE INDEX asset_by_mediaType_creationDate ON asset(mediaType, creationDate)",
        "CREATE INDEX asset_visible_by_creationDate ON asset(creationDate) WHERE isHidden = 0 AND isBurstVisible = 1",
        "CREATE INDEX asset_by_creationDate_only ON asset(creationDate)",
        """
        CREATE INDEX asset_visible_by_favorite_creationDate ON asset(isFavorite, creationDate)
            WHERE isHidden = 0 AND isBurstVisible = 1
        """,
        "CREATE INDEX asset_visible_by_addedDate ON asset(addedDate) WHERE isHidden = 0 AND isBurstVisible = 1",
        """
        CREATE TABLE collection (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
            isList BIGINT NOT NULL,
            type BIGINT NOT NULL,
            subtype BIGINT NOT NULL,
            title TEXT COLLATE "C",
            parentId BIGINT REFERENCES collection(id) ON DELETE CASCADE,
            position BIGINT NOT NULL DEFAULT 0,
            path TEXT COLLATE "C",
            createdDate DOUBLE PRECISION NOT NULL,
            device BIGINT,
            inode BIGINT,
            madeDirectory BIGINT
        )
        """,
        "CREATE INDEX collection_by_parent ON collection(parentId, position)",
        "CREATE INDEX collection_by_type ON collection(isList, type, subtype)",
        "CREATE INDEX collection_by_path ON collection(path) WHERE path IS NOT NULL",
        """
        CREATE TABLE collection_asset (
            collectionId BIGINT NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
            assetId BIGINT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            position BIGINT NOT NULL,
            PRIMARY KEY (collectionId, assetId)
        )
        """,
        "CREATE INDEX collection_asset_by_position ON collection_asset(collectionId, position)",
        "CREATE INDEX collection_asset_by_asset ON collection_asset(assetId)",
        """
        CREATE TABLE collection_stats (
            collectionId BIGINT PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
            assetCount BIGINT NOT NULL DEFAULT 0,
            startDate DOUBLE PRECISION,
            endDate DOUBLE PRECISION,
            dirty BIGINT NOT NULL DEFAULT 0
        )
        """,
        "CREATE INDEX collection_stats_dirty ON collection_stats(collectionId) WHERE dirty = 1",
        """
        CREATE TABLE change (
            token BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            timestamp DOUBLE PRECISION NOT NULL,
            payload TEXT COLLATE "C" NOT NULL
        )
        """,
        """
        CREATE TABLE tombstone (
            rowId BIGINT NOT NULL,
            isAsset BIGINT NOT NULL,
            localIdentifier TEXT COLLATE "C" NOT NULL,
            record TEXT COLLATE "C" NOT NULL,
            token BIGINT NOT NULL,
            resources TEXT COLLATE "C",
            PRIMARY KEY (isAsset, rowId)
        )
        """,
        "CREATE INDEX tombstone_by_token ON tombstone(token)",
        "CREATE INDEX tombstone_by_identifier ON tombstone(localIdentifier)",
        """
        CREATE TABLE rejected (
            path TEXT COLLATE "C" PRIMARY KEY,
            code TEXT COLLATE "C" NOT NULL,
            reason TEXT COLLATE "C" NOT NULL,
            fileSize BIGINT NOT NULL,
            modificationTime DOUBLE PRECISION NOT NULL,
            rejectedDate DOUBLE PRECISION NOT NULL
        )
        """,
        """
        CREATE TABLE root (
            path TEXT COLLATE "C" PRIMARY KEY,
            isOffline BIGINT NOT NULL DEFAULT 0,
            lastScanDate DOUBLE PRECISION
        )
        """,
        """
        CREATE TABLE unreadable_directory (
            path TEXT COLLATE "C" PRIMARY KEY,
            code BIGINT NOT NULL,
            reason TEXT COLLATE "C" NOT NULL,
            since DOUBLE PRECISION NOT NULL
        )
        """,
        """
        CREATE TABLE hook (
            name TEXT COLLATE "C" PRIMARY KEY,
            cursor BIGINT NOT NULL,
            enabled BIGINT NOT NULL DEFAULT 1,
            failures BIGINT NOT NULL DEFAULT 0,
            parkedAt DOUBLE PRECISION,
            parkedReason TEXT COLLATE "C",
            lastRunAt DOUBLE PRECISION,
            lastOutcome TEXT COLLATE "C",
            lastDuration DOUBLE PRECISION,
            lastError TEXT COLLATE "C",
            runs BIGINT NOT NULL DEFAULT 0,
            delivered BIGINT NOT NULL DEFAULT 0,
            generation BIGINT NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE accessToken (
            id TEXT COLLATE "C" PRIMARY KEY,
            name TEXT COLLATE "C",
            level TEXT COLLATE "C" NOT NULL,
            albumList TEXT COLLATE "C" NOT NULL DEFAULT '[]',
            secretHash BYTEA NOT NULL UNIQUE,
            createdAt DOUBLE PRECISION NOT NULL,
            expiresAt DOUBLE PRECISION,
            lastUsedAt DOUBLE PRECISION,
            owner TEXT COLLATE "C"
        )
        """,
        """
        CREATE TABLE directory (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            path TEXT COLLATE "C" NOT NULL UNIQUE
        )
        """,
        """
        CREATE TABLE resource (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            assetId BIGINT NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
            type BIGINT NOT NULL,
            directoryId BIGINT NOT NULL REFERENCES directory(id),
            name TEXT COLLATE "C" NOT NULL,
            uniformTypeIdentifier TEXT COLLATE "C",
            mimeType TEXT COLLATE "C",
            fileSize BIGINT NOT NULL DEFAULT 0,
            -- NULL when it is the name.
            originalFilename TEXT COLLATE "C",
            device BIGINT,
            inode BIGINT,
            modificationTime DOUBLE PRECISION,
            contentHash TEXT COLLATE "C",
            contentIdentifier TEXT COLLATE "C",
            isLibraryOwned BIGINT NOT NULL DEFAULT 0,
            pairingName TEXT COLLATE "C",
            -- The file's displayed size (PHAssetResource.pixelWidth), NULL when not known.
            pixelWidth BIGINT,
            pixelHeight BIGINT
        )
        """,
        "CREATE INDEX resource_by_asset ON resource(assetId)",
        "CREATE INDEX resource_by_file ON resource(directoryId, name)",
        "CREATE INDEX resource_by_inode ON resource(device, inode) WHERE inode IS NOT NULL",
        "CREATE INDEX resource_by_size ON resource(fileSize)",
        "CREATE INDEX resource_by_hash ON resource(contentHash) WHERE contentHash IS NOT NULL",
        """
        CREATE INDEX resource_by_content_identifier ON resource(contentIdentifier)
            WHERE contentIdentifier IS NOT NULL
        """,
        "CREATE INDEX resource_by_directory_pairing_name ON resource(directoryId, pairingName)",
        """
        CREATE TABLE trashedAsset (
            assetId BIGINT PRIMARY KEY,
            localIdentifier TEXT COLLATE "C" NOT NULL UNIQUE,
            trashedDate DOUBLE PRECISION NOT NULL,
            record TEXT COLLATE "C" NOT NULL,
            resources TEXT COLLATE "C" NOT NULL,
            memberships TEXT COLLATE "C" NOT NULL
        )
        """,
        "CREATE INDEX trashedAsset_by_date ON trashedAsset(trashedDate)",
        """
        CREATE TABLE trashedFile (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            assetId BIGINT NOT NULL REFERENCES trashedAsset(assetId) ON DELETE CASCADE,
            path TEXT COLLATE "C" NOT NULL,
            device BIGINT NOT NULL,
            inode BIGINT NOT NULL,
            trashDirectory TEXT COLLATE "C" NOT NULL,
            trashKind TEXT COLLATE "C" NOT NULL,
            trashTop TEXT COLLATE "C" NOT NULL,
            trashName TEXT COLLATE "C"
        )
        """,
        "CREATE INDEX trashedFile_by_asset ON trashedFile(assetId)",
        "CREATE INDEX trashedFile_by_inode ON trashedFile(inode, device)",
        """
        CREATE TABLE sidecarBase (
            assetId BIGINT PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE,
            path TEXT COLLATE "C" NOT NULL,
            state TEXT COLLATE "C" NOT NULL,
            modificationTime DOUBLE PRECISION
        )
        """,
        "CREATE INDEX sidecarBase_by_path ON sidecarBase(path)",
        """
        CREATE TABLE importedContent (
            contentHash TEXT COLLATE "C" NOT NULL,
            fileSize BIGINT NOT NULL,
            source TEXT COLLATE "C" NOT NULL,
            destination TEXT COLLATE "C" NOT NULL,
            importedDate DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (contentHash, fileSize)
        )
        """,
        """
        CREATE TABLE fileJournal (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            operation TEXT COLLATE "C" NOT NULL
                CHECK (operation IN (
                    'place', 'remove', 'trash', 'rename', 'sidecar', 'manifest', 'mkdir', 'import')),
            destination TEXT COLLATE "C" NOT NULL,
            staged TEXT COLLATE "C",
            source TEXT COLLATE "C",
            removeSource BIGINT NOT NULL DEFAULT 0,
            device BIGINT,
            inode BIGINT,
            fileSize BIGINT,
            modificationTime DOUBLE PRECISION,
            owner BIGINT NOT NULL,
            assetId BIGINT
        )
        """,
    ]

    /// The triggers, each a function and its trigger of the same name.
    static let triggers = triggerStatements.flatMap { $0 }

    private static let triggerStatements: [[String]] =
        [
            memberAddedTrigger,
            trigger(
                "collection_stats_member_removed", "AFTER DELETE ON collection_asset",
                """
                UPDATE collection_stats SET
                    assetCount = assetCount - 1,
                    dirty = CASE WHEN dirty <> 0 OR NOT EXISTS (SELECT 1 FROM asset WHERE id = OLD.assetId)
                        OR COALESCE((SELECT creationDate FROM asset WHERE id = OLD.assetId)
                            IN (collection_stats.startDate, collection_stats.endDate), FALSE)
                        THEN 1 ELSE 0 END
                WHERE collectionId = OLD.collectionId;
                """),
            trigger(
                "collection_stats_date_changed",
                "AFTER UPDATE OF creationDate ON asset",
                when: "OLD.creationDate IS DISTINCT FROM NEW.creationDate",
                """
                UPDATE collection_stats SET dirty = 1
                WHERE collectionId IN (SELECT collectionId FROM collection_asset WHERE assetId = NEW.id);
                """),
            trigger(
                "directory_emptied", "AFTER DELETE ON resource",
                """
                IF NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = OLD.directoryId) THEN
                    DELETE FROM directory WHERE id = OLD.directoryId;
                END IF;
                """),
            trigger(
                "directory_left", "AFTER UPDATE OF directoryId ON resource",
                """
                IF NOT EXISTS (SELECT 1 FROM resource WHERE directoryId = OLD.directoryId) THEN
                    DELETE FROM directory WHERE id = OLD.directoryId;
                END IF;
                """),
        ] + smartAlbumCountTriggers

    /// The figures of the albums a statement gave members (SQLite's row trigger,
    /// ``CollectionStats/memberAdded``, for all the statement's rows at once): each album's count
    /// grows by its new members, its first and last dates take in theirs.
    static var memberAddedTrigger: [String] {
        statementTrigger(
            "collection_stats_member_added", "AFTER INSERT ON collection_asset", referencing: "NEW TABLE AS added",
            """
            INSERT INTO collection_stats (collectionId) SELECT DISTINCT collectionId FROM added ON CONFLICT DO NOTHING;
            UPDATE collection_stats SET
                assetCount = collection_stats.assetCount + m.count,
                startDate = CASE
                    WHEN m.first IS NULL THEN collection_stats.startDate
                    WHEN collection_stats.startDate IS NULL OR m.first < collection_stats.startDate THEN m.first
                    ELSE collection_stats.startDate END,
                endDate = CASE
                    WHEN m.last IS NULL THEN collection_stats.endDate
                    WHEN collection_stats.endDate IS NULL OR m.last > collection_stats.endDate THEN m.last
                    ELSE collection_stats.endDate END
            FROM (
                SELECT added.collectionId, count(*) AS count, min(a.creationDate) AS first, max(a.creationDate) AS last
                FROM added LEFT JOIN asset a ON a.id = added.assetId GROUP BY added.collectionId
            ) m
            WHERE collection_stats.collectionId = m.collectionId;
            """)
    }

    static let smartAlbumCountTriggerNames = [
        "smart_album_count_inserted", "smart_album_count_deleted", "smart_album_count_updated",
    ]

    /// The smart album counts' triggers, made from the albums' conditions as SQLite's are: each
    /// statement's rows counted at once, the one row of counts updated once a statement.
    static var smartAlbumCountTriggers: [[String]] {
        let kept = SmartAlbumCounts.keptConditions.map {
            (
                subtype: $0.subtype,
                condition: SmartAlbumCounts.conjunction($0.conditions.map(SQLDialect.postgreSQL.condition))
            )
        }
        /// Each album's count of the rows of the transition table `rows`, in a row named `alias`.
        func counts(_ rows: String, as alias: String) -> String {
            let columns = kept.map {
                "count(*) FILTER (WHERE \(SmartAlbumCounts.reading($0.condition, from: rows))) AS "
                    + SmartAlbumCounts.column($0.subtype)
            }
            return "(SELECT \(columns.joined(separator: ", ")) FROM \(rows)) \(alias)"
        }
        func assignments(_ change: (String) -> String) -> String {
            kept.map {
                let column = SmartAlbumCounts.column($0.subtype)
                return "\(column) = smart_album_count.\(column) \(change(column))"
            }.joined(separator: ", ")
        }
        return [
            statementTrigger(
                "smart_album_count_inserted", "AFTER INSERT ON asset", referencing: "NEW TABLE AS added",
                "UPDATE smart_album_count SET \(assignments { "+ n.\($0)" }) FROM \(counts("added", as: "n")) WHERE id = 1;"
            ),
            statementTrigger(
                "smart_album_count_deleted", "AFTER DELETE ON asset", referencing: "OLD TABLE AS removed",
                "UPDATE smart_album_count SET \(assignments { "- o.\($0)" }) FROM \(counts("removed", as: "o")) WHERE id = 1;"
            ),
            statementTrigger(
                "smart_album_count_updated", "AFTER UPDATE ON asset",
                referencing: "OLD TABLE AS before NEW TABLE AS after",
                "UPDATE smart_album_count SET \(assignments { "+ n.\($0) - o.\($0)" }) "
                    + "FROM \(counts("after", as: "n")), \(counts("before", as: "o")) WHERE id = 1;"),
        ]
    }

    /// A statement trigger `name` (`event`: `AFTER INSERT ON table`) running `body`, a PL/pgSQL
    /// function of the same name, with the statement's rows as the transition tables `referencing`
    /// names: the function's statement, then the trigger's.
    private static func statementTrigger(_ name: String, _ event: String, referencing: String, _ body: String)
        -> [String]
    {
        [
            function(name, body),
            "CREATE TRIGGER \(name) \(event) REFERENCING \(referencing) FOR EACH STATEMENT EXECUTE FUNCTION \(name)()",
        ]
    }

    /// A row trigger `name` (`event`: `AFTER INSERT ON table`) running `body`, a PL/pgSQL function
    /// of the same name: the function's statement, then the trigger's.
    private static func trigger(_ name: String, _ event: String, when condition: String? = nil, _ body: String)
        -> [String]
    {
        let when = condition.map { " WHEN (\($0))" } ?? ""
        return [function(name, body), "CREATE TRIGGER \(name) \(event) FOR EACH ROW\(when) EXECUTE FUNCTION \(name)()"]
    }

    /// A trigger's PL/pgSQL function `name` running `body`.
    private static func function(_ name: String, _ body: String) -> String {
        """
        CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
        \(body)
        RETURN NULL;
        END
        $body$
        """
    }

    /// The table of the kept smart album counts: a column for each album this build keeps
    /// (``SmartAlbumCounts``), as SQLite's.
    static var smartAlbumCountTable: String {
        let columns = SmartAlbumCounts.kept.map { ", \(SmartAlbumCounts.column($0.subtype)) BIGINT NOT NULL" }
        return "CREATE TABLE smart_album_count (id BIGINT PRIMARY KEY CHECK (id = 1)\(columns.joined()))"
    }

    /// The functions compiled predicates call (``PhotosCore/PredicateFunctions``), as SQLite's
    /// connections register them: `photos_fold` (case by ICU's root locale, diacritics as the
    /// combining marks NFD splits off, then NFC), `photos_like` (NSPredicate's `*`, `?` and `\`
    /// on folded sides), `photos_distance` (the same haversine, term for term). Made again (`OR
    /// REPLACE`) whenever a library is made, so a build's fix reaches libraries made before it.
    static let functions = [
        #"""
        CREATE OR REPLACE FUNCTION photos_fold(value text, flags integer) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $body$
            SELECT CASE WHEN flags & 3 = 0 THEN value ELSE normalize(
                CASE WHEN flags & 2 <> 0
                THEN regexp_replace(
                    normalize(CASE WHEN flags & 1 <> 0 THEN lower(value COLLATE "und-x-icu") ELSE value END, NFD),
                    '[̀-ͯ᪰-᫿᷀-᷿⃐-⃿︠-︯]', '', 'g')
                ELSE lower(value COLLATE "und-x-icu") END, NFC) END
        $body$
        """#,
        #"""
        CREATE OR REPLACE FUNCTION photos_like(value text, pattern text, flags integer) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $body$
        DECLARE
            folded text := photos_fold(pattern, flags);
            translated text := '';
            escaped boolean := false;
            c text;
        BEGIN
            FOREACH c IN ARRAY regexp_split_to_array(folded, '') LOOP
                IF escaped THEN
                    translated := translated || CASE WHEN c IN ('%', '_', '\') THEN '\' || c ELSE c END;
                    escaped := false;
                ELSIF c = '\' THEN
                    escaped := true;
                ELSIF c = '*' THEN
                    translated := translated || '%';
                ELSIF c = '?' THEN
                    translated := translated || '_';
                ELSIF c IN ('%', '_') THEN
                    translated := translated || '\' || c;
                ELSE
                    translated := translated || c;
                END IF;
            END LOOP;
            -- A trailing lone backslash stands for itself.
            IF escaped THEN translated := translated || '\\'; END IF;
            RETURN photos_fold(value, flags) LIKE translated ESCAPE '\';
        END
        $body$
        """#,
        """
        CREATE OR REPLACE FUNCTION photos_distance(
            latitude1 double precision, longitude1 double precision,
            latitude2 double precision, longitude2 double precision
        ) RETURNS double precision
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $body$
            SELECT 2 * \(PredicateFunctions.earthRadius) * asin(least(1, sqrt(
                sin((latitude2 - latitude1) * (pi() / 180) / 2) * sin((latitude2 - latitude1) * (pi() / 180) / 2)
                + cos(latitude1 * (pi() / 180)) * cos(latitude2 * (pi() / 180))
                * sin((longitude2 - longitude1) * (pi() / 180) / 2) * sin((longitude2 - longitude1) * (pi() / 180) / 2))))
        $body$
        """,
    ]

    /// Makes a new library in `connection`'s current schema, in one transaction: the baseline's
    /// tables and indexes, its migrations recorded as applied, and the rows a new SQLite library
    /// starts with (its identity, the smart albums, their counts at 0).
    static func create(in connection: PostgreSQLConnection) throws {
        try connection.transaction { try make(in: $0) }
    }

    /// Makes the schema in the transaction `db` is in; the first rows too unless a copy brings its own.
    static func make(in db: PostgreSQLConnection, withFirstRows: Bool = true) throws {
        for statement in baseline + [smartAlbumCountTable] + triggers + functions + later.flatMap(\.statements) {
            try db.execute(statement, [])
        }
        for identifier in migrations {
            try db.execute("INSERT INTO schema_migration (identifier) VALUES (?)", [.text(identifier)])
        }
        guard withFirstRows else { return }
        try db.execute("INSERT INTO library (id, identifier) VALUES (1, ?)", [.text(UUID().uuidString)])
        let kept = SmartAlbumCounts.kept.map(\.subtype)
        try db.execute(
            "INSERT INTO smart_album_count (id\(kept.map { ", " + SmartAlbumCounts.column($0) }.joined())) "
                + "VALUES (1\(String(repeating: ", 0", count: kept.count)))", [])
        try SmartAlbum.insertMissing(db)
    }
}
