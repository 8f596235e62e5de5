import Foundation
import Glibc
import Photos
import PhotosCore
import PhotosWire

/// What a person types for an asset or an album, read as git reads a short hash: the whole local
/// identifier, a unique prefix of one (case aside), or a path. One rule for every command that
/// names an object, through photosd or from the library file alike.
///
/// - An asset: its identifier or a prefix, or the path of one of its original files (absolute,
///   or relative to the working directory).
/// - An album: its identifier or a prefix, or the directory a directory-backed album mirrors.
///
/// An ambiguous prefix is an error that lists the candidates; an unknown one names what was looked for.
/// ```swift
/// let resolver = ObjectResolver(.library(library))
/// let identifier = try resolver.asset("01A2")   // "01A22069-6B3F-7034-…/L0/001"
/// let album = try resolver.album("Pictures/2024")
/// ```
struct ObjectResolver {
    /// Where the objects are looked up.
    enum Source {
        /// The library file, opened.
        case library(PHPhotoLibrary)
        /// photosd's API (its listing endpoints, with a predicate).
        case daemon(DaemonSource)
    }

    let source: Source

    init(_ source: Source) {
        self.source = source
    }

    /// The most candidates an ambiguity names.
    static let listedCandidates = 10

    // MARK: Assets

    /// The local identifier of the asset `text` names (hidden assets and burst members included).
    func asset(_ text: String) throws -> String {
        if let file = Self.existingPath(text, directory: false) {
            return try asset(atPath: file, given: text)
        }
        guard Self.couldBeIdentifier(text), !Self.looksLikePath(text) else {
            // A file another program moved or deleted still names the asset the library has there.
            if let owner = try? asset(atPath: Self.absolutePath(text), given: text) { return owner }
            throw CLIError("no asset \(Output.escaped(text)): no such file, and not an identifier")
        }
        if let exact = try assets(matching: "localIdentifier == \(PhotoKitPredicate.stringLiteral(text))", limit: 1)
            .first
        {
            return exact.localIdentifier
        }
        let candidates = try assets(
            matching: "localIdentifier BEGINSWITH[c] \(PhotoKitPredicate.stringLiteral(text))",
            limit: Self.listedCandidates + 1
        ).map(\.localIdentifier)
        return try Self.unique(candidates, text, kind: "asset")
    }

    /// The local identifiers of the assets `texts` name, in order, as ``asset(_:)`` reads each; the
    /// whole identifiers among them are looked up in one fetch (a deletion of thousands names them so).
    func assets(_ texts: [String]) throws -> [String] {
        var exact: Set<String> = []
        if case .library(let library) = source {
            let candidates = texts.filter {
                Self.couldBeIdentifier($0) && !Self.looksLikePath($0) && Self.existingPath($0, directory: false) == nil
            }
            if !candidates.isEmpty {
                let options = PHFetchOptions()
                options.photoLibrary = library
                options.includeHiddenAssets = true
                options.includeAllBurstAssets = true
                let result = PHAsset.fetchAssets(withLocalIdentifiers: candidates, options: options)
                try requireAvailable(library)
                result.enumerateObjects { asset, _, _ in exact.insert(asset.localIdentifier) }
            }
        }
        return try texts.map { exact.contains($0) ? $0 : try asset($0) }
    }

    /// The paths of the files of the asset `identifier` now, as the library lists them.
    func files(ofAsset identifier: String) throws -> [String] {
        try assets(matching: "localIdentifier == \(PhotoKitPredicate.stringLiteral(identifier))", limit: 1).first?
            .resources.map(\.path)
            ?? []
    }

