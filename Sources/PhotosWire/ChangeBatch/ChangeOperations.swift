import Foundation

extension API.ChangeOperation {
    /// `createAsset`: a new asset from a file: the caller's file at `path` on the daemon's machine,
    /// or the bytes it sent to `POST /v1/uploads` (`upload`), exactly one of the two. A file at
    /// `path` is copied into the library's import folder; with `move`, it is removed from `path`
    /// once the commit that records the asset has landed (left as it was if the batch fails). Who
    /// may name a `path` the daemon decides (the access table in docs/api.md).
    public struct CreateAsset: Sendable, Hashable, Codable {
        /// An absolute path to a photo, video or audio file of the caller's.
        public var path: String?
        /// The identifier `POST /v1/uploads` answered.
        public var upload: String?
        /// The resource type: `photo`, `video` or `audio`; by default what the file's content is.
        public var type: String?
        /// Take the file instead of copying it (default false); only with `path`.
        public var move: Bool?
        /// The placeholder's name: later operations name the new asset `$ref`.
        public var ref: String?

        /// A `createAsset` operation.
        public init(
            path: String? = nil, upload: String? = nil, type: String? = nil, move: Bool? = nil, ref: String? = nil
        ) {
            self.path = path
            self.upload = upload
            self.type = type
            self.move = move
            self.ref = ref
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case path, upload, type, move, ref
        }

        /// The resource types a file can be added as.
        public static let types = ["photo", "video", "audio"]
    }

    /// `editAsset`: an asset's properties (`PHAssetChangeRequest`). At least one is given;
    /// `creationDate` and `location` may be null to clear them.
    public struct EditAsset: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var asset: String
        /// The new favorite flag, if it changes.
        public var isFavorite: Bool?
        /// The new hidden flag, if it changes.
        public var isHidden: Bool?
        /// The new stars, 0 to 5, if they change.
        public var rating: Int?
        /// nil: unchanged; `.some(nil)`: cleared. ISO 8601 with an offset on the wire.
        public var creationDate: Date??
        /// The UTC offset `creationDate` was written with, in seconds east: the local time the photo
        /// was taken at, which decides its day. nil with no date, or for UTC.
        public var creationDateOffset: Int?
        /// nil: unchanged; `.some(nil)`: cleared.
        public var location: Location??

        /// An `editAsset` operation; give at least one property.
        public init(
            asset: String, isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: Date?? = nil,
            creationDateOffset: Int? = nil, location: Location?? = nil, rating: Int? = nil
        ) {
            self.asset = asset
            self.rating = rating
            self.isFavorite = isFavorite
            self.isHidden = isHidden
            self.creationDate = creationDate
            self.creationDateOffset = creationDateOffset
            self.location = location
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case asset, isFavorite, isHidden, rating, creationDate, location
        }
    }

    /// A place: degrees, and metres above sea level when known.
    public struct Location: Sendable, Hashable, Codable {
        /// Degrees north, -90 to 90.
        public var latitude: Double
        /// Degrees east, -180 to 180.
        public var longitude: Double
        /// Metres above sea level, if known.
        public var altitude: Double?

        /// A place.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case latitude, longitude, altitude
        }
    }

    /// `deleteAssets`: assets leave the library. Files the library imported go with them; files in
    /// watched folders go to the Trash under a root with `write = "files"` (the asset waits in Recently
    /// Deleted), and elsewhere the batch is refused (`accessRestricted`).
    public struct DeleteAssets: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var assets: [String]
        /// A `deleteAssets` operation.
        public init(assets: [String]) { self.assets = assets }
        enum CodingKeys: String, CodingKey, CaseIterable { case assets }
    }

    /// `createAlbum` and `createFolder`: a user album or folder with a title, at the top level or in
    /// `folder`.
    public struct CreateCollection: Sendable, Hashable, Codable {
        /// The title (titles may repeat).
        public var title: String
        /// The placeholder's name: later operations name the new collection `$ref`.
        public var ref: String?
        /// The folder to put it in (a local identifier or `$ref`); the top level by default.
        public var folder: String?

        /// A `createAlbum` or `createFolder` operation.
        public init(title: String, ref: String? = nil, folder: String? = nil) {
            self.title = title
            self.ref = ref
            self.folder = folder
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case title, ref, folder }
    }

    /// `renameAlbum`.
    public struct RenameAlbum: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// The new title.
        public var title: String
        /// A `renameAlbum` operation.
        public init(album: String, title: String) {
            self.album = album
            self.title = title
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, title }
    }

    /// `deleteAlbums`: the albums go; their assets stay in the library.
    public struct DeleteAlbums: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var albums: [String]
        /// A `deleteAlbums` operation.
        public init(albums: [String]) { self.albums = albums }
        enum CodingKeys: String, CodingKey, CaseIterable { case albums }
    }

    /// `addToAlbum` (appends those not already in it) and `removeFromAlbum` (they stay in the library).
    public struct AlbumMembers: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// Local identifiers or `$ref`s.
        public var assets: [String]
        /// An `addToAlbum` or `removeFromAlbum` operation.
        public init(album: String, assets: [String]) {
            self.album = album
            self.assets = assets
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, assets }
    }

    /// `moveInAlbum`: the assets at positions `from` move to `to` of the album as it is once they are
    /// taken out (`PHAssetCollectionChangeRequest.moveAssets(at:to:)`).
    public struct MoveInAlbum: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// Positions in the album as it is before the move.
        public var from: [Int]
        /// The position in the album once the moved assets are taken out.
        public var to: Int
        /// A `moveInAlbum` operation.
        public init(album: String, from: [Int], to: Int) {
            self.album = album
            self.from = from
            self.to = to
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, from, to }
    }

    /// `renameFolder`.
    public struct RenameFolder: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var folder: String
        /// The new title.
        public var title: String
        /// A `renameFolder` operation.
        public init(folder: String, title: String) {
            self.folder = folder
            self.title = title
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case folder, title }
    }

    /// `deleteFolders`: the folders go with everything in them (albums and folders, not assets).
    public struct DeleteFolders: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var folders: [String]
        /// A `deleteFolders` operation.
        public init(folders: [String]) { self.folders = folders }
        enum CodingKeys: String, CodingKey, CaseIterable { case folders }
    }

    /// `addToFolder` (albums and folders move into it from wherever they were) and
    /// `removeFromFolder` (they move to the top level).
    public struct FolderChildren: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var folder: String
        /// Albums and folders: local identifiers or `$ref`s.
        public var collections: [String]
        /// An `addToFolder` or `removeFromFolder` operation.
        public init(folder: String, collections: [String]) {
            self.folder = folder
            self.collections = collections
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case folder, collections }
    }
}
