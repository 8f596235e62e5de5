import Foundation
import PhotosCore

/// The stable JSON shape of an asset (docs/architecture.md, "JSON shapes"), as `photos assets --json` prints it
/// and exec hooks receive it.
///
/// Every key is always written, absent values as `null`, so the shape never changes. Build many at
/// once from the store with `DescriptionReader` (PhotosStore):
/// ```swift
/// let reader = DescriptionReader(database: database, timeZone: timeZone)
/// for asset in try reader.assets(.localIdentifiers(identifiers)) { try JSONLines.write(asset, to: &output) }
/// ```
public struct AssetDescription: Codable, Sendable, Hashable {
    /// One file behind the asset. An unknown MIME type leaves its key out (the shape as first
    /// published; the synthesized encoding).
    public struct Resource: Codable, Sendable, Hashable {
        /// The PhotoKit resource type name (`photo`, `video`, `pairedVideo`, `alternatePhoto`, ...).
        public var type: String
        /// The absolute path of the file.
        public var path: String
        /// The file's uniform type identifier.
        public var uniformTypeIdentifier: String
        /// The file's MIME type.
        public var mimeType: String?
        /// The file's size in bytes.
        public var fileSize: Int64

        /// A resource with every value given.
        public init(type: String, path: String, uniformTypeIdentifier: String, mimeType: String?, fileSize: Int64) {
            self.type = type
            self.path = path
            self.uniformTypeIdentifier = uniformTypeIdentifier
            self.mimeType = mimeType
            self.fileSize = fileSize
        }

        enum CodingKeys: String, CodingKey {
            case type, path, uniformTypeIdentifier, mimeType, fileSize
        }
    }

    /// Where the asset was taken. An unknown altitude leaves its key out (the shape as first
    /// published; the synthesized encoding).
    public struct Location: Codable, Sendable, Hashable {
        /// Degrees, north positive.
        public var latitude: Double
        /// Degrees, east positive.
        public var longitude: Double
        /// Meters above sea level, when known.
        public var altitude: Double?

        /// A location with every value given.
        public init(latitude: Double, longitude: Double, altitude: Double?) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        enum CodingKeys: String, CodingKey {
            case latitude, longitude, altitude
        }
    }

    /// An album (a user album or one that mirrors a directory; never a smart album) that holds the asset.
    public struct Album: Codable, Sendable, Hashable {
        /// The album's local identifier.
        public var localIdentifier: String
        /// The album's title.
        public var localizedTitle: String?
        /// The directory a directory-backed album mirrors; null for a user album.
        public var path: String?

        /// An album reference with every value given.
        public init(localIdentifier: String, localizedTitle: String?, path: String?) {
            self.localIdentifier = localIdentifier
            self.localizedTitle = localizedTitle
            self.path = path
        }

        enum CodingKeys: String, CodingKey {
            case localIdentifier, localizedTitle, path
        }

