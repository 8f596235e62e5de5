import Foundation
import Photos
import PhotosCore
import PhotosLinux
import PhotosStore

/// A small library with known assets and collections, written straight through the store.
///
/// | name | type | subtypes | flags | taken |
/// |---|---|---|---|---|
/// | beach.jpg | image | – | favorite | 2020-01-01 |
/// | secret.jpg | image | – | hidden | 2020-02-02 |
/// | sunset.heic | image | photoHDR | – | 2020-06-01 |
/// | screen.png | image | photoScreenshot | – | 2021-01-01 |
/// | burst1/2/3.jpg | image | – | burst B1: representative, member, user pick | 2021-07-07 |
/// | pano.jpg | image | photoPanorama | favorite | 2019-05-05 |
/// | live.heic | image | photoLive | – | 2022-02-02 |
/// | movie.mov | video | – | – | 2022-03-03, 12.5 s |
/// | slomo.mov | video | videoHighFrameRate | favorite | 2023-01-01, 3 s |
/// | anim.gif | image | photoAnimation | – | no date |
///
/// Album "Trip" holds beach, pano, movie in that order; folder "2020" holds album "Winter" (sunset).
public final class LibraryFixture: @unchecked Sendable {  // `assets` and `collections` are written only by init.
    /// The library (a temporary file, so that other processes can open it).
    public let library: PHPhotoLibrary
    /// Where the library file and its imports live.
    public let directory: TemporaryDirectory
    /// Asset local identifiers by file name.
    public private(set) var assets: [String: String] = [:]
    /// Collection local identifiers by title.
    public private(set) var collections: [String: String] = [:]

    /// The library file.
    public var libraryURL: URL { directory.path("library.sqlite") }

    struct Spec {
        let name: String
        var type: PHAssetMediaType = .image
        var subtypes: PHAssetMediaSubtype = []
        var favorite = false
        var hidden = false
        var burst: (String, representative: Bool, selection: PHAssetBurstSelectionType)? = nil
        var date: String?
        var size = (4000, 3000)
        var duration = 0.0
        var location: (Double, Double)? = nil
    }

    static let specs: [Spec] = [
        Spec(name: "beach.jpg", favorite: true, date: "2020-01-01T10:00:00Z", location: (43.55, 7.01)),
        Spec(name: "secret.jpg", hidden: true, date: "2020-02-02T10:00:00Z"),
        Spec(name: "sunset.heic", subtypes: .photoHDR, date: "2020-06-01T20:00:00Z", size: (3000, 4000)),
        Spec(name: "screen.png", subtypes: .photoScreenshot, date: "2021-01-01T09:00:00Z", size: (1170, 2532)),
        Spec(name: "burst1.jpg", burst: ("B1", true, .autoPick), date: "2021-07-07T10:00:00Z"),
        Spec(name: "burst2.jpg", burst: ("B1", false, []), date: "2021-07-07T10:00:01Z"),
        Spec(name: "burst3.jpg", burst: ("B1", false, .userPick), date: "2021-07-07T10:00:02Z"),
        Spec(
            name: "pano.jpg", subtypes: .photoPanorama, favorite: true, date: "2019-05-05T12:00:00Z", size: (8000, 2000)
        ),
        Spec(name: "live.heic", subtypes: .photoLive, date: "2022-02-02T08:00:00Z", size: (4032, 3024)),
        Spec(name: "movie.mov", type: .video, date: "2022-03-03T18:00:00Z", size: (1920, 1080), duration: 12.5),
        Spec(
            name: "slomo.mov", type: .video, subtypes: .videoHighFrameRate, favorite: true,
            date: "2023-01-01T00:00:00Z", size: (1280, 720), duration: 3),
        Spec(name: "anim.gif", subtypes: .photoAnimation, date: nil, size: (500, 500)),
    ]

