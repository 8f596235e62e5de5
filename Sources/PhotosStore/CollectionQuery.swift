import PhotosCore

/// Which collections to fetch, in which order: the storage form of a PhotoKit collection fetch.
public struct CollectionQuery: Sendable, Hashable {
    /// Where the collections come from.
    public enum Scope: Sendable, Hashable {
        /// Asset collections of a type and subtype (nil: any).
        case assetCollections(type: PHAssetCollectionType?, subtype: PHAssetCollectionSubtype?)
        /// Collection lists of a type and subtype (nil: any).
        case collectionLists(type: PHCollectionListType?, subtype: PHCollectionListSubtype?)
        /// Collections with these local identifiers; `isList` nil means both kinds.
        case localIdentifiers([String], isList: Bool?)
        /// The children of a folder, or (nil) the top-level user collections, in their order.
        case children(of: Int64?)
        /// The albums (of a type, nil: any) holding an asset.
        case containingAsset(Int64, type: PHAssetCollectionType?)
        /// The folders directly holding a collection.
        case listsContaining(Int64)
        /// These collections, by row id, in this order unless sorted: a transient folder's.
        case listed([Int64])
    }

    /// Where the collections come from.
    public var scope: Scope
    /// A compiled predicate (see ``column(for:)``).
    public var filter: SQLFragment?
    /// The order; empty means the scope's natural order.
    public var sort: [SortKey] = []
    /// At most this many collections; 0 means no limit.
    public var limit: Int = 0

    /// A query over a scope.
    public init(scope: Scope) {
        self.scope = scope
    }

    /// The SQL expression for a canonical predicate or sort key of a collection.
    public static func column(for key: String) -> String {
        switch key {
        case "title", "localizedTitle": "collection.title"
        case "startDate": "(\(dateBound("MIN")))"
        case "endDate": "(\(dateBound("MAX")))"
        case "estimatedAssetCount":
            "COALESCE((SELECT s.assetCount FROM collection_stats s WHERE s.collectionId = collection.id), 0)"
        default: "collection." + key
        }
    }

    /// The earliest or latest creation date among an album's members, or a folder's albums'
    /// members: from the figures the library keeps (``CollectionStats``), a row per album.
    private static func dateBound(_ function: String) -> String {
        let column = function == "MIN" ? "startDate" : "endDate"
        return """
            SELECT \(function)(s.\(column)) FROM collection_stats s
            WHERE s.collectionId = collection.id
               OR s.collectionId IN (SELECT child.id FROM collection child WHERE child.parentId = collection.id)
            """
    }

    /// The SELECT statement and its arguments for the row ids this query selects, in order.
    package func sql(dialect: SQLDialect = .sqlite) -> (sql: String, arguments: [SQLValue]) {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        var naturalOrder = "collection.isList DESC, collection.position, collection.id"
        func kind(isList: Bool, type: Int?, subtype: Int?) {
            conditions.append("collection.isList = \(isList ? 1 : 0)")
            if let type {
                conditions.append("collection.type = ?")
                arguments.append(.int(type))
            }
            if let subtype {
                conditions.append("collection.subtype = ?")
                arguments.append(.int(subtype))
            } else if !isList && type != PHAssetCollectionType.album.rawValue {
                // Every subtype but Recently Deleted's, which is fetched by its subtype or identifier only.
                conditions.append("collection.subtype != ?")
                arguments.append(.int(PHAssetCollectionSubtype.smartAlbumRecentlyDeleted.rawValue))
            }
        }
        switch scope {
        case .assetCollections(let type, let subtype):
            kind(isList: false, type: type?.rawValue, subtype: subtype == .any ? nil : subtype?.rawValue)
            naturalOrder = "collection.type DESC, collection.position, collection.id"
        case .collectionLists(let type, let subtype):
            kind(isList: true, type: type?.rawValue, subtype: subtype == .any ? nil : subtype?.rawValue)
            naturalOrder = "collection.position, collection.id"
        case .localIdentifiers(let identifiers, let isList):
            conditions.append("collection.localIdentifier IN (\(dialect.elementsOfJSONArray()))")
            arguments.append(.text(JSONText.array(identifiers)))
            if let isList {
                conditions.append("collection.isList = ?")
                arguments.append(.flag(isList))
            }
            naturalOrder = "collection.id"
        case .children(let parent):
            if let parent {
                conditions.append("collection.parentId = ?")
                arguments.append(.int(parent))
            } else {
                // Folders, and albums that are not smart albums.
                conditions.append("collection.parentId IS NULL")
                conditions.append("collection.isList = 1 OR collection.type = ?")
                arguments.append(.int(PHAssetCollectionType.album.rawValue))
            }
            naturalOrder = "collection.position, collection.id"
        case .containingAsset(let asset, let type):
            conditions.append("collection.isList = 0")
            conditions.append(
                "collection.id IN (SELECT collectionId FROM collection_asset WHERE assetId = ?)")
            arguments.append(.int(asset))
            if let type {
                conditions.append("collection.type = ?")
                arguments.append(.int(type.rawValue))
            }
        case .listsContaining(let child):
            conditions.append("collection.isList = 1")
            conditions.append("collection.id = (SELECT parentId FROM collection WHERE id = ?)")
            arguments.append(.int(child))
        case .listed(let ids):
            // Row ids are integers the library made: written into the statement, in order.
            let list = ids.map(String.init).joined(separator: ", ")
            conditions.append("collection.id IN (\(ids.isEmpty ? "NULL" : list))")
            let places = ids.enumerated().map { "WHEN \($1) THEN \($0)" }.joined(separator: " ")
            naturalOrder = ids.isEmpty ? "collection.id" : "CASE collection.id \(places) END, collection.id"
        }
        if let filter {
            conditions.append("(\(filter.sql))")
            arguments += filter.arguments
        }
        var sql = "SELECT collection.id FROM collection"
        if !conditions.isEmpty { sql += " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ") }
        if sort.isEmpty {
            sql += " ORDER BY " + naturalOrder
        } else {
            sql +=
                " ORDER BY "
                + (sort.map { Self.column(for: $0.key) + dialect.direction(ascending: $0.ascending) } + [
                    "collection.id"
                ])
                .joined(separator: ", ")
        }
        if limit > 0 {
            sql += " LIMIT ?"
            arguments.append(.int(limit))
        }
        return (sql, arguments)
    }
}
