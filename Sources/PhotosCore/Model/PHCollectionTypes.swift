/// The major kind of an asset collection.
public enum PHAssetCollectionType: Int, Sendable, Hashable, CaseIterable, Codable {
    /// An album: made by the user, or backed by a directory.
    case album = 1
    /// A smart album, whose content the library computes.
    case smartAlbum = 2
    /// A moment (deprecated by PhotoKit; never returned here).
    case moment = 3

    /// The PhotoKit case name, as used in JSON.
    public var name: String {
        switch self {
        case .album: "album"
        case .smartAlbum: "smartAlbum"
        case .moment: "moment"
        }
    }
}

/// The minor kind of an asset collection. Raw values are PhotoKit's.
public enum PHAssetCollectionSubtype: Int, Sendable, Hashable, CaseIterable, Codable {
    case albumRegular = 2
    case albumSyncedEvent = 3
    case albumSyncedFaces = 4
    case albumSyncedAlbum = 5
    case albumImported = 6
    case albumMyPhotoStream = 100
    case albumCloudShared = 101
    case smartAlbumGeneric = 200
    case smartAlbumPanoramas = 201
    case smartAlbumVideos = 202
    case smartAlbumFavorites = 203
    case smartAlbumTimelapses = 204
    case smartAlbumAllHidden = 205
    case smartAlbumRecentlyAdded = 206
    case smartAlbumBursts = 207
    case smartAlbumSlomoVideos = 208
    case smartAlbumUserLibrary = 209
    case smartAlbumSelfPortraits = 210
    case smartAlbumScreenshots = 211
    case smartAlbumDepthEffect = 212
    case smartAlbumLivePhotos = 213
    case smartAlbumAnimated = 214
    case smartAlbumLongExposures = 215
    case smartAlbumUnableToUpload = 216
    case smartAlbumRAW = 217
    case smartAlbumCinematic = 218
    case smartAlbumSpatial = 219
    case smartAlbumScreenRecordings = 220
    /// Recently Deleted, a Linux addition: the assets deleted under a root with `write = "files"`,
    /// whose files wait in the freedesktop.org Trash until they are restored or their days are up.
    ///
    /// PhotoKit keeps its own Recently Deleted private (an undocumented 1000000201 that third-party
    /// code may not fetch from); this value is this library's alone, chosen far from Apple's range so
    /// that it can never collide with a subtype Apple adds. Fetched by its subtype or local identifier
    /// only: fetches of `.any` subtype leave it out, so that code listing every smart album never
    /// shows deleted photos unasked.
    case smartAlbumRecentlyDeleted = 1_000_100
    /// Matches every subtype when fetching.
    case any = 9_223_372_036_854_775_807

    /// The PhotoKit case name, as used in JSON (`"smartAlbumFavorites"`).
    public var name: String {
        // Written out, as every enum's `name` here: `String(describing:)` reflects on the value,
        // and a command's first use of the names cost its start 0.4 ms.
        switch self {
        case .albumRegular: "albumRegular"
        case .albumSyncedEvent: "albumSyncedEvent"
        case .albumSyncedFaces: "albumSyncedFaces"
        case .albumSyncedAlbum: "albumSyncedAlbum"
        case .albumImported: "albumImported"
        case .albumMyPhotoStream: "albumMyPhotoStream"
        case .albumCloudShared: "albumCloudShared"
        case .smartAlbumGeneric: "smartAlbumGeneric"
        case .smartAlbumPanoramas: "smartAlbumPanoramas"
        case .smartAlbumVideos: "smartAlbumVideos"
        case .smartAlbumFavorites: "smartAlbumFavorites"
        case .smartAlbumTimelapses: "smartAlbumTimelapses"
        case .smartAlbumAllHidden: "smartAlbumAllHidden"
        case .smartAlbumRecentlyAdded: "smartAlbumRecentlyAdded"
        case .smartAlbumBursts: "smartAlbumBursts"
        case .smartAlbumSlomoVideos: "smartAlbumSlomoVideos"
        case .smartAlbumUserLibrary: "smartAlbumUserLibrary"
        case .smartAlbumSelfPortraits: "smartAlbumSelfPortraits"
        case .smartAlbumScreenshots: "smartAlbumScreenshots"
        case .smartAlbumDepthEffect: "smartAlbumDepthEffect"
        case .smartAlbumLivePhotos: "smartAlbumLivePhotos"
        case .smartAlbumAnimated: "smartAlbumAnimated"
        case .smartAlbumLongExposures: "smartAlbumLongExposures"
        case .smartAlbumUnableToUpload: "smartAlbumUnableToUpload"
        case .smartAlbumRAW: "smartAlbumRAW"
        case .smartAlbumCinematic: "smartAlbumCinematic"
        case .smartAlbumSpatial: "smartAlbumSpatial"
        case .smartAlbumScreenRecordings: "smartAlbumScreenRecordings"
        case .smartAlbumRecentlyDeleted: "smartAlbumRecentlyDeleted"
        case .any: "any"
        }
    }
}

/// The major kind of a collection list.
public enum PHCollectionListType: Int, Sendable, Hashable, CaseIterable, Codable {
    /// A moment list (deprecated by PhotoKit; never returned here).
    case momentList = 1
    /// A folder: made by the user, or backed by a directory.
    case folder = 2
    /// A smart folder (never returned here).
    case smartFolder = 3

