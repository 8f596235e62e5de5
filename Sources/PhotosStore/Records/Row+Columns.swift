import GRDB

extension Row {
    /// The value of the column `name`, which the reading record needs (nil where it is NULL, for an
    /// optional `Value`): a row without the column is a ``StoreError`` naming it, never a trap
    /// (GRDB's subscript) nor a silent nil (GRDB's `decode` of an optional).
    ///
    /// A row lacks a column when its query selected an older copy of a column list, or the library
    /// was written by another build; either way the reader says which column and goes on living:
    /// ```swift
    /// rating = try row.column("rating")
    /// ```
    @inlinable
    package func column<Value: DatabaseValueConvertible>(_ name: String) throws -> Value {
        // A value that may not be nil: GRDB's decode finds the column once, and fails without it.
        if Value.fromMissingColumn() == nil {
            do {
                return try decode(forColumn: name)
            } catch  where !hasColumn(name) {
                throw StoreError.missingColumn(name, in: self)
            }
        }
        // An optional, which GRDB's decode would make nil: the column is looked for first.
        guard hasColumn(name) else { throw StoreError.missingColumn(name, in: self) }
        return try decode(forColumn: name)
    }
}

extension StoreError {
    /// A row that lacks a column its reader needs: a stale column list or another build's library.
    @usableFromInline package static func missingColumn(_ name: String, in row: Row) -> StoreError {
        let columns = row.columnNames.joined(separator: ", ")
        return StoreError(
            .missingColumn,
            "a row of the library lacks the column \"\(name)\" (it has \(columns)): the query selects an "
                + "older column list, or another build wrote the library")
    }
}
