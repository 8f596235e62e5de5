import Foundation
import NIOCore
import PhotosCore
import PostgresNIO

/// Rows held for inserting (``StoreConnection/insertLater(_:_:)``) sent to PostgreSQL as columns:
/// one array a column, bound in binary, and a statement that turns them back into rows
/// (`SELECT * FROM unnest(?::bigint[], ?::text[], …)`).
///
/// A thousand rows as `VALUES (…), (…)` are a statement of tens of thousands of placeholders that
/// the server parses and binds one by one (as long as it takes to insert them); as columns they
/// are one short statement whatever the count, and its arrays are read in a pass.
///
/// ```swift
/// if let columns = PostgreSQLColumns(shape, rows) {
///     var bindings = PostgresBindings(capacity: columns.arrays.count)
///     for array in columns.arrays { bindings.append(array) }
///     // columns.sql: "INSERT INTO asset (…) SELECT * FROM unnest($1::bigint[], $2::text[], …)"
/// }
/// ```
struct PostgreSQLColumns {
    /// The statement inserting the rows, its placeholders one a column (the rows' positions first,
    /// for a shape's own statement).
    let sql: String
    /// The arrays, in the placeholders' order.
    let arrays: [PostgreSQLArray]

    /// The rows of `shape` as columns; nil where they cannot be sent so: a shape whose row is more
    /// than placeholders (`(?, lower(?))`), or a value of another kind than its column's others
    /// (text among numbers), which the rows as `VALUES` would make an error of the server's.
    ///
    /// A column's element type is the cast its placeholder names (`?::text`); else what its values
    /// are: text, bytes, numbers with a fraction (any `.double`), or whole numbers (NULLs alone).
    init?(_ shape: LaterInsert, _ rows: some Collection<[SQLValue]>) {
        guard let casts = Self.casts(of: shape.row), let first = rows.first, first.count == casts.count else {
            return nil
        }
        var arrays: [PostgreSQLArray] = []
        arrays.reserveCapacity(casts.count + 1)
        if shape.statement != nil {
            arrays.append(PostgreSQLArray(element: .bigint, values: (0..<rows.count).map { .int(Int64($0)) }))
        }
        for column in casts.indices {
            var values: [SQLValue] = []
            values.reserveCapacity(rows.count)
            for row in rows {
                guard row.count == casts.count else { return nil }
                values.append(row[column])
            }
            let element = casts[column] ?? .of(values)
            guard element.holds(values) else { return nil }
            arrays.append(PostgreSQLArray(element: element, values: values))
        }
        let source =
            "SELECT * FROM unnest(" + arrays.map { "?::\($0.element.rawValue)[]" }.joined(separator: ", ") + ")"
        if let statement = shape.statement {
            sql = statement.replacingOccurrences(of: "{rows}", with: source)
        } else {
            sql = "INSERT INTO \(shape.table) (\(shape.columns)) \(source)"
        }
        self.arrays = arrays
    }

    /// The type each value of a row written `(?, ?::text, …)` is cast to (nil: none); nil where the
    /// row holds anything but placeholders, or a cast to a type other than the store's four.
    static func casts(of row: String) -> [PostgreSQLArray.Element?]? {
        guard row.hasPrefix("("), row.hasSuffix(")") else { return nil }
        var casts: [PostgreSQLArray.Element?] = []
        for value in row.dropFirst().dropLast().split(separator: ",") {
            let value = value.trimmingCharacters(in: .whitespaces)
            if value == "?" {
                casts.append(nil)
            } else if value.hasPrefix("?::"),
                let element = PostgreSQLArray.Element(rawValue: String(value.dropFirst(3)))
            {
                casts.append(element)
            } else {
                return nil
            }
        }
        return casts
    }
}

/// One column of rows as a one-dimensional PostgreSQL array in binary form (NULLs included).
struct PostgreSQLArray: PostgresDynamicTypeEncodable {
    /// The types the store's columns have in PostgreSQL, as their casts name them.
    enum Element: String {
        case bigint, float8, text, bytea

        /// The element type that holds `values`: text, bytes, numbers with a fraction, or whole numbers.
        static func of(_ values: [SQLValue]) -> Element {
            var element = Element.bigint
            for value in values {
                switch value {
                case .text: return .text
                case .blob: return .bytea
                case .double: element = .float8
                case .int, .null: continue
                }
            }
            return element
        }

        /// Whether each of `values` can be sent as this type (a whole number as a float8 too).
        func holds(_ values: [SQLValue]) -> Bool {
            values.allSatisfy { value in
                switch (self, value) {
                case (_, .null), (.bigint, .int), (.float8, .int), (.float8, .double), (.text, .text),
                    (.bytea, .blob):
                    true
                default: false
                }
            }
        }

        var type: PostgresDataType {
            switch self {
            case .bigint: .int8
            case .float8: .float8
            case .text: .text
            case .bytea: .bytea
            }
        }

        var arrayType: PostgresDataType {
            switch self {
            case .bigint: .int8Array
            case .float8: .float8Array
            case .text: .textArray
            case .bytea: .byteaArray
            }
        }
    }

    let element: Element
    let values: [SQLValue]

    var psqlType: PostgresDataType { element.arrayType }
    var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's binary array: dimensions, whether any element is NULL, the element type, the
    /// length and lower bound, then each element as its length (-1: NULL) and its bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        buffer.writeInteger(values.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(values.contains(.null) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(element.type.rawValue)
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))
        buffer.writeInteger(1, as: Int32.self)
        for value in values {
            switch value {
            case .null:
                buffer.writeInteger(-1, as: Int32.self)
            case .int(let number) where element == .float8:
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(Double(number).bitPattern)
            case .int(let number):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(number)
            case .double(let number):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(number.bitPattern)
            case .text(let text):
                let lengthAt = buffer.writerIndex
                buffer.writeInteger(0, as: Int32.self)
                let length = buffer.writeString(text)
                buffer.setInteger(Int32(length), at: lengthAt)
            case .blob(let bytes):
                buffer.writeInteger(Int32(bytes.count))
                buffer.writeBytes(bytes)
            }
        }
    }
}