    /// The asset one of whose original files is at `path` (resolved), found among the assets whose
    /// first file's name starts as this file's does (a Live Photo's movie is found by its still).
    private func asset(atPath path: String, given text: String) throws -> String {
        let paths = Self.spellings(of: path)
        if case .library(let library) = source {
            // The library file: the files' rows, by path, in one indexed look-up.
            let owners: [String: String]
            do {
                owners = try library.database.assetIdentifiers(ofFilesAt: paths.sorted())
            } catch {
                throw CLIError("cannot read the library at \(library.database.location): \(error)")
            }
            guard let owner = paths.sorted().lazy.compactMap({ owners[$0] }).first else {
                throw CLIError(
                    "no asset has the file \(Output.escaped(text)) (\(Output.escaped(path)) is not in the library)")
            }
            return owner
        }
        let name = (path as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        let candidates = try assets(
            matching: "filename BEGINSWITH \(PhotoKitPredicate.stringLiteral(stem.isEmpty ? name : stem))", limit: 0)
        let owners = candidates.filter { asset in asset.resources.contains { paths.contains($0.path) } }
        guard let owner = owners.first else {
            throw CLIError(
                "no asset has the file \(Output.escaped(text)) (\(Output.escaped(path)) is not in the library)")
        }
        return owner.localIdentifier
    }

    /// The assets a predicate matches, hidden ones and burst members included, by identifier.
    private func assets(matching predicate: String, limit: Int) throws -> [AssetDescription] {
        switch source {
        case .library(let library):
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            options.fetchLimit = limit
            options.predicate = NSPredicate(format: predicate)
            options.sortDescriptors = [NSSortDescriptor(key: "localIdentifier", ascending: true)]
            let result = PHAsset.fetchAssets(with: options)
            var found: [AssetDescription] = []
            result.enumerateObjects { asset, _, _ in
                found.append(AssetDescription(asset, timeZone: library.configuration.timeZone))
            }
            try requireAvailable(library)
            return found
        case .daemon(let daemon):
            var query = [
                ("predicate", predicate), ("includeHidden", "true"), ("includeAllBursts", "true"),
                ("sort", "localIdentifier"),
            ]
            if limit > 0 { query.append(("limit", "\(limit)")) }
            var found: [AssetDescription] = []
            let decoder = JSONDecoder()
            try daemon.eachLine("/v1/assets", query) { line in
                found.append(try decoder.decode(AssetDescription.self, from: Data(line.utf8)))
            }
            return found
        }
    }

    // MARK: Albums

    /// The local identifier of the album (or smart album) `text` names.
    func album(_ text: String) throws -> String {
        try collection(text, kind: "album", listing: albums(matching:))
    }

    /// The collection of a kind `text` names, among those `listing` gives for a predicate (nil: all):
    /// the one mirroring the directory `text` is, else the identifier or the unique prefix of one.
    private func collection(
        _ text: String, kind: String, listing: (String?) throws -> [CollectionDescription]
    ) throws -> String {
        if let directory = Self.existingPath(text, directory: true) {
            let paths = Self.spellings(of: directory)
            guard let found = try listing(nil).first(where: { $0.path.map(paths.contains) == true }) else {
                throw CLIError("no \(kind) mirrors the directory \(Output.escaped(text))")
            }
            return found.localIdentifier
        }
        guard Self.couldBeIdentifier(text), !Self.looksLikePath(text) else {
            // A directory moved away still names the album the library keeps for it until a scan.
            let path = Self.absolutePath(text)
            if let found = try listing(nil).first(where: { $0.path == path }) { return found.localIdentifier }
            throw CLIError("no \(kind) \(Output.escaped(text)): no such directory, and not an identifier")
        }
        if let exact = try listing("localIdentifier == \(PhotoKitPredicate.stringLiteral(text))").first {
            return exact.localIdentifier
        }
        let candidates = try listing("localIdentifier BEGINSWITH[c] \(PhotoKitPredicate.stringLiteral(text))").map(
            \.localIdentifier)
        return try Self.unique(candidates, text, kind: kind)
    }

    /// The albums and smart albums a predicate matches (nil: all of them).
    private func albums(matching predicate: String?) throws -> [CollectionDescription] {
        switch source {
        case .library(let library):
            let options = PHFetchOptions()
            options.photoLibrary = library
            if let predicate { options.predicate = NSPredicate(format: predicate) }
            var found: [CollectionDescription] = []
            for type in [PHAssetCollectionType.album, .smartAlbum] {
                let result = PHAssetCollection.fetchAssetCollections(with: type, subtype: .any, options: options)
                try requireAvailable(library)
                result.enumerateObjects { album, _, _ in
                    found.append(CollectionDescription(album, timeZone: library.configuration.timeZone))
                }
            }
            return found
        case .daemon(let daemon):
            return try Self.collections(from: daemon, "/v1/albums", matching: predicate)
        }
    }

    // MARK: Folders

    /// The local identifier of the folder `text` names: a directory a directory-backed folder
    /// mirrors, or an identifier or a unique prefix of one.
    func folder(_ text: String) throws -> String {
        try collection(text, kind: "folder", listing: folders(matching:))
    }

    /// The album or folder `text` names, as ``Collection``: a directory names its folder when it
    /// mirrors one (a directory of directories), else its album.
    func collection(_ text: String) throws -> Collection {
        if let directory = Self.existingPath(text, directory: true) {
            let paths = Self.spellings(of: directory)
            if let folder = try folders(matching: nil).first(where: { $0.path.map(paths.contains) == true }) {
                return Collection(description: folder, isFolder: true)
            }
            guard let album = try albums(matching: nil).first(where: { $0.path.map(paths.contains) == true }) else {
                throw CLIError("no album or folder mirrors the directory \(Output.escaped(text))")
            }
            return Collection(description: album, isFolder: false)
        }
        guard Self.couldBeIdentifier(text), !Self.looksLikePath(text) else {
            throw CLIError("no album or folder \(Output.escaped(text)): no such directory, and not an identifier")
        }
        let folders = try folders(matching: "localIdentifier BEGINSWITH[c] \(PhotoKitPredicate.stringLiteral(text))")
        let albums = try albums(matching: "localIdentifier BEGINSWITH[c] \(PhotoKitPredicate.stringLiteral(text))")
        let exact = (folders + albums).filter { $0.localIdentifier == text }
        let found = exact.isEmpty ? folders + albums : exact
        let identifier = try Self.unique(found.map(\.localIdentifier), text, kind: "album or folder")
        let description = found.first { $0.localIdentifier == identifier }!
        return Collection(description: description, isFolder: folders.contains { $0.localIdentifier == identifier })
    }

    /// An album or a folder, as a listing describes it.
    struct Collection {
        var description: CollectionDescription
        var isFolder: Bool
        var localIdentifier: String { description.localIdentifier }
    }

    /// The folders a predicate matches (nil: all of them).
    private func folders(matching predicate: String?) throws -> [CollectionDescription] {
        switch source {
        case .library(let library):
            let options = PHFetchOptions()
            options.photoLibrary = library
            if let predicate { options.predicate = NSPredicate(format: predicate) }
            var found: [CollectionDescription] = []
            let result = PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
            try requireAvailable(library)
            result.enumerateObjects { folder, _, _ in
                found.append(CollectionDescription(folder, timeZone: library.configuration.timeZone))
            }
            return found
        case .daemon(let daemon):
            return try Self.collections(from: daemon, "/v1/folders", matching: predicate)
        }
    }

    /// The albums or folders photosd lists at `path` (`/v1/albums`, `/v1/folders`) for a predicate.
    private static func collections(from daemon: DaemonSource, _ path: String, matching predicate: String?) throws
        -> [CollectionDescription]
    {
        var found: [CollectionDescription] = []
        let decoder = JSONDecoder()
        try daemon.eachLine(path, predicate.map { [("predicate", $0)] } ?? []) { line in
            found.append(try decoder.decode(CollectionDescription.self, from: Data(line.utf8)))
        }
        return found
    }

    // MARK: Rules

    /// The one identifier of `candidates`, or the error git gives: none, or several (listed).
    static func unique(_ candidates: [String], _ text: String, kind: String) throws -> String {
        switch candidates.count {
        case 1: return candidates[0]
        case 0: throw CLIError("no \(kind) \(Output.escaped(text)) (no \(kind) identifier starts so)")
        default:
            let listed = candidates.prefix(listedCandidates).joined(separator: ", ")
            let more = candidates.count > listedCandidates ? ", and more" : ""
            throw CLIError("short identifier \(Output.escaped(text)) is ambiguous: \(kind)s \(listed)\(more)")
        }
    }

    /// `text` as an absolute path, when a file (or a directory, for `directory`) is there; nil when
    /// nothing is, so the text is read as an identifier.
    static func existingPath(_ text: String, directory: Bool) -> String? {
        guard !text.isEmpty else { return nil }
        let absolute = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        var status = stat()
        guard PathBytes.withCString(absolute, { stat($0, &status) }) == 0 else { return nil }
        let isDirectory = (status.st_mode & 0o170000) == 0o040000  // S_IFMT, S_IFDIR
        guard isDirectory == directory else { return nil }
        return (absolute as NSString).standardizingPath
    }

    /// `text` as an absolute, tidy path, whether or not anything is there.
    static func absolutePath(_ text: String) -> String {
        let absolute = text.hasPrefix("/") ? text : FileManager.default.currentDirectoryPath + "/" + text
        return (absolute as NSString).standardizingPath
    }

    /// The spellings the library may hold for a path: as given (made absolute and tidy) and with
    /// symbolic links resolved (the scanner stores resolved directories).
    static func spellings(of path: String) -> Set<String> {
        var spellings: Set<String> = [path]
        if let resolved = PathBytes.withCString(path, { realpath($0, nil) }) {
            spellings.insert(String(cString: resolved))
            free(resolved)
        }
        return spellings
    }

    /// Whether `text` may be (the start of) a local identifier: letters, digits, `-` and `/`.
    static func couldBeIdentifier(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }

    /// Whether `text` can only be a path: absolute, or starting with `./` or `../`.
    static func looksLikePath(_ text: String) -> Bool {
        text.hasPrefix("/") || text.hasPrefix("./") || text.hasPrefix("../")
    }

    private func requireAvailable(_ library: PHPhotoLibrary) throws {
        guard let reason = library.unavailabilityReason else { return }
        if let error = reason as? PHPhotosError, error.code == .libraryVolumeOffline { return }
        throw CLIError("cannot read the library at \(library.database.location): \(reason)")
    }
}

extension LibraryOptions {
    /// The resolver for this command: through photosd when `daemon` names one, else the library file.
    func resolver(_ daemon: DaemonSource?) throws -> ObjectResolver {
        if let daemon { return ObjectResolver(.daemon(daemon)) }
        return ObjectResolver(.library(try open()))
    }
}
