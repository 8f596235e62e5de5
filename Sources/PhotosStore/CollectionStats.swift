import GRDB

/// Each album's member count and its members' first and last creation dates, kept in
/// `collection_stats` so that listing albums costs a row each, not a read of every member (issue
/// 15: a thousand albums of a thousand photos took 74 s).
///
/// SQLite triggers keep the table: adding a member counts it and widens the dates at once;
/// removing one, or changing a member's date, counts it and marks the album `dirty` when a date
/// may have moved (the member held a bound, or is gone). Each write transaction ends by computing
/// its dirty albums again (``refresh(_:)``), once each, however many members left; a reader that
/// still finds one dirty (a write made outside ``LibraryDatabase/write(_:)``) reads the members.
enum CollectionStats {
    /// What a member added (the row `NEW` of `collection_asset`) does to its album's figures, once
    /// the album has its row: SQL both engines read, SQLite's trigger and PostgreSQL's
    /// (``PostgreSQLSchema``) alike.
    static let memberAdded = """
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
        """

    /// The table, its triggers, and the figures of the albums there are.
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE collection_stats (
                    collectionId INTEGER PRIMARY KEY REFERENCES collection(id) ON DELETE CASCADE,
                    assetCount INTEGER NOT NULL DEFAULT 0,
                    startDate REAL,
                    endDate REAL,
                    dirty INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX collection_stats_dirty ON collection_stats(collectionId) WHERE dirty = 1;

                CREATE TRIGGER collection_stats_member_added AFTER INSERT ON collection_asset BEGIN
                    INSERT OR IGNORE INTO collection_stats (collectionId) VALUES (NEW.collectionId);
                    \(memberAdded)
                END;

                CREATE TRIGGER collection_stats_member_removed AFTER DELETE ON collection_asset BEGIN
                    UPDATE collection_stats SET
                        assetCount = assetCount - 1,
                        dirty = dirty OR NOT EXISTS (SELECT 1 FROM asset WHERE id = OLD.assetId)
                            OR COALESCE((SELECT creationDate FROM asset WHERE id = OLD.assetId)
                                IN (collection_stats.startDate, collection_stats.endDate), 0)
                    WHERE collectionId = OLD.collectionId;
                END;

                CREATE TRIGGER collection_stats_date_changed AFTER UPDATE OF creationDate ON asset
                WHEN OLD.creationDate IS NOT NEW.creationDate BEGIN
                    UPDATE collection_stats SET dirty = 1
                    WHERE collectionId IN (SELECT collectionId FROM collection_asset WHERE assetId = NEW.id);
                END;

                INSERT INTO collection_stats (collectionId, assetCount, startDate, endDate)
                    SELECT ca.collectionId, COUNT(*), MIN(a.creationDate), MAX(a.creationDate)
                    FROM collection_asset ca JOIN asset a ON a.id = ca.assetId GROUP BY ca.collectionId;
                """)
    }

    /// Computes the dirty albums' figures again from their members (at the end of each write).
    static func refresh(_ db: some StoreConnection) throws {
        try db.execute(
            """
            UPDATE collection_stats SET (assetCount, startDate, endDate, dirty) = (
                SELECT COUNT(*), MIN(a.creationDate), MAX(a.creationDate), 0
                FROM collection_asset ca JOIN asset a ON a.id = ca.assetId
                WHERE ca.collectionId = collection_stats.collectionId)
            WHERE dirty = 1
            """, [])
    }
}
