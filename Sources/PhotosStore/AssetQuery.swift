import Foundation
import PhotosCore

/// Which assets to fetch, in which order: the storage form of a PhotoKit asset fetch.
///
/// ```swift
/// var query = AssetQuery()
/// query.filter = try predicate.sql(for: .asset, column: AssetQuery.column(for:))
/// query.sort = [SortKey(key: "creationDate", ascending: false)]
/// query.limit = 50
/// let ids = try database.assetIDs(matching: query)
/// ```
public struct AssetQuery: Sendable, Hashable {
    /// Where the assets come from.
    public enum Scope: Sendable, Hashable {
        /// The whole library.
        case library
        /// The members of an album, in the album's order unless sorted.
        case collection(Int64)
        /// The members of a smart album.
        case smartAlbum(PHAssetCollectionSubtype)
        /// The assets with these local identifiers.
        case localIdentifiers([String])
        /// Every member of a burst.
        case burst(String)
        /// These assets, by row id, in this order unless sorted: a transient collection's.
        case listed([Int64])
    }

    /// Where the assets come from.
    public var scope: Scope = .library
    /// Only assets of this media type.
    public var mediaType: PHAssetMediaType?
    /// A compiled predicate (see ``column(for:)``).
    public var filter: SQLFragment?
    /// The order; empty means the scope's natural order.
    public var sort: [SortKey] = []
    /// At most this many assets; 0 means no limit.
    public var limit: Int = 0
    /// Include hidden assets (PhotoKit's default: no).
    public var includeHidden = false
    /// Include every burst member, not only representatives and user picks (PhotoKit's default: no).
    public var includeAllBursts = false
    /// Source types to include (nil: PhotoKit's default, the user library).
    public var sourceTypes: PHAssetSourceType?
    /// Only assets that are members of one of these albums, by local identifier (a limited API
    /// client's bound); nil for no bound. Evaluated in the query, so a snapshot kept up to date
    /// follows the albums as assets come and go.
    public var albums: [String]?

    /// The condition that leaves hidden assets out (PhotoKit's default), on `asset`.
    public static let hiddenExcluded = "asset.isHidden = 0"
    /// The condition that keeps of each burst only its representative and picks (PhotoKit's default), on `asset`.
    public static let burstsCollapsed = "asset.isBurstVisible = 1"

    /// A query with PhotoKit's defaults.
    public init(scope: Scope = .library) {
        self.scope = scope
    }

    /// The SQL expression for a canonical predicate or sort key of `PHAsset`.
    public static func column(for key: String) -> String {
        switch key {
        case "favorite", "isFavorite": "asset.isFavorite"
        case "hidden", "isHidden": "asset.isHidden"
        case "creationDateHasOffset": "(CASE WHEN asset.creationDateIsFloating = 0 THEN 1 ELSE 0 END)"
        // The first file's name, the one the JSON's resources list first (the original photo or
        // video); `originalFilename` is NULL when it is the file's name.
        case "filename":
            """
            (SELECT COALESCE(resource.originalFilename, resource.name) FROM resource WHERE resource.assetId = asset.id \
            ORDER BY resource.type, resource.id LIMIT 1)
            """
        // Whether the library placed every file of the asset (the asset JSON's key of that name).
        case "isLibraryOwned":
            """
            (CASE WHEN EXISTS (SELECT 1 FROM resource WHERE resource.assetId = asset.id \
            AND resource.isLibraryOwned = 0) THEN 0 ELSE 1 END)
            """
        // Whether there is a location: the latitude and longitude are NULL together.
        case "location": "asset.latitude"
        default: "asset." + key
        }
    }

    /// The SELECT statement and its arguments for the row ids this query selects, in order.
    package func sql(selecting selection: String = "asset.id", dialect: SQLDialect = .sqlite)
        -> (sql: String, arguments: [SQLValue])
    {
        let clauses = clauses(dialect)
        var sql = clauses.with.map { "WITH \($0) " } ?? ""
        sql += "SELECT \(selection) FROM \(clauses.from)"
        if !clauses.conditions.isEmpty { sql += " WHERE " + clauses.conditions.joined(separator: " AND ") }
        sql +=
            " ORDER BY "
            + clauses.order.map { $0.expression + dialect.direction(ascending: $0.ascending) }.joined(separator: ", ")
        var arguments = clauses.arguments
        if limit > 0 {
            sql += " LIMIT ?"
            arguments.append(.int(Int64(limit)))
        }
        return (sql, arguments)
    }

    /// The statement that counts the assets this query selects (its limit counted, its order not
    /// asked for: an aggregate with an ORDER BY of other columns is an error on PostgreSQL).
    package func countSQL(dialect: SQLDialect = .sqlite) -> (sql: String, arguments: [SQLValue]) {
        guard limit == 0 else {
            let (sql, arguments) = self.sql(dialect: dialect)
            return ("SELECT COUNT(*) FROM (\(sql)) AS limited", arguments)
        }
        let clauses = clauses(dialect)
        var sql = clauses.with.map { "WITH \($0) " } ?? ""
        sql += "SELECT COUNT(*) FROM \(clauses.from)"
        if !clauses.conditions.isEmpty { sql += " WHERE " + clauses.conditions.joined(separator: " AND ") }
        return (sql, clauses.arguments)
    }