    /// Creates the library in a temporary directory.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "photos-fixture")
        // The fixture's files are under /fixture, which does not exist: a root there that allows
        // deleting files lets its assets be deleted (nothing to move), into a Trash of the test's own.
        var configuration = PHPhotoLibrary.Configuration()
        configuration.roots = [LibraryRoot(path: "/fixture", write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        try populate()
    }

    private func populate() throws {
        let formatter = ISO8601DateFormatter()
        var added = Date(timeIntervalSince1970: 1_700_000_000)
        try library.database.write { transaction in
            var ids: [String: Int64] = [:]
            for spec in Self.specs {
                let identifier = LocalIdentifier.make(.asset)
                var record = AssetRecord(localIdentifier: identifier, mediaType: spec.type, addedDate: added)
                added += 60
                record.mediaSubtypes = Int64(spec.subtypes.rawValue)
                record.isFavorite = spec.favorite
                record.isHidden = spec.hidden
                record.creationDate = spec.date.flatMap { formatter.date(from: $0) }?.timeIntervalSince1970
                record.creationDateOffset = spec.date == nil ? nil : 0
                record.pixelWidth = spec.size.0
                record.pixelHeight = spec.size.1
                record.duration = spec.duration
                if let location = spec.location {
                    record.latitude = location.0
                    record.longitude = location.1
                }
                if let burst = spec.burst {
                    record.burstIdentifier = burst.0
                    record.representsBurst = burst.representative
                    record.burstSelectionTypes = Int64(burst.selection.rawValue)
                }
                let resource = ResourceRecord(
                    assetId: 0,
                    type: spec.type == .video ? PHAssetResourceType.video.rawValue : PHAssetResourceType.photo.rawValue,
                    path: "/fixture/\(spec.name)", uniformTypeIdentifier: nil, mimeType: nil, fileSize: 1000,
                    originalFilename: spec.name)
                ids[spec.name] = try transaction.insertAsset(record, resources: [resource])
                assets[spec.name] = identifier
            }
            let trip = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Trip", position: 0, createdDate: 0)
            let tripID = try transaction.insertCollection(trip)
            try transaction.setMembers(
                ofCollection: try transaction.collection(id: tripID)!,
                to: ["beach.jpg", "pano.jpg", "movie.mov"].map { ids[$0]! })
            let folder = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.collectionList), isList: true,
                type: PHCollectionListType.folder.rawValue, subtype: PHCollectionListSubtype.regularFolder.rawValue,
                title: "2020", position: 1, createdDate: 0)
            let folderID = try transaction.insertCollection(folder)
            let winter = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Winter", parentId: folderID, position: 0, createdDate: 0)
            let winterID = try transaction.insertCollection(winter)
            try transaction.setMembers(
                ofCollection: try transaction.collection(id: winterID)!, to: [ids["sunset.heic"]!])
            collections = [
                "Trip": trip.localIdentifier, "2020": folder.localIdentifier, "Winter": winter.localIdentifier,
            ]
        }
    }

    /// Options bound to this library.
    public func options(_ configure: (PHFetchOptions) -> Void = { _ in }) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        configure(options)
        return options
    }

    /// File names of a fetch result's assets, in order.
    public func names(_ result: PHFetchResult<PHAsset>) -> [String] {
        let byIdentifier = Dictionary(uniqueKeysWithValues: assets.map { ($1, $0) })
        return result.map { byIdentifier[$0.localIdentifier] ?? $0.localIdentifier }
    }

    /// Copies a corpus file (by its path in the corpus) into a Pictures folder of the fixture's
    /// directory as `a.jpg`, and scans that folder into this library with the built `photos`: a
    /// commit by another process. Returns `photos scan`'s exit status and standard error.
    public func scanInAnotherProcess(corpusFile: String) throws -> (status: Int32, stderr: String) {
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        guard let source = Corpus.file(corpusFile) else { return (-1, "no corpus file \(corpusFile)") }
        try FileManager.default.copyItem(at: source, to: root.appendingPathComponent("a.jpg"))
        let scan = try BuiltProducts.run("photos", ["scan", "--library", libraryURL.path, root.path])
        return (scan.status, scan.stderr)
    }

    /// The asset with a file name.
    public func asset(_ name: String) -> PHAsset {
        asset(identifier: assets[name]!)
    }

    /// The asset with a local identifier, hidden or not.
    public func asset(identifier: String) -> PHAsset {
        PHAsset.fetchAssets(
            withLocalIdentifiers: [identifier],
            options: options {
                $0.includeHiddenAssets = true
                $0.includeAllBurstAssets = true
            }
        ).firstObject!
    }

    /// The album or folder with a title.
    public func collection<T: PHCollection>(_ title: String, as type: T.Type = T.self) -> T {
        let identifier = collections[title]!
        let albums = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: options())
        if let album = albums.firstObject as? T { return album }
        return PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [identifier], options: options()).firstObject
            as! T
    }
}
