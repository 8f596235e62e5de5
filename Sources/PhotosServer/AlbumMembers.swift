import Photos
import PhotosStore

/// The members of every regular album, kept change by change, to tell whose asset JSON `albums`
/// (each album holding the asset, with its title and path) a change of albums altered: in
/// PhotoKit's terms that is a change of the albums alone, and their assets' change details say
/// nothing of it.
///
/// | what the change did to an album | assets whose `albums` changed |
/// |---|---|
/// | created it | its members |
/// | changed its members alone (`assets`) | those that joined or left |
/// | anything else (title, directory, place, folder) | its members, before and after |
/// | deleted it | its members before |
///
/// The cost follows the albums the change touched: each is read again, its members compared.
///
/// ```swift
/// var members = try AlbumMembers(library.database)  // before the fetch it follows
/// // for each change, in order:
/// let altered = try members.assetsWhoseAlbumsChanged(in: change.entry)
/// ```
struct AlbumMembers: Sendable {
    private let database: LibraryDatabase
    /// Each regular album's members (asset row ids), by local identifier.
    private var members: [String: Set<Int64>]

    /// The members of every regular album of `database` now. Read before the fetch a live query
    /// follows: a change between the two then names at worst an asset whose `albums` it did not
    /// alter, never misses one.
    init(_ database: LibraryDatabase) throws {
        self.database = database
        members = try database.albumMembers()
    }

    /// The row ids of the assets whose `albums` `entry` altered (see the table); the members are
    /// brought up to date with it. Entries must come in order.
    mutating func assetsWhoseAlbumsChanged(in entry: LibraryChange) throws -> Set<Int64> {
        let albums = entry.assetCollection
        var altered = Set<Int64>()
        for identifier in albums.deleted {
            if let gone = members.removeValue(forKey: identifier) { altered.formUnion(gone) }
        }
        let touched = albums.inserted + albums.updated
        guard !touched.isEmpty else { return altered }
        let now = try database.albumMembers(touched)
        for identifier in touched {
            let (before, after) = (members[identifier] ?? [], now[identifier] ?? [])
            if albums.changedProperties[identifier] == ["assets"] {
                altered.formUnion(before.symmetricDifference(after))
            } else {
                altered.formUnion(before.union(after))
            }
            // Nil for a smart album or a folder: their members are named in no asset's JSON.
            members[identifier] = now[identifier]
        }
        return altered
    }
}