    /// One term of the ORDER BY: an SQL expression and its direction.
    public struct OrderTerm: Sendable, Hashable {
        /// The SQL expression sorted on.
        public var expression: String
        /// Ascending (SQLite's default) or descending.
        public var ascending: Bool
    }

    /// The parts of the query's SELECT: the common table expressions it reads (nil for none),
    /// the FROM clause, the WHERE conditions (all must hold) with their arguments, and the full
    /// order, which always ends with a unique column, so that it is total.
    ///
    /// Every part names the assets `asset`: the table, or for "Recently Deleted" the trashed
    /// assets' kept records as rows of the same columns (``TrashedAsset/rowsCTE``), so that
    /// predicates and sort keys read them as they read live assets.
    package func clauses(_ dialect: SQLDialect = .sqlite) -> (
        with: String?, from: String, conditions: [String], arguments: [SQLValue], order: [OrderTerm]
    ) {
        var with: String?
        var from = "asset"
        var conditions: [String] = []
        var values: [SQLValue] = []
        var naturalOrder = [
            OrderTerm(expression: "asset.creationDate", ascending: true),
            OrderTerm(expression: "asset.id", ascending: true),
        ]
        var hiddenAllowed = includeHidden
        var allBursts = includeAllBursts

        switch scope {
        case .library:
            break
        case .collection(let id):
            from = "collection_asset JOIN asset ON asset.id = collection_asset.assetId"
            conditions.append("collection_asset.collectionId = ?")
            values.append(.int(id))
            naturalOrder = ascending("collection_asset.position", "asset.id")
        case .smartAlbum(let subtype):
            if let album = SmartAlbum.album(for: subtype) {
                if album.readsTrash {
                    // Every trashed asset, burst members included, the latest deletion first.
                    with = TrashedAsset.rowsCTE(dialect)
                    from = TrashedAsset.rowsTable + " AS asset"
                    allBursts = true
                    naturalOrder = [
                        OrderTerm(expression: "asset.trashedDate", ascending: false),
                        OrderTerm(expression: "asset.id", ascending: false),
                    ]
                }
                conditions.append(album.condition(dialect))
                hiddenAllowed = hiddenAllowed || album.includesHidden
            } else {
                conditions.append(dialect.boolean(false))
            }
        case .localIdentifiers(let identifiers):
            conditions.append("asset.localIdentifier IN (\(dialect.elementsOfJSONArray()))")
            values.append(.text(JSONText.array(identifiers)))
            naturalOrder = ascending("asset.id")
        case .burst(let identifier):
            conditions.append("asset.burstIdentifier = ?")
            values.append(.text(identifier))
            allBursts = true
        case .listed(let ids):
            // The FROM's placeholder is the first: no value is gathered before this switch.
            from =
                "\(dialect.elementsOfJSONArray(as: "listed", wholeNumbers: true)) JOIN asset ON asset.id = listed.value"
            values.append(.text(JSONText.array(ids)))
            naturalOrder = ascending("listed.key", "asset.id")
        }
        if let mediaType {
            conditions.append("asset.mediaType = ?")
            values.append(.int(Int64(mediaType.rawValue)))
        }
        if !hiddenAllowed { conditions.append(Self.hiddenExcluded) }
        if !allBursts { conditions.append(Self.burstsCollapsed) }
        if let sourceTypes, !sourceTypes.contains(.typeUserLibrary) {
            conditions.append("(asset.sourceType & ?) != 0")
            values.append(.int(Int64(sourceTypes.rawValue)))
        }
        if let albums {
            conditions.append(
                """
                asset.id IN (SELECT member.assetId FROM collection_asset member \
                JOIN collection album ON album.id = member.collectionId \
                WHERE album.isList = 0 AND album.localIdentifier IN (\(dialect.elementsOfJSONArray())))
                """)
            values.append(.text(JSONText.array(albums)))
        }
        if let filter {
            conditions.append("(\(filter.sql))")
            values += filter.arguments
        }

        let order: [OrderTerm]
        if sort.isEmpty {
            order = naturalOrder
        } else {
            // The row id breaks ties in the last key's direction, so an index on the key serves the order.
            order =
                sort.map { OrderTerm(expression: Self.column(for: $0.key), ascending: $0.ascending) }
                + [OrderTerm(expression: "asset.id", ascending: sort.last!.ascending)]
        }
        return (with, from, conditions, values, order)
    }

    private func ascending(_ expressions: String...) -> [OrderTerm] {
        expressions.map { OrderTerm(expression: $0, ascending: true) }
    }

    /// Whether changing these PhotoKit properties of some assets can change which assets this
    /// query selects or their order. `false` lets change details skip fetching again.
    public func depends(onProperties properties: Set<String>) -> Bool {
        // An edit of a property (a change request, a sidecar's merge) sets `modificationDate` too:
        // a query sorted or filtered on it sees the edited asset move, arrive or leave.
        let columns: [String: [String]] = [
            "isFavorite": ["isFavorite", "modificationDate"], "isHidden": ["isHidden", "modificationDate"],
            "location": ["latitude", "longitude", "altitude", "speed", "course", "modificationDate"],
            "creationDate": ["creationDate", "modificationDate"],
            "representsBurst": ["representsBurst", "isBurstVisible"],
        ]
        let (sql, _) = self.sql()
        for property in properties {
            // Content and anything not listed may change any column.
            guard let names = columns[property] else { return true }
            if names.contains(where: { sql.contains("asset." + $0) }) { return true }
        }
        return false
    }
}
