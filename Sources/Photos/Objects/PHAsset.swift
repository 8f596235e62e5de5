import Foundation
import PhotosCore
import PhotosStore

/// A photo, video or Live Photo in the library: its metadata, not its pixels.
///
/// Fetch assets with the class methods, e.g. the 50 newest images:
/// ```swift
/// let options = PHFetchOptions()
/// options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
/// options.fetchLimit = 50
/// let result = PHAsset.fetchAssets(with: .image, options: options)
/// ```
public final class PHAsset: PHObject, @unchecked Sendable {  // Immutable after init: `let`s of Sendable types.
    /// How an asset should be played back.
    public enum PlaybackStyle: Int, Sendable, Hashable {
        case unsupported = 0
        case image = 1
        case imageAnimated = 2
        case livePhoto = 3
        case video = 4
        case videoLooping = 5
    }

    /// Image, video or audio.
    public let mediaType: PHAssetMediaType
    /// Panorama, screenshot, Live Photo, slow motion...
    public let mediaSubtypes: PHAssetMediaSubtype
    /// Where the asset comes from: always the user's library here.
    public let sourceType: PHAssetSourceType
    /// Width in pixels as displayed (orientation applied).
    public let pixelWidth: Int
    /// Height in pixels as displayed (orientation applied).
    public let pixelHeight: Int
    /// When the photo or video was taken.
    public let creationDate: Date?
    /// When the asset last changed.
    public let modificationDate: Date?
    /// Where the photo or video was taken.
    public let location: CLLocation?
    /// Length in seconds; 0 for stills.
    public let duration: TimeInterval
    /// Whether the user marked the asset as a favorite.
    public let isFavorite: Bool
    /// Whether the user hid the asset; hidden assets are left out of fetches unless asked for.
    public let isHidden: Bool
    /// The burst this photo belongs to, if any.
    public let burstIdentifier: String?
    /// How this burst member was picked.
    public let burstSelectionTypes: PHAssetBurstSelectionType
    /// Whether this asset stands for its burst.
    public let representsBurst: Bool
    /// The identifier of the format of the asset's edits, if edited.
    public let adjustmentFormatIdentifier: String?
    /// Its stars: the user's, or those the file states (`xmp:Rating`, or EXIF's Rating tag).
    public let rating: PHAssetRating
    /// Which original of a RAW+JPEG asset its pictures and edits start from (SDK 27): `.raw` only
    /// when chosen for such a pair, else `.compressed`.
    public let originalResourceChoice: OriginalResourceChoice
    /// Always false: there is no iCloud sync to fail.
    public let isSyncFailureHidden = false
    /// When the asset was added to the library (not in PhotoKit's public API).
    public let addedDate: Date
    /// The UTC offset, in seconds, the creation date was recorded with; nil when the file gave a
    /// local time with no offset (then `creationDate` was read in the library's time zone).
    public let creationDateUTCOffset: Int?
    /// True when the file gave its date as a local time with no UTC offset (not in PhotoKit's API).
    public let creationDateIsFloating: Bool
    /// True when the file states no date, so ``creationDate`` is the file's modification time (not
    /// in PhotoKit's API): a scan's last resort, and an import's too, which files such a photo by it.
    public let creationDateIsFileTime: Bool
    /// The offset to show the creation date in: the file's, or that of the zone a floating date was read in.
    let recordedOffset: Int?

