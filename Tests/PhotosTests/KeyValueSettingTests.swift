import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `setValue(_:forKey:)` where Apple's key-value coding sets something (fetch options, change
/// requests) and where it raises (PhotoKit's immutable objects, unknown keys, nil for a flag).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct KeyValueSettingTests {
    static let photo = "Phone/DCIM/100APPLE/IMG_0004.JPG"

    /// Fetch options set by name, each as programs pass the value, and what the fetch then finds.
    @Test func fetchOptionsSetByNameFetchAsTheirPropertiesDo() async throws {
        let corpus = try await offPool {
            try CorpusLibrary(files: [Self.photo, "Camera/2021/Norway/aurora.jpg", "Phone/DCIM/100APPLE/IMG_0420.MOV"])
        }
        let hidden = try #require(PHAsset.fetchAssets(with: .image, options: corpus.options).firstObject)
        try await offPool {
            try corpus.library.performChangesAndWait { PHAssetChangeRequest(for: hidden).isHidden = true }
        }

        let table: [(key: String, value: Any?, count: Int)] = [
            ("includeHiddenAssets", NSNumber(value: true), 3),
            ("includeHiddenAssets", false, 2),
            ("fetchLimit", NSNumber(value: 1), 1),
            ("fetchLimit", 0, 2),
            ("predicate", NSPredicate(format: "mediaType == %d", PHAssetMediaType.video.rawValue), 1),
            ("predicate", nil, 2),
            ("includeAssetSourceTypes", PHAssetSourceType.typeUserLibrary, 2),
            ("includeAssetSourceTypes", NSNumber(value: PHAssetSourceType.typeCloudShared.rawValue), 0),
        ]
        for row in table {
            let options = corpus.options
            options.setValue(row.value, forKey: row.key)
            #expect(
                PHAsset.fetchAssets(with: options).count == row.count, "\(row.key) = \(String(describing: row.value))")
        }
        let options = corpus.options
        options.setValue([NSSortDescriptor(key: "creationDate", ascending: false)], forKey: "sortDescriptors")
        options.setValue(false, forKey: "wantsIncrementalChangeDetails")
        options.setValue(true, forKey: "includeAllBurstAssets")
        let dates = PHAsset.fetchAssets(with: options).map { $0.creationDate ?? .distantPast }
        #expect(dates.count == 2 && dates == dates.sorted(by: >), "newest first")
        #expect(!options.wantsIncrementalChangeDetails && options.includeAllBurstAssets)
    }

    /// A change request's properties set by name change the asset in the library.
    @Test func changeRequestsSetByNameChangeTheLibrary() async throws {
        let corpus = try await offPool { try CorpusLibrary(files: [Self.photo]) }
        let asset = try #require(PHAsset.fetchAssets(with: corpus.options).firstObject)
        let date = Date(timeIntervalSince1970: 1_600_000_000)
        try await offPool {
            try corpus.library.performChangesAndWait {
                let request = PHAssetChangeRequest(for: asset)
                request.setValue(NSNumber(value: true), forKey: "favorite")
                request.setValue(true, forKey: "isHidden")
                request.setValue(date, forKey: "creationDate")
                request.setValue(CLLocation(latitude: 1.5, longitude: 2.5), forKey: "location")
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Old")
                    .setValue("New", forKey: "title")
            }
        }
        let options = corpus.options
        options.includeHiddenAssets = true
        let changed = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject)
        #expect(changed.isFavorite && changed.isHidden)
        #expect(changed.creationDate == date)
        #expect(changed.location?.coordinate == CLLocationCoordinate2D(latitude: 1.5, longitude: 2.5))
        let albums = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .albumRegular, options: corpus.options)
        let titles = albums.map { $0.localizedTitle }
        #expect(titles.contains("New") && !titles.contains("Old"))
        #expect(changed.value(forKey: "favorite") as? Bool == true, "read back by name too")
    }

    @Test func settingAnAssetsPropertyStopsTheProgramAsPhotoKitRaises() async {
        await #expect(processExitsWith: .failure) {
            let library = try! PHPhotoLibrary(inMemoryWith: .init())
            try! library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A")
            }
            let options = PHFetchOptions()
            options.photoLibrary = library
            let album = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            album.firstObject!.setValue("B", forKey: "localizedTitle")
        }
    }

    @Test func anUnknownOptionStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            PHFetchOptions().setValue(true, forKey: "includeEverything")
        }
    }

    @Test func nilForAFlagStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            PHFetchOptions().setValue(nil, forKey: "includeHiddenAssets")
        }
    }
}