    /// The PhotoKit case name, as used in JSON.
    public var name: String {
        switch self {
        case .momentList: "momentList"
        case .folder: "folder"
        case .smartFolder: "smartFolder"
        }
    }
}

/// The minor kind of a collection list. Raw values are PhotoKit's.
public enum PHCollectionListSubtype: Int, Sendable, Hashable, CaseIterable, Codable {
    case momentListCluster = 1
    case momentListYear = 2
    /// A folder: every folder here, including the one for each watched root.
    case regularFolder = 100
    /// The library's root folder (PhotoKit SDK 27).
    case rootFolder = 101
    case smartFolderEvents = 200
    case smartFolderFaces = 201
    /// Matches every subtype when fetching.
    case any = 9_223_372_036_854_775_807

    /// The PhotoKit case name, as used in JSON.
    public var name: String {
        switch self {
        case .momentListCluster: "momentListCluster"
        case .momentListYear: "momentListYear"
        case .regularFolder: "regularFolder"
        case .rootFolder: "rootFolder"
        case .smartFolderEvents: "smartFolderEvents"
        case .smartFolderFaces: "smartFolderFaces"
        case .any: "any"
        }
    }
}

/// The kinds of object the persistent change history reports on.
public enum PHObjectType: Int, Sendable, Hashable, CaseIterable, Codable {
    case asset = 1
    case assetCollection = 2
    case collectionList = 3
}

/// The kind of file behind one of an asset's resources. Raw values are PhotoKit's.
public enum PHAssetResourceType: Int, Sendable, Hashable, CaseIterable, Codable {
    case photo = 1
    case video = 2
    case audio = 3
    /// A second version of a photo, e.g. the RAW of a RAW+JPEG pair.
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    /// The motion part of a Live Photo.
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19

    /// The resources an asset's picture is rendered from as it looks now, the first an asset has:
    /// its edit's render, else its photo, else its alternate photo (`PHImageManager`'s `.current`
    /// version, photosd's thumbnails, the API's).
    public static let pictureSources: [PHAssetResourceType] = [.fullSizePhoto, .photo, .alternatePhoto]

    /// The resources an asset's picture is rendered from without its edits (`PHImageManager`'s
    /// `.unadjusted` and `.original` versions).
    public static let originalPictureSources: [PHAssetResourceType] = [.photo, .alternatePhoto]

    /// The resources an asset's picture is rendered from, the first it has, for an asset whose
    /// original resource choice (`PHAsset.OriginalResourceChoice`) may be its RAW: as it looks now
    /// (`edited`), its edit's render first; then its originals, the RAW of a RAW+JPEG pair (its
    /// alternate photo) first when `rawOriginal`, else its photo first. With `rawOriginal` false
    /// these are ``pictureSources`` and ``originalPictureSources``.
    public static func pictureSources(edited: Bool, rawOriginal: Bool) -> [PHAssetResourceType] {
        let originals: [PHAssetResourceType] = rawOriginal ? [.alternatePhoto, .photo] : originalPictureSources
        return edited ? [.fullSizePhoto] + originals : originals
    }

    /// The resources a video asset's movie is read from as it looks now, the first it has: its
    /// edit's render, else its video (`PHImageManager`'s poster frames and video requests,
    /// photosd's thumbnails, the API's).
    public static let movieSources: [PHAssetResourceType] = [.fullSizeVideo, .video]

    /// The resources a video asset's movie is read from without its edits.
    public static let originalMovieSources: [PHAssetResourceType] = [.video]

    /// The resources an edit adds to an asset (its render, its adjustment data, the render it was
    /// made over): files the library writes in its own folder, never the scanner's to change, and
    /// all removed by `revertAssetContentToOriginal()`.
    public static let editTypes: Set<PHAssetResourceType> = [
        .fullSizePhoto, .fullSizeVideo, .adjustmentData, .adjustmentBasePhoto, .fullSizePairedVideo,
        .adjustmentBasePairedVideo, .adjustmentBaseVideo,
    ]

    /// ``editTypes`` as an SQL list of raw values, `(5, 6, ...)`.
    public static let editTypesSQL =
        "(" + editTypes.map(\.rawValue).sorted().map(String.init).joined(separator: ", ") + ")"

    /// The PhotoKit case name, as used in JSON (`"pairedVideo"`).
    public var name: String {
        switch self {
        case .photo: "photo"
        case .video: "video"
        case .audio: "audio"
        case .alternatePhoto: "alternatePhoto"
        case .fullSizePhoto: "fullSizePhoto"
        case .fullSizeVideo: "fullSizeVideo"
        case .adjustmentData: "adjustmentData"
        case .adjustmentBasePhoto: "adjustmentBasePhoto"
        case .pairedVideo: "pairedVideo"
        case .fullSizePairedVideo: "fullSizePairedVideo"
        case .adjustmentBasePairedVideo: "adjustmentBasePairedVideo"
        case .adjustmentBaseVideo: "adjustmentBaseVideo"
        case .photoProxy: "photoProxy"
        }
    }

    /// The case whose `name` this is.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}

/// Whether the app may use the library. On Linux access is the file system's: always `authorized`.
public enum PHAuthorizationStatus: Int, Sendable, Hashable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorized = 3
    case limited = 4
}

/// The level of access an app asks for.
public enum PHAccessLevel: Int, Sendable, Hashable {
    case addOnly = 1
    case readWrite = 2
}
