import Foundation
import PhotosCore

/// The stable JSON shape of an asset (DESIGN: "Asset JSON"), as `photos assets --json` prints it.
public struct AssetDescription: Codable, Sendable, Hashable {
    /// One file behind the asset.
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
    }

    /// Where the asset was taken.
    public struct Location: Codable, Sendable, Hashable {
        /// Degrees, north positive.
        public var latitude: Double
        /// Degrees, east positive.
        public var longitude: Double
        /// Meters above sea level, when known.
        public var altitude: Double?
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
    /// False while the asset's root is offline (its files cannot be read; the asset is kept).
    public var isAvailable: Bool
    /// The files behind the asset, photo or video first.
    public var resources: [Resource]

    enum CodingKeys: String, CodingKey {
        case localIdentifier, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate, creationDateHasOffset,
            modificationDate,
            duration, location, isFavorite, isHidden, burstIdentifier, representsBurst, isAvailable, resources
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
        try container.encode(modificationDate, forKey: .modificationDate)
        try container.encode(duration, forKey: .duration)
        try container.encode(location, forKey: .location)
        try container.encode(isFavorite, forKey: .isFavorite)
        try container.encode(isHidden, forKey: .isHidden)
        try container.encode(burstIdentifier, forKey: .burstIdentifier)
        try container.encode(representsBurst, forKey: .representsBurst)
        try container.encode(isAvailable, forKey: .isAvailable)
        try container.encode(resources, forKey: .resources)
    }

    /// Describes an asset; dates without a recorded offset are written in `timeZone`.
    public init(_ asset: PHAsset, timeZone: TimeZone = .current) {
        localIdentifier = asset.localIdentifier
        mediaType = asset.mediaType.name
        mediaSubtypes = asset.mediaSubtypes.names
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        creationDate = asset.creationDate.map {
            ISO8601.string($0, offset: asset.recordedOffset ?? timeZone.secondsFromGMT(for: $0))
        }
        creationDateHasOffset = !asset.creationDateIsFloating
        modificationDate = asset.modificationDate.map { ISO8601.string($0, offset: timeZone.secondsFromGMT(for: $0)) }
        duration = asset.duration
        location = asset.location.map {
            Location(
                latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                altitude: $0.verticalAccuracy < 0 ? nil : $0.altitude)
        }
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        burstIdentifier = asset.burstIdentifier
        representsBurst = asset.representsBurst
        isAvailable = asset.isAvailable
        resources = PHAssetResource.assetResources(for: asset).map {
            Resource(
                type: $0.type.name, path: $0.fileURL.path, uniformTypeIdentifier: $0.uniformTypeIdentifier,
                mimeType: $0.mimeType, fileSize: $0.fileSize)
        }
    }
}

/// The stable JSON shape of an album or folder (DESIGN: "Collection JSON").
public struct CollectionDescription: Codable, Sendable, Hashable {
    /// The object's local identifier.
    public var localIdentifier: String
    /// The collection's title.
    public var localizedTitle: String?
    /// `album`, `smartAlbum` or `folder`.
    public var type: String
    /// `albumRegular`, `smartAlbumFavorites`, `regularFolder`...
    public var subtype: String
    /// For albums: the number of assets (for smart albums, counted now).
    public var estimatedAssetCount: Int?
    /// For directory-backed albums and folders: the directory.
    public var path: String?
    /// The folder holding this collection, if any.
    public var parentLocalIdentifier: String?
    /// The earliest creation date of its assets, ISO 8601.
    public var startDate: String?
    /// The latest creation date of its assets, ISO 8601.
    public var endDate: String?

    /// Describes a collection.
    public init(_ collection: PHCollection, timeZone: TimeZone = .current) {
        localIdentifier = collection.localIdentifier
        localizedTitle = collection.localizedTitle
        path = collection.directoryPath
        parentLocalIdentifier = nil
        let format = { (date: Date?) in date.map { ISO8601.string($0, offset: timeZone.secondsFromGMT(for: $0)) } }
        if let album = collection as? PHAssetCollection {
            type = album.assetCollectionType.name
            subtype = album.assetCollectionSubtype.name
            if album.estimatedAssetCount == NSNotFound {
                let options = PHFetchOptions()
                options.photoLibrary = collection.library
                estimatedAssetCount = PHAsset.fetchAssets(in: album, options: options).count
            } else {
                estimatedAssetCount = album.estimatedAssetCount
            }
            startDate = format(album.startDate)
            endDate = format(album.endDate)
        } else if let list = collection as? PHCollectionList {
            type = list.collectionListType.name
            subtype = list.collectionListSubtype.name
            startDate = format(list.startDate)
            endDate = format(list.endDate)
        } else {
            type = "unknown"
            subtype = "unknown"
        }
        if let parent = PHCollectionList.fetchCollectionListsContaining(collection, options: nil).firstObject {
            parentLocalIdentifier = parent.localIdentifier
        }
    }
}

/// ISO 8601 dates with an explicit UTC offset.
public enum ISO8601 {
    /// Formats `date` as seen at `offset` seconds east of UTC, with milliseconds when not whole.
    public static func string(_ date: Date, offset: Int) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: offset) ?? .gmt
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        var text = formatter.string(from: date)
        if offset == 0, text.hasSuffix("Z") { text = String(text.dropLast()) + "+00:00" }
        return text
    }
}
