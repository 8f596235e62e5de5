import PhotosCore

/// How a library several hosts share names the paths it keeps: by host and path, so that two
/// hosts' `/home/me/Pictures` are two roots, with their own directories, folder albums, rejected
/// files and unreadable directories.
///
/// Each row the store keeps by path (``hostedTables`` and `root`) has a `host` column: the host whose
/// disk the path is on, or "" for none (a library file's rows, and those of a library copied from
/// a file until a host scans their root and takes them, ``LibraryTransaction/claimRoot(_:)``). A
/// trashed asset names the host whose Trash holds its files (``tablesGivenAHost``).
///
/// A PostgreSQL connection names its host to the server (the `photos.host` setting, given at
/// connect): new rows take it by default, and reads by path keep to it (``SQLDialect/isThisHost(_:)``).
/// A library file is one machine's: it reads every row, and its paths stay unique alone.
///
/// What the store gives back names another host's file or directory by its host, as scp and rsync
/// do: `nas:/srv/photos/IMG_1.JPG` (``SQLDialect/hostedPath(_:)``). Such a path is never absolute,
/// so no root holds it, nothing on this host's disk is read or written for it, and the host that
/// serves it is in its name (``holder(of:)``).
public enum RootHosts {
    /// The tables whose rows are found by path and gained a `host` column (schema v37); `root` had
    /// one already (v33).
    static let hostedTables = ["directory", "collection", "rejected", "unreadable_directory"]

    /// The tables with a `host` column made in schema v37: ``hostedTables``, and `trashedAsset`,
    /// whose files are in the Trash of the host that deleted it.
    static let tablesGivenAHost = hostedTables + ["trashedAsset"]

    /// The host whose disk holds the file or directory at `path` as the store gives it back: the
    /// host it names (`nas` of `nas:/srv/photos/IMG_1.JPG`), or nil for an absolute path, which is on
    /// this host's disk (or is a library file's).
    public static func holder(of path: String) -> String? {
        guard !path.hasPrefix("/"), let colon = path.firstIndex(of: ":"), colon != path.startIndex else { return nil }
        return String(path[..<colon])
    }

    /// `path` as the store gave it back, without the host that names it: the path on that host's disk.
    static func pathOnItsHost(_ path: String) -> String {
        guard let host = holder(of: path) else { return path }
        return String(path.dropFirst(host.count + 1))
    }

    /// This connection's host in PostgreSQL's SQL: the `photos.host` setting, "" where unset (a
    /// new row's default).
    static let thisHostPostgreSQL = "COALESCE(current_setting('photos.host', true), '')"

    /// ``thisHostPostgreSQL`` in a condition: a subquery, which the server reads once a statement
    /// and can search the (path, host) indexes with, where the call itself would be made again for
    /// every row compared.
    static let thisHostInConditions = "(SELECT \(thisHostPostgreSQL))"

    /// The rest of schema v37 after the columns, the same on both engines: each row takes the host of
    /// the root that holds it (the innermost root a host holds), roots held by none name "", and
    /// each table gains the index that finds a path on a host.
    static let migration: [String] = {
        /// The host of the innermost root a host holds around the path `column`, or "".
        func holder(of column: String) -> String {
            """
            COALESCE((SELECT holding.host FROM root holding
                WHERE holding.host <> '' AND (\(column) = holding.path OR holding.path = '/'
                    OR substr(\(column), 1, length(holding.path) + 1) = holding.path || '/')
                ORDER BY length(holding.path) DESC LIMIT 1), '')
            """
        }
        return [
            "UPDATE root SET host = '' WHERE host IS NULL",
            "UPDATE directory SET host = \(holder(of: "rtrim(directory.path, '/')"))",
            "UPDATE collection SET host = \(holder(of: "collection.path")) WHERE path IS NOT NULL",
            "UPDATE rejected SET host = \(holder(of: "rejected.path"))",
            "UPDATE unreadable_directory SET host = \(holder(of: "unreadable_directory.path"))",
            """
            UPDATE trashedAsset SET host = \(holder(of: """
                (SELECT f.path FROM trashedFile f WHERE f.assetId = trashedAsset.assetId ORDER BY f.id LIMIT 1)
                """))
            """,
            "CREATE UNIQUE INDEX directory_by_path_host ON directory(path, host)",
            "CREATE UNIQUE INDEX root_by_path_host ON root(path, host)",
            "CREATE UNIQUE INDEX rejected_by_path_host ON rejected(path, host)",
            "CREATE UNIQUE INDEX unreadable_directory_by_path_host ON unreadable_directory(path, host)",
            "DROP INDEX collection_by_path",
            "CREATE INDEX collection_by_path ON collection(path, host) WHERE path IS NOT NULL",
        ]
    }()

    /// Schema v37 on PostgreSQL: the columns, ``migration``, then the keys by path alone give way to
    /// the (path, host) indexes, and new rows take the connection's host.
    static let postgreSQLMigration: [String] =
        tablesGivenAHost.map { #"ALTER TABLE \#($0) ADD COLUMN host TEXT COLLATE "C" NOT NULL DEFAULT ''"# }
        + migration
        + [
            "ALTER TABLE directory DROP CONSTRAINT directory_path_key",
            "ALTER TABLE root DROP CONSTRAINT root_pkey",
            "ALTER TABLE rejected DROP CONSTRAINT rejected_pkey",
            "ALTER TABLE unreadable_directory DROP CONSTRAINT unreadable_directory_pkey",
        ]
        + tablesGivenAHost.map { "ALTER TABLE \($0) ALTER COLUMN host SET DEFAULT \(thisHostPostgreSQL)" }
}

extension SQLDialect {
    /// The condition that the row's `column` (a `host` column, ``RootHosts``) is this connection's
    /// host. Always true in a library file, which one machine holds: it reads every row.
    func isThisHost(_ column: String) -> String {
        switch self {
        case .sqlite: "1"
        case .postgreSQL: "\(column) = \(RootHosts.thisHostInConditions)"
        }
    }

    /// The condition that the row's `column` names this connection's host or no host (a row a
    /// library file brought, which the first host to need it takes). Always true in a library file.
    func isThisHostOrNone(_ column: String) -> String {
        switch self {
        case .sqlite: "1"
        case .postgreSQL: "(\(column) = '' OR \(isThisHost(column)))"
        }
    }

    /// The `path` of the row `alias` of a hosted table (``RootHosts``) as the store gives it back:
    /// as it is on this host or no host, `host:path` on another (`nas:/srv/photos/`).
    func hostedPath(_ alias: String) -> String {
        switch self {
        case .sqlite: "\(alias).path"
        case .postgreSQL:
            """
            CASE WHEN \(isThisHostOrNone("\(alias).host")) THEN \(alias).path \
            ELSE \(alias).host || ':' || \(alias).path END
            """
        }
    }
}
