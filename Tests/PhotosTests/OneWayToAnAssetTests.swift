import Foundation
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

/// Scanning a folder and `PHAssetCreationRequest` make the same asset of the same file.
@Suite struct OneWayToAnAssetTests {
    /// Corpus files whose assets carry what only the file states: HDR, burst, panorama, screenshot,
    /// a Live Photo's two halves, GPS, a video's duration.
    static let files = [
        "Phone/DCIM/100APPLE/IMG_2682.HEIC", "Phone/DCIM/100APPLE/IMG_6100.JPG", "Phone/DCIM/100APPLE/IMG_3001.JPG",
        "Phone/DCIM/100APPLE/IMG_3002.JPG", "Phone/DCIM/Camera/PANO_20200524_115521.jpg",
        "Phone/Screenshots/IMG_0999.PNG", "Camera/2008/Death Valley/FurnaceCreekInn.jpg",
        "Phone/DCIM/100APPLE/IMG_5195.HEIC", "Phone/DCIM/100APPLE/IMG_5195.MOV",
    ]

    /// What an asset says about its file, without identity or user state.
    struct Derived: Equatable, CustomStringConvertible {
        var mediaType: PHAssetMediaType
        var subtypes: PHAssetMediaSubtype
        var size: [Int]
        var creationDate: Date?
        var offset: Int?
        var floating: Bool
        var place: [Double]?
        var duration: TimeInterval
        var burst: String?
        var representsBurst: Bool
        var resources: [String]

        init(_ asset: PHAsset) {
            mediaType = asset.mediaType
            subtypes = asset.mediaSubtypes
            size = [asset.pixelWidth, asset.pixelHeight]
            creationDate = asset.creationDate
            offset = asset.creationDateUTCOffset
            floating = asset.creationDateIsFloating
            place = asset.location.map { [$0.coordinate.latitude, $0.coordinate.longitude, $0.altitude] }
            duration = asset.duration
            burst = asset.burstIdentifier
            representsBurst = asset.representsBurst
            resources = PHAssetResource.assetResources(for: asset).map { "\($0.type.name) \($0.uniformTypeIdentifier)" }
        }

        var description: String {
            "\(mediaType) \(subtypes.rawValue) \(size) \(creationDate as Any) \(offset as Any) \(place as Any) "
                + "\(duration) \(burst as Any) \(representsBurst) \(resources)"
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func scanningAndCreationRequestsMakeTheSameAsset() throws {
        let directory = try TemporaryDirectory(prefix: "one-way")
        let folder = directory.path("Photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in Self.files {
            let source = try #require(Corpus.file(file))
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(source.lastPathComponent))
        }
        let utc = TimeZone(identifier: "UTC")!
        var configuration = PHPhotoLibrary.Configuration()
        configuration.timeZone = utc

        let scanned = try PHPhotoLibrary(url: directory.path("scanned.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: scanned.database, timeZone: utc, quietTime: 0).scan(roots: [folder.path])

        let created = try PHPhotoLibrary(url: directory.path("created.sqlite"), configuration: configuration)
        let url = { (name: String) in folder.appendingPathComponent(name) }
        try created.performChangesAndWait {
            for file in Self.files.map({ ($0 as NSString).lastPathComponent })
            where file != "IMG_5195.HEIC" && file != "IMG_5195.MOV" {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: url(file), options: nil)
            }
            let live = PHAssetCreationRequest.forAsset()
            live.addResource(with: .photo, fileURL: url("IMG_5195.HEIC"), options: nil)
            live.addResource(with: .pairedVideo, fileURL: url("IMG_5195.MOV"), options: nil)
        }

        func derived(_ library: PHPhotoLibrary) -> [String: Derived] {
            let options = PHFetchOptions()
            options.photoLibrary = library
            options.includeAllBurstAssets = true
            var result: [String: Derived] = [:]
            PHAsset.fetchAssets(with: options).enumerateObjects { asset, _, _ in
                let name = PHAssetResource.assetResources(for: asset).first?.originalFilename ?? "?"
                result[name] = Derived(asset)
            }
            return result
        }
        let fromScan = derived(scanned)
        let fromRequests = derived(created)
        #expect(fromScan.count == Self.files.count - 1, "the Live Photo's halves are one asset")
        #expect(Set(fromScan.keys) == Set(fromRequests.keys))
        for (name, asset) in fromScan {
            #expect(
                fromRequests[name] == asset,
                "\(name): scanned \(asset), created \(fromRequests[name].map(\.description) ?? "nil")")
        }
        // The mapping is not vacuous: the subtypes only the files state are there.
        #expect(fromScan["IMG_2682.HEIC"]?.subtypes.contains(.photoHDR) == true)
        #expect(fromScan["IMG_0999.PNG"]?.subtypes.contains(.photoScreenshot) == true)
        #expect(fromScan["IMG_3001.JPG"]?.burst != nil)
        #expect(fromScan["IMG_5195.HEIC"]?.subtypes.contains(.photoLive) == true)
    }
}