    init(record: AssetRecord, library: PHPhotoLibrary?) {
        mediaType = PHAssetMediaType(rawValue: record.mediaType) ?? .unknown
        mediaSubtypes = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: record.mediaSubtypes))
        sourceType = PHAssetSourceType(rawValue: UInt(truncatingIfNeeded: record.sourceType))
        pixelWidth = record.pixelWidth
        pixelHeight = record.pixelHeight
        creationDate = record.creationDate.map(Date.init(timeIntervalSince1970:))
        modificationDate = record.modificationDate.map(Date.init(timeIntervalSince1970:))
        if let latitude = record.latitude, let longitude = record.longitude {
            location = CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
                altitude: record.altitude ?? 0, horizontalAccuracy: 0,
                verticalAccuracy: record.altitude == nil ? -1 : 0, course: record.course ?? -1,
                speed: record.speed ?? -1, timestamp: creationDate ?? Date(timeIntervalSince1970: record.addedDate))
        } else {
            location = nil
        }
        duration = record.duration
        isFavorite = record.isFavorite
        isHidden = record.isHidden
        burstIdentifier = record.burstIdentifier
        burstSelectionTypes = PHAssetBurstSelectionType(rawValue: UInt(truncatingIfNeeded: record.burstSelectionTypes))
        representsBurst = record.representsBurst
        adjustmentFormatIdentifier = record.adjustmentFormatIdentifier
        rating = PHAssetRating(rawValue: Int(record.rating)) ?? .unset
        originalResourceChoice = OriginalResourceChoice(rawValue: Int(record.originalResourceChoice)) ?? .compressed
        addedDate = Date(timeIntervalSince1970: record.addedDate)
        creationDateUTCOffset = record.creationDateIsFloating ? nil : record.creationDateOffset
        creationDateIsFloating = record.creationDateIsFloating
        creationDateIsFileTime = record.creationDateIsFileTime
        recordedOffset = record.creationDateOffset
        super.init(localIdentifier: record.localIdentifier, rowID: record.id, library: library)
    }

    /// Whether the asset's files can be read now: false when they are under a root that was
    /// found offline (an unmounted disk) or under a directory that could not be listed at the last
    /// scan (permissions, a stale mount); such assets are kept, with their identifiers and user
    /// state, until their files can be read again (not in PhotoKit's API; PhotoKit reports such a
    /// library as `PHPhotosError.libraryVolumeOffline`).
    /// A library that cannot be read makes every asset unavailable (the reason is the library's
    /// ``PHPhotoLibrary/unavailabilityReason``).
    public var isAvailable: Bool {
        guard let library else { return true }
        let unavailable: [String]
        do {
            unavailable = try library.database.unavailablePaths()
        } catch {
            library.storeFailed(error, while: "reading unavailable folders")
            return false
        }
        guard !unavailable.isEmpty else { return true }
        return !PHAssetResource.assetResources(for: self).contains { resource in
            // Another host's file is named by it, as its unavailable roots are (`nas:/srv/photos`).
            unavailable.contains { resource.fileURL.relativePath.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        }
    }

    /// Whether the asset has been edited.
    public var hasAdjustments: Bool { adjustmentFormatIdentifier != nil }

    /// Whether the asset's look is an edit's (`.userAdjusted`) or its file's (`.none`); no camera's
    /// own adjustments are told apart from the picture here, so `.cameraAutoAdjusted` is never given.
    public var adjustmentsState: PHAssetAdjustmentsState { hasAdjustments ? .userAdjusted : .none }

    /// The type of the picture, movie or sound shown for the asset (iOS 26): the ``PHAssetResource/contentType``
    /// of its primary resource (photo, video or audio), or of its edit's render (`fullSizePhoto`,
    /// `fullSizeVideo`) when it has been edited, since that is what is shown. A RAW+JPEG pair is its
    /// JPEG, or its RAW when that is its ``originalResourceChoice``. With no such resource to read:
    /// `.image`, `.movie`, `.audio` or `.data` by media type.
    public var contentType: UTType {
        let sources: [PHAssetResourceType] =
            switch mediaType {
            case .video: PHAssetResourceType.movieSources
            case .audio: [.audio]
            case .image, .unknown: pictureSources(edited: true)
            }
        let resources = PHAssetResource.assetResources(for: self)
        for type in sources {
            if let resource = resources.first(where: { $0.type == type }) { return resource.contentType }
        }
        switch mediaType {
        case .image: return .image
        case .video: return .movie
        case .audio: return .audio
        case .unknown: return .data
        }
    }

    /// How the asset should be played back, from its type and subtypes.
    public var playbackStyle: PlaybackStyle {
        switch mediaType {
        case .image:
            if mediaSubtypes.contains(.photoLive) { return .livePhoto }
            if mediaSubtypes.contains(.photoAnimation) { return .imageAnimated }
            return .image
        case .video: return .video
        case .audio, .unknown: return .unsupported
        }
    }

    /// Whether the asset allows an edit: editing its properties, yes; editing its content
    /// (``PHAssetChangeRequest/contentEditingOutput``), for photos and videos; deleting it, when the
    /// library placed its files, or when its files are under roots with `write = "files"` that can be
    /// written now (they go to the Trash).
    public func canPerform(_ editOperation: PHAssetEditOperation) -> Bool {
        switch editOperation {
        case .delete: canBeDeleted
        case .properties: true
        case .content: mediaType == .image || mediaType == .video
        }
    }
}

extension PHAsset {
    /// Whether a deletion of this asset can commit now: its files (those the library did not place)
    /// are under roots with `write = "files"` that can be written.
    var canBeDeleted: Bool {
        guard let library, let rowID,
            let resources = try? library.database.resources(assetIDs: [rowID])
        else { return true }
        return (resources[rowID] ?? []).allSatisfy { $0.isLibraryOwned || library.mayDelete($0.path) }
    }

    /// Whether the library placed every file of the asset (its import folder): a deletion erases
    /// them with the asset, which then waits in no Recently Deleted (``AssetDeletionRequest``'s rule).
    var isLibraryOwned: Bool {
        guard let library, let rowID,
            let resources = try? library.database.resources(assetIDs: [rowID])
        else { return false }
        return (resources[rowID] ?? []).allSatisfy(\.isLibraryOwned)
    }
}
