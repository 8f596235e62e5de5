/// The objects a read names, in the order given: by the store's row ids (what a fetch result and
/// the change log hold), or by local identifier (what callers and the API hold). A key with no live
/// object is skipped; a repeated key is read again.
public enum ObjectKeys: Sendable, Equatable {
    /// By the store's row ids.
    case rowIDs([Int64])
    /// By `localIdentifier`.
    case localIdentifiers([String])

    /// Whether no object is named.
    public var isEmpty: Bool {
        switch self {
        case .rowIDs(let ids): ids.isEmpty
        case .localIdentifiers(let identifiers): identifiers.isEmpty
        }
    }

    /// The row ids in `table`, in the order given; an identifier with no live row is dropped.
    func rowIDs(in table: String, _ db: some StoreConnection) throws -> [Int64] {
        switch self {
        case .rowIDs(let ids):
            return ids
        case .localIdentifiers(let identifiers):
            let ids = try LibraryDatabase.ids(table: table, localIdentifiers: identifiers, db)
            return identifiers.compactMap { ids[$0] }
        }
    }
}
