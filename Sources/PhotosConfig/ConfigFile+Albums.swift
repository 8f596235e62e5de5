import Foundation
import PhotosCore
import PhotosHooks
import PhotosStore

/// What a hook's `albums` entry names in a library.
public enum HookAlbumReference: Sendable, Hashable {
    /// An album, by its local identifier.
    case album(localIdentifier: String)
    /// A directory under a watched root that is no album yet: the first scan after startup has not
    /// reached it (a new library). It holds no asset until it becomes an album.
    case pendingDirectory(path: String)
}

extension ConfigFile {
    /// Checks that every hook's `albums` entry names an album of `database`: a directory-backed
    /// album's directory (an absolute path) or an album's local identifier.
    ///
    /// A directory under one of `watchedRoots` that is not an album yet is accepted: on a new
    /// library, photosd checks its configuration before the first scan has made any album.
    /// Throws a ``ConfigError`` (`.unknownAlbum`) naming the file, the line of the hook's `albums`
    /// and the entry; the store's failures are thrown as they come (`StoreError`).
    public func validateAlbums(in database: LibraryDatabase, watchedRoots: [String] = []) throws {
        _ = try hooksResolvingAlbums(in: database, watchedRoots: watchedRoots)
    }

    /// The hooks, each `albums` entry replaced by the local identifier of the album it names, for
    /// the hook runner, which matches assets' albums by identifier.
    ///
    /// An entry that is still a ``HookAlbumReference/pendingDirectory(path:)`` stays as its path:
    /// it matches no album identifier, so such a hook lets no asset through until it is resolved
    /// again after a scan. Throws as ``validateAlbums(in:watchedRoots:)``.
    public func hooksResolvingAlbums(in database: LibraryDatabase, watchedRoots: [String] = []) throws
        -> [HookDefinition]
    {
        var resolved = hooks
        for index in resolved.indices where !resolved[index].albums.isEmpty {
            var identifiers: [String] = []
            for entry in resolved[index].albums {
                let text: String
                switch try Self.resolveAlbum(entry, in: database, watchedRoots: watchedRoots) {
                case .success(.album(let identifier)): text = identifier
                case .success(.pendingDirectory(let path)): text = path
                case .failure(let notFound):
                    let key = "hooks[\(index)].albums"
                    throw ConfigError(
                        .unknownAlbum, path: source?.path ?? "config", line: line(of: key), key: key,
                        message: notFound.message)
                }
                if !identifiers.contains(text) { identifiers.append(text) }
            }
            resolved[index].albums = identifiers
        }
        return resolved
    }

    /// What one `albums` entry names: `.success` with the album, or `.failure` with why it names none
    /// (the message of a ``ConfigError``). Throws only the store's failures.
    public static func resolveAlbum(
        _ entry: String, in database: LibraryDatabase, watchedRoots: [String] = []
    ) throws -> Result<HookAlbumReference, AlbumNotFound> {
        guard entry.hasPrefix("/") else {
            if let smart = SmartAlbum.all.first(where: { $0.localIdentifier == entry }) {
                // Its members are a query, not rows a hook's changes can be matched with.
                return .failure(
                    AlbumNotFound(
                        "\(ConfigError.quote(entry)) is the smart album \(smart.title): a hook's albums are albums of the "
                            + "library or of directories (a hook's predicate chooses assets as a smart album does)"))
            }
            if try !database.collectionIDs(matching: CollectionQuery(scope: .localIdentifiers([entry], isList: false)))
                .isEmpty
            {
                return .success(.album(localIdentifier: entry))
            }
            if try !database.collectionIDs(matching: CollectionQuery(scope: .localIdentifiers([entry], isList: true)))
                .isEmpty
            {
                return .failure(
                    AlbumNotFound("\(ConfigError.quote(entry)) is a folder (a collection list), not an album"))
            }
            return .failure(
                AlbumNotFound(
                    "\(ConfigError.quote(entry)) is not the local identifier of an album in the library "
                        + "(give a directory as an absolute path)"))
        }
        // The scanner stores directories with symbolic links resolved; the file may name them either way.
        let given = normalize(entry, resolvingSymlinks: false)
        let candidates = Array(Set([given, normalize(entry, resolvingSymlinks: true)])).sorted()
        for path in candidates {
            if let identifier = try collection(at: path, isList: false, in: database) {
                return .success(.album(localIdentifier: identifier))
            }
        }
        for path in candidates where try collection(at: path, isList: true, in: database) != nil {
            return .failure(
                AlbumNotFound(
                    "\(ConfigError.quote(entry)) is a folder (a collection list), not an album: name its albums"))
        }
        var isDirectory: ObjCBool = false
        let roots = watchedRoots.flatMap {
            [normalize($0, resolvingSymlinks: false), normalize($0, resolvingSymlinks: true)]
        }
        let underRoot = candidates.contains { path in
            roots.contains { root in path == root || path.hasPrefix(root == "/" ? "/" : root + "/") }
        }
        if underRoot, FileManager.default.fileExists(atPath: given, isDirectory: &isDirectory), isDirectory.boolValue {
            return .success(.pendingDirectory(path: given))
        }
        return .failure(
            AlbumNotFound(
                "\(ConfigError.quote(entry)) is not the directory of an album in the library, "
                    + "nor a directory under a watched root"))
    }

    /// Why an `albums` entry names no album.
    public struct AlbumNotFound: Error, Sendable, Hashable {
        /// What is wrong with the entry.
        public var message: String

        init(_ message: String) {
            self.message = message
        }
    }

    private static func collection(at path: String, isList: Bool, in database: LibraryDatabase) throws -> String? {
        var query = CollectionQuery(
            scope: isList ? .collectionLists(type: nil, subtype: nil) : .assetCollections(type: nil, subtype: nil))
        query.filter = SQLFragment(sql: "collection.path = ?", arguments: [.text(path)])
        query.limit = 1
        guard let id = try database.collectionIDs(matching: query).first else { return nil }
        return try database.collections(ids: [id])[id]?.record.localIdentifier
    }

    /// An absolute path as the scanner stores directories: standardized, no trailing slash.
    private static func normalize(_ path: String, resolvingSymlinks: Bool) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        if resolvingSymlinks { url = url.resolvingSymlinksInPath() }
        var text = url.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
