import Foundation
import GRDB
import GRDBSQLite
import PhotosCore

/// The rows behind the asset JSON of some assets, read in one snapshot by three statements stepped
/// side by side: the assets, their albums and their files, each in the order the assets were asked
/// for (`position`, the asset's index in that list, leads every row). A reader walks the three
/// together and keeps nothing between assets; a column is read only when asked for, a text column in
/// place (``RowCursor/text(_:)``).
///
/// The statements have no ORDER BY: sorting cost a quarter of the rows' time for a page of 50. The
/// join order (`CROSS JOIN`, the list first) makes SQLite emit each statement's rows in the list's
/// order, and each cursor checks it as it steps (an error, never a wrong page, if SQLite ever did
/// otherwise). Within one position, albums and files come in no particular order: readers order them
/// (``AlbumColumn/position``, ``ResourceColumn/type``).
///
/// ```swift
/// try database.withAssetRows(.rowIDs(ids)) { rows in
///     while let position = rows.assets.position {
///         while let album = rows.albums.position, album < position { try rows.albums.advance() }
///         while rows.albums.position == position { ...; try rows.albums.advance() }
///         ...
///         try rows.assets.advance()
///     }
/// }
/// ```
///
/// Rows of an asset asked for twice come twice, at each position; an identifier with no live asset
/// has no asset row (its albums and files may still have rows at its position: skip them).
public struct AssetRows {
    /// One row a live asset, in the order asked for: ``AssetColumn``.
    public var assets: RowCursor
    /// One row an album (not a smart album, not a folder) holding an asset, in no order within a
    /// position: PhotoKit's `fetchAssetCollectionsContaining(_:with: .album)` orders them by
    /// ``AlbumColumn/position``, then ``AlbumColumn/id``.
    public var albums: RowCursor
    /// One row a file of an asset, in no order within a position: ``LibraryDatabase/resources(assetIDs:)``
    /// orders them by ``ResourceColumn/type``, then ``ResourceColumn/id``.
    public var resources: RowCursor
    /// Offline roots and unreadable directories (``LibraryDatabase/unavailablePaths()``): a file under
    /// one is unavailable.
    public let unavailablePaths: [String]

    /// Columns of ``assets``' rows.
    public enum AssetColumn: Int32 {
        case localIdentifier = 1, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate,
            creationDateOffset, creationDateIsFloating, modificationDate, latitude, longitude, altitude, duration,
            isFavorite, isHidden, burstIdentifier, representsBurst, rating, originalResourceChoice,
            creationDateIsFileTime
    }

    /// Columns of ``albums``' rows.
    public enum AlbumColumn: Int32 {
        case localIdentifier = 1, title, path, position, id
    }

    /// Columns of ``resources``' rows.
    public enum ResourceColumn: Int32 {
        case type = 1, path, uniformTypeIdentifier, mimeType, fileSize, id, isLibraryOwned
    }
}

/// A statement's rows, one at a time. On SQLite each row's columns are read in place from the
/// statement: no row is copied, no value decoded that is not asked for. Another engine's rows come
/// read already and are walked the same way. Valid inside the read that made it only.
public struct RowCursor {
    private let steps: SQLiteSteps?
    // Inlinable readers: left generic across modules, each column read went through a witness table.
    /// SQLite's statement, stepped in place; nil for rows another engine returned.
    @usableFromInline let handle: SQLiteStatement?
    /// Another engine's rows, and the one the cursor is on.
    @usableFromInline let rows: [[SQLValue]]
    @usableFromInline var index = 0
    /// The current row's text columns as bytes, for ``text(_:)`` on rows another engine returned.
    @usableFromInline let texts: RowTexts?
    /// The leading column of the current row (an asset's position in the list asked for); nil past
    /// the last row.
    public private(set) var position: Int?

    /// The statement's text, for errors.
    private let sql: String?

    init(_ steps: SQLiteSteps, sql: String) throws {
        self.steps = steps
        handle = steps.handle
        self.sql = sql
        (rows, texts) = ([], nil)
        try advance()
    }

