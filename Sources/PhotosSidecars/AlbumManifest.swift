import Foundation
import PhotosLinux

/// The user albums and user folders of a library, written at the top of each root that may hold
/// user state (`write = "sidecars"` or `"files"`) as `.photosd-albums.json`: what no photo's
/// sidecar can hold (titles, nesting, order, the order of an album's photos), so that a library
/// rebuilt from the disk alone has them back with their identifiers.
///
/// The file is JSON, written whole and atomically (a temporary file, `fsync`, `rename`):
///
/// ```json
/// {
///   "format": "photosd-albums",
///   "version": 1,
///   "folders": [{"localIdentifier": "…/L0/010", "title": "Trips", "position": 0, "createdDate": 1717000000}],
///   "albums": [{"localIdentifier": "…/L0/020", "title": "Best", "parent": "…/L0/010", "position": 0,
///               "createdDate": 1717000000,
///               "assets": [{"localIdentifier": "…/L0/001", "file": "/photos/2024/IMG_1.JPG"}]}]
/// }
/// ```
///
/// Folders are listed parents first; `parent` is absent at the top level. `assets` holds the
/// album's photos in its order: the local identifier (which their sidecars keep too) and the path
/// of the photo, by which a rebuild finds one that has no sidecar.
public struct AlbumManifest: Codable, Hashable, Sendable {
    /// The file's name at the top of a root.
    public static let fileName = ".photosd-albums.json"
    /// What ``format`` says in every manifest: a file of that name that says otherwise is not ours.
    public static let formatName = "photosd-albums"
    /// The version this build writes and reads.
    public static let currentVersion = 1

    /// A user album or folder.
    public struct Collection: Codable, Hashable, Sendable {
        /// Its local identifier.
        public var localIdentifier: String
        /// Its title.
        public var title: String?
        /// The folder holding it (nil: the top level).
        public var parent: String?
        /// Its place among its folder's children.
        public var position: Int
        /// When it was made (seconds since 1970).
        public var createdDate: Double
        /// An album's assets, in its order (nil for a folder).
        public var assets: [Member]?

        public init(
            localIdentifier: String, title: String?, parent: String?, position: Int, createdDate: Double,
            assets: [Member]? = nil
        ) {
            self.localIdentifier = localIdentifier
            self.title = title
            self.parent = parent
            self.position = position
            self.createdDate = createdDate
            self.assets = assets
        }
    }

    /// An album's asset.
    public struct Member: Codable, Hashable, Sendable {
        /// Its local identifier.
        public var localIdentifier: String
        /// The path of its photo (its first original), when it has one on disk.
        public var file: String?

        public init(localIdentifier: String, file: String?) {
            self.localIdentifier = localIdentifier
            self.file = file
        }
    }

    /// Always ``formatName``.
    public var format: String
    /// The format's version.
    public var version: Int
    /// User folders, parents before their children.
    public var folders: [Collection]
    /// User albums.
    public var albums: [Collection]

    public init(folders: [Collection], albums: [Collection]) {
        format = Self.formatName
        version = Self.currentVersion
        self.folders = folders
        self.albums = albums
    }

    /// Whether it holds nothing.
    public var isEmpty: Bool { folders.isEmpty && albums.isEmpty }

    /// The manifest's path in `root`.
    public static func path(inRoot root: String) -> String {
        (root.hasSuffix("/") ? root : root + "/") + fileName
    }

    /// The manifest at `path`; nil when there is none. A file there that is not a manifest of a
    /// version this build reads is an error naming it (it is never written over).
    public static func read(_ path: String) throws -> AlbumManifest? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if (try? FileOperations.identity(path)) ?? nil != nil {
                throw ManifestError(path: path, reason: "it cannot be read")
            }
            return nil
        }
        let manifest: AlbumManifest
        do {
            manifest = try JSONDecoder().decode(AlbumManifest.self, from: data)
        } catch {
            throw ManifestError(path: path, reason: "it is not a photosd album manifest (\(error))")
        }
        guard manifest.format == formatName else {
            throw ManifestError(path: path, reason: "its format is \"\(manifest.format)\", not \"\(formatName)\"")
        }
        guard manifest.version <= currentVersion else {
            throw ManifestError(
                path: path, reason: "it is version \(manifest.version); this build reads up to \(currentVersion)")
        }
        return manifest
    }

    /// Writes the manifest to `path` atomically. A file there that is not a manifest is left as it
    /// is and the write fails naming it: the library replaces only what it wrote.
    public func write(to path: String) throws {
        _ = try Self.read(path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        if FileManager.default.contents(atPath: path) == data { return }
        try FileOperations.replace(path, with: data)
    }
}

/// A file the library keeps at the top of a root (an album manifest, an ``IdentifierLog``) that cannot
/// be read or written, or that is another program's.
public struct ManifestError: Error, CustomStringConvertible, Sendable {
    /// The manifest's path.
    public var path: String
    /// Why.
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}