        /// Writes every key, absent values as `null`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(localIdentifier, forKey: .localIdentifier)
            try container.encode(localizedTitle, forKey: .localizedTitle)
            try container.encode(path, forKey: .path)
        }
    }

    /// The object's local identifier.
    public var localIdentifier: String
    /// `image`, `video`, `audio` or `unknown`.
    public var mediaType: String
    /// PhotoKit subtype names (`photoLive`, `photoScreenshot`, ...).
    public var mediaSubtypes: [String]
    /// Width as displayed (orientation applied).
    public var pixelWidth: Int
    /// Height as displayed (orientation applied).
    public var pixelHeight: Int
    /// When the photo or video was taken, ISO 8601 with its UTC offset.
    public var creationDate: String?
    /// False when the file gave a local time with no UTC offset, read in the library's time zone.
    public var creationDateHasOffset: Bool
    /// True when the file states no date: `creationDate` is then the file's modification time.
    public var creationDateIsFileTime: Bool
    /// When the asset last changed, ISO 8601 with the UTC offset.
    public var modificationDate: String?
    /// Length in seconds; 0 for stills.
    public var duration: Double
    /// Where it was taken, or null.
    public var location: Location?
    /// Whether the user marked it a favorite.
    public var isFavorite: Bool
    /// Whether the user hid it.
    public var isHidden: Bool
    /// The burst it belongs to, or null.
    public var burstIdentifier: String?
    /// Whether it stands for its burst.
    public var representsBurst: Bool
    /// Stars, 0 (none) to 5: the user's, or the file's `xmp:Rating`.
    public var rating: Int
    /// False while the asset's root is offline (its files cannot be read; the asset is kept).
    public var isAvailable: Bool
    /// True when the library placed every file of the asset in its import folder (an upload, an
    /// import into the library, a creation request): deleting the asset erases them at once, and it
    /// is not kept in Recently Deleted. False for the files of watched folders, which are the user's
    /// and go to the Trash.
    public var isLibraryOwned: Bool
    /// The files behind the asset, photo or video first.
    public var resources: [Resource]
    /// The albums that hold the asset (user and directory albums, not smart albums), in PhotoKit's
    /// order of `fetchAssetCollectionsContaining(_:with: .album, options: nil)`.
    public var albums: [Album]

    /// An asset description with every value given.
    public init(
        localIdentifier: String, mediaType: String, mediaSubtypes: [String], pixelWidth: Int, pixelHeight: Int,
        creationDate: String?, creationDateHasOffset: Bool, modificationDate: String?, duration: Double,
        location: Location?, isFavorite: Bool, isHidden: Bool, burstIdentifier: String?, representsBurst: Bool,
        isAvailable: Bool, isLibraryOwned: Bool = false, resources: [Resource], albums: [Album], rating: Int = 0,
        creationDateIsFileTime: Bool = false
    ) {
        self.localIdentifier = localIdentifier
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.creationDate = creationDate
        self.creationDateHasOffset = creationDateHasOffset
        self.creationDateIsFileTime = creationDateIsFileTime
        self.modificationDate = modificationDate
        self.duration = duration
        self.location = location
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.burstIdentifier = burstIdentifier
        self.representsBurst = representsBurst
        self.isAvailable = isAvailable
        self.isLibraryOwned = isLibraryOwned
        self.resources = resources
        self.albums = albums
        self.rating = rating
    }

    enum CodingKeys: String, CodingKey {
        case localIdentifier, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate, creationDateHasOffset,
            creationDateIsFileTime, modificationDate, duration, location, isFavorite, isHidden, burstIdentifier,
            representsBurst,
            isAvailable, isLibraryOwned, resources, albums, rating
    }

    /// The description naming only `albums` of the albums that hold the asset (nil: all of them): a
    /// limited client learns nothing of the albums it was not given, not even their titles or
    /// identifiers (the store's writer leaves the same ones out of the bytes it writes).
    public func keepingAlbums(_ albums: Set<String>?) -> AssetDescription {
        guard let albums else { return self }
        var kept = self
        kept.albums = self.albums.filter { albums.contains($0.localIdentifier) }
        return kept
    }

    /// Reads an asset description; `albums`, `rating`, `creationDateIsFileTime` and `isLibraryOwned`
    /// may be absent (JSON written before they were added).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        localIdentifier = try container.decode(String.self, forKey: .localIdentifier)
        mediaType = try container.decode(String.self, forKey: .mediaType)
        mediaSubtypes = try container.decode([String].self, forKey: .mediaSubtypes)
        pixelWidth = try container.decode(Int.self, forKey: .pixelWidth)
        pixelHeight = try container.decode(Int.self, forKey: .pixelHeight)
        creationDate = try container.decodeIfPresent(String.self, forKey: .creationDate)
        creationDateHasOffset = try container.decode(Bool.self, forKey: .creationDateHasOffset)
        creationDateIsFileTime =
            try container.decodeIfPresent(Bool.self, forKey: .creationDateIsFileTime) ?? false
        modificationDate = try container.decodeIfPresent(String.self, forKey: .modificationDate)
        duration = try container.decode(Double.self, forKey: .duration)
        location = try container.decodeIfPresent(Location.self, forKey: .location)
        isFavorite = try container.decode(Bool.self, forKey: .isFavorite)
        isHidden = try container.decode(Bool.self, forKey: .isHidden)
        burstIdentifier = try container.decodeIfPresent(String.self, forKey: .burstIdentifier)
        representsBurst = try container.decode(Bool.self, forKey: .representsBurst)
        isAvailable = try container.decode(Bool.self, forKey: .isAvailable)
        isLibraryOwned = try container.decodeIfPresent(Bool.self, forKey: .isLibraryOwned) ?? false
        resources = try container.decode([Resource].self, forKey: .resources)
        albums = try container.decodeIfPresent([Album].self, forKey: .albums) ?? []
        rating = try container.decodeIfPresent(Int.self, forKey: .rating) ?? 0
    }

    /// Writes every key, absent values as `null`, so the shape never changes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(localIdentifier, forKey: .localIdentifier)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(mediaSubtypes, forKey: .mediaSubtypes)
        try container.encode(pixelWidth, forKey: .pixelWidth)
        try container.encode(pixelHeight, forKey: .pixelHeight)
        try container.encode(creationDate, forKey: .creationDate)
        try container.encode(creationDateHasOffset, forKey: .creationDateHasOffset)
        try container.encode(creationDateIsFileTime, forKey: .creationDateIsFileTime)
        try container.encode(modificationDate, forKey: .modificationDate)
        try container.encode(duration, forKey: .duration)
        try container.encode(location, forKey: .location)
        try container.encode(isFavorite, forKey: .isFavorite)
        try container.encode(isHidden, forKey: .isHidden)
        try container.encode(burstIdentifier, forKey: .burstIdentifier)
        try container.encode(representsBurst, forKey: .representsBurst)
        try container.encode(isAvailable, forKey: .isAvailable)
        try container.encode(isLibraryOwned, forKey: .isLibraryOwned)
        try container.encode(resources, forKey: .resources)
        try container.encode(albums, forKey: .albums)
        try container.encode(rating, forKey: .rating)
    }
}