    /// A cursor over rows already read, in their order (another engine's).
    init(rows: [[SQLValue]]) throws {
        (steps, handle, sql) = (nil, nil, nil)
        self.rows = rows
        texts = RowTexts()
        index = -1
        try advance()
    }

    /// Runs `sql` on `db` and walks its rows: SQLite's statement stepped in place, another engine's
    /// rows read first.
    static func open(_ sql: String, _ arguments: [SQLValue], on db: any StoreConnection) throws -> RowCursor {
        if let sqlite = db as? Database {
            return try RowCursor(SQLiteSteps(sqlite, sql, arguments), sql: sql)
        }
        return try RowCursor(rows: db.rows(sql, arguments, \.values))
    }

    /// Steps past the rows of positions before `position`: an asset asked for that has no live
    /// row leaves its albums' and files' rows behind.
    public mutating func skip(before position: Int) throws {
        while let row = self.position, row < position { try advance() }
    }

    /// Steps to the next row. Throws if the rows' positions went back (see ``AssetRows``).
    public mutating func advance() throws {
        let previous = position ?? 0
        if let steps {
            position = try steps.next() ? Int(sqlite3_column_int64(handle, 0)) : nil
        } else {
            index += 1
            position = index < rows.count ? rows[index].first?.wholeNumber.map(Int.init) : nil
            if index < rows.count { texts?.load(rows[index]) }
        }
        if let position, position < previous {
            throw StoreError(
                .other, "rows came out of the order of the list asked for: \(sql ?? "another engine's")")
        }
    }

    /// The current row's value in a column of another engine's rows.
    @inlinable
    func value<Column: RawRepresentable<Int32>>(_ column: Column) -> SQLValue {
        let row = rows[index]
        let at = Int(column.rawValue)
        return at < row.count ? row[at] : .null
    }

    /// Whether a column is NULL.
    @inlinable
    public func isNull<Column: RawRepresentable<Int32>>(_ column: Column) -> Bool {
        guard let handle else { return value(column) == .null }
        return sqlite3_column_type(handle, column.rawValue) == SQLITE_NULL
    }

    /// An integer column; 0 for NULL.
    @inlinable
    public func integer<Column: RawRepresentable<Int32>>(_ column: Column) -> Int64 {
        guard let handle else { return value(column).wholeNumber ?? 0 }
        return sqlite3_column_int64(handle, column.rawValue)
    }

    /// An integer column as a flag: nonzero is true.
    @inlinable
    public func bool<Column: RawRepresentable<Int32>>(_ column: Column) -> Bool {
        integer(column) != 0
    }

    /// A number column; nil for NULL.
    @inlinable
    public func double<Column: RawRepresentable<Int32>>(_ column: Column) -> Double? {
        guard let handle else { return value(column).number }
        return isNull(column) ? nil : sqlite3_column_double(handle, column.rawValue)
    }

    /// A text column's UTF-8 bytes, up to a NUL byte as GRDB reads text; nil for NULL. The bytes are
    /// SQLite's (or the cursor's): valid until the cursor advances.
    @inlinable
    public func text<Column: RawRepresentable<Int32>>(_ column: Column) -> UnsafeBufferPointer<UInt8>? {
        guard let handle else { return texts?.column(Int(column.rawValue)) }
        guard let bytes = sqlite3_column_text(handle, column.rawValue) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column.rawValue))
        let end = memchr(bytes, 0, count).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - bytes }
        return UnsafeBufferPointer(start: bytes, count: end ?? count)
    }

    /// A text column as a string; nil for NULL.
    @inlinable
    public func string<Column: RawRepresentable<Int32>>(_ column: Column) -> String? {
        text(column).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The text columns of a row another engine returned, as bytes that stay put until the next row:
/// what ``RowCursor/text(_:)`` lends, as SQLite lends its own.
@usableFromInline final class RowTexts {
    private var columns: [UnsafeMutableBufferPointer<UInt8>?] = []

    /// Holds the bytes of `row`'s text columns, letting go of the previous row's.
    func load(_ row: [SQLValue]) {
        release()
        columns = row.map { value in
            guard case .text(let text) = value else { return nil }
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = bytes.initialize(from: text.utf8)
            return bytes
        }
    }

    /// The bytes of a text column of the current row; nil for NULL or a value that is no text.
    @usableFromInline func column(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard index < columns.count, let bytes = columns[index] else { return nil }
        return UnsafeBufferPointer(bytes)
    }

    private func release() {
        for bytes in columns { bytes?.deallocate() }
        columns = []
    }

    deinit { release() }
}

extension SQLValue {
    /// The value as a number, if it is one.
    @usableFromInline var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .null, .text, .blob: nil
        }
    }

    /// The value as a whole number, a real one truncated as SQLite reads it; nil for anything else.
    @usableFromInline var wholeNumber: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value): Int64(exactly: value.rounded(.towardZero))
        case .null, .text, .blob: nil
        }
    }
}

