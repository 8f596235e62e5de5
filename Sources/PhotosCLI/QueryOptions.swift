import ArgumentParser
import Foundation
import Photos
import PhotosCore

/// The fetch options of `photos assets`, `photos watch-query` and `photos export`, declared once:
/// the same spellings and help in each, read the same way by a fetch of the library file
/// (``fetchAssets(in:options:)``), a listing through photosd (``listingQuery(album:)``, `GET
/// /v1/assets`) and a live query (``liveQueryFields(album:)``, `POST /v1/queries`).
struct QueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A PhotoKit predicate format: only what it matches.", valueName: "format"))
    var predicate: String?

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Sort by a key; prefix - for descending. Repeatable.", valueName: "[-]key"))
    var sort: [String] = []

    // Unconditional: `--limit -1` is a value to refuse with its reason, not a missing one.
    @Option(parsing: .unconditional, help: "At most this many assets (0: all).")
    var limit: Int = 0

    @Flag(help: "Include hidden assets.")
    var includeHidden = false

    @Flag(help: "Include every burst member, not only representatives.")
    var includeAllBursts = false

    @Option(
        help: ArgumentHelp(
            "Only the assets of this album: its identifier (or a unique prefix), or the directory it mirrors.",
            valueName: "album"))
    var album: String?

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
    }

    /// The options given that only shape a fetch (every one but --predicate and --album), as typed.
    var shapingOptions: [String] {
        let given: [(name: String, isGiven: Bool)] = [
            ("--sort", !sort.isEmpty), ("--limit", limit > 0), ("--include-hidden", includeHidden),
            ("--include-all-bursts", includeAllBursts),
        ]
        return given.filter { $0.isGiven }.map { $0.name }
    }

    /// The assets these options fetch from the library file, `--album` resolved as
    /// ``ObjectResolver`` does (an identifier, a unique prefix, or the directory it mirrors). An
    /// invalid predicate or sort key, an unknown album or a library that cannot be read is an error.
    func fetchAssets(in library: PHPhotoLibrary, options: LibraryOptions) throws -> PHFetchResult<PHAsset> {
        let fetchOptions = PHFetchOptions()
        fetchOptions.photoLibrary = library
        fetchOptions.fetchLimit = limit
        fetchOptions.includeHiddenAssets = includeHidden
        fetchOptions.includeAllBurstAssets = includeAllBursts
        if let predicate { fetchOptions.predicate = NSPredicate(format: predicate) }
        fetchOptions.sortDescriptors = sort.map { text in
            let (key, ascending) = SortKey.parse(text)
            return NSSortDescriptor(key: key, ascending: ascending)
        }
        do {
            try fetchOptions.validate(for: .asset)
        } catch {
            throw CLIError("invalid predicate or sort: \(error)")
        }
        let result: PHFetchResult<PHAsset>
        if let album {
            let identifier = try ObjectResolver(.library(library)).album(album)
            let collectionOptions = PHFetchOptions()
            collectionOptions.photoLibrary = library
            guard
                let collection = PHAssetCollection.fetchAssetCollections(
                    withLocalIdentifiers: [identifier], options: collectionOptions
                ).firstObject
            else {
                try options.requireAvailable(library)
                throw CLIError("no album \(album)")
            }
            result = PHAsset.fetchAssets(in: collection, options: fetchOptions)
        } else {
            result = PHAsset.fetchAssets(with: fetchOptions)
        }
        try options.requireAvailable(library)
        return result
    }

    /// The same options as `GET /v1/assets` takes them; `album`: `--album` resolved by photosd.
    func listingQuery(album: String?) -> [(String, String)] {
        var query: [(String, String)] = []
        if let predicate { query.append(("predicate", predicate)) }
        for key in sort { query.append(("sort", key)) }
        if limit > 0 { query.append(("limit", "\(limit)")) }
        if includeHidden { query.append(("includeHidden", "true")) }
        if includeAllBursts { query.append(("includeAllBursts", "true")) }
        if let album { query.append(("in", album)) }
        return query
    }

    /// The same options as `POST /v1/queries` takes them; `album`: `--album` resolved by photosd.
    func liveQueryFields(album: String?) -> [String: Any] {
        var fields: [String: Any] = [:]
        if let predicate { fields["predicate"] = predicate }
        if !sort.isEmpty { fields["sort"] = sort }
        if limit > 0 { fields["limit"] = limit }
        if includeHidden { fields["includeHidden"] = true }
        if includeAllBursts { fields["includeAllBursts"] = true }
        if let album { fields["in"] = album }
        return fields
    }
}