extension LibraryDatabase {
    /// Reads the rows behind the asset JSON of these assets, in one read transaction, with three
    /// statements whatever their number (never one per asset); a key with no live asset has no row.
    public func withAssetRows<T>(_ keys: ObjectKeys, _ body: (inout AssetRows) throws -> T) throws -> T {
        try read { db in
            try Self.withAssetRows(ids: keys.rowIDs(in: "asset", db), db, schema: schema, body)
        }
    }

    static func withAssetRows<T>(
        ids: [Int64], _ db: any StoreConnection, schema: String?, _ body: (inout AssetRows) throws -> T
    ) throws -> T {
        // The list's `key` is an element's index: rows keep the order asked for, repeats included.
        let list: [SQLValue] = [.text(JSONText.array(ids))]
        let dialect = db.dialect
        let listed = dialect.elementsOfJSONArray(as: "j", wholeNumbers: true)
        // CROSS JOIN keeps SQLite's join order (the list, then each asset's rows): left to itself it
        // walked every album and probed each for every asset, 15 µs an asset at 20 albums. Another
        // engine orders its rows by the list.
        let ordered = dialect.inListOrder("j.key")
        let unavailable = dialect.unavailablePaths(schema: schema)
        var rows = AssetRows(
            assets: try RowCursor.open(
                """
                SELECT j.key, a.localIdentifier, a.mediaType, a.mediaSubtypes, a.pixelWidth, a.pixelHeight,
                    a.creationDate, a.creationDateOffset, a.creationDateIsFloating, a.modificationDate,
                    a.latitude, a.longitude, a.altitude, a.duration, a.isFavorite, a.isHidden,
                    a.burstIdentifier, a.representsBurst, a.rating, a.originalResourceChoice,
                    a.creationDateIsFileTime
                FROM \(listed) \(dialect.orderedJoin) asset a ON a.id = j.value\(ordered)
                """, list, on: db),
            albums: try RowCursor.open(
                """
                SELECT j.key, c.localIdentifier, c.title, \(dialect.hostedPath("c")), c.position, c.id FROM \(listed)
                \(dialect.orderedJoin) collection_asset ca ON ca.assetId = j.value
                \(dialect.orderedJoin) collection c ON c.id = ca.collectionId
                WHERE c.isList = 0 AND c.type = \(PHAssetCollectionType.album.rawValue)\(ordered)
                """, list, on: db),
            resources: try RowCursor.open(
                """
                SELECT j.key, r.type, \(FileDirectories.path(dialect)), r.uniformTypeIdentifier, r.mimeType, r.fileSize, r.id,
                    r.isLibraryOwned
                FROM \(listed) \(dialect.orderedJoin) resource r ON r.assetId = j.value
                JOIN directory d ON d.id = r.directoryId\(ordered)
                """, list, on: db),
            unavailablePaths: try db.rows(unavailable.sql, unavailable.arguments) { try $0.text(0) })
        return try body(&rows)
    }
}
