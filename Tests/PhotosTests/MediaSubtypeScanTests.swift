import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// The Portrait, Spatial, Time-lapse and Cinematic smart albums after a scan of a folder holding
/// one file of each kind and a near-miss of each (a gain map, a single-layer movie, a Live Photo's
/// metadata track...): their members, their kept counts, and the subtypes in `PHAsset`, the asset
/// JSON and predicates.
@Suite struct MediaSubtypeScanTests {
    static let files: [String: [UInt8]] = [
        "portrait.heic": MediaSubtypeSamples.heif(auxiliaryType: MediaSubtypeSamples.depthType),
        "gainmap.heic": MediaSubtypeSamples.heif(auxiliaryType: MediaSubtypeSamples.gainMapType),
        "alpha.heic": MediaSubtypeSamples.heif(auxiliaryType: MediaSubtypeSamples.alphaType),
        "portrait.jpg": MediaSubtypeSamples.jpegWithMultiPicture(
            secondaryXMP: MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/depthData/1.0/", prefix: "depthData", properties: ["Quality": "high"])),
        "lensblur.jpg": MediaSubtypeSamples.jpeg(
            xmp: MediaSubtypeSamples.xmp(
                namespace: "http://ns.google.com/photos/1.0/depthmap/", prefix: "GDepth",
                properties: ["Format": "RangeInverse"])),
        "hdr.jpg": MediaSubtypeSamples.jpegWithMultiPicture(
            secondaryXMP: MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/HDRGainMap/1.0/", prefix: "HDRGainMap",
                properties: ["HDRGainMapVersion": "1"])),
        "stereo.heic": MediaSubtypeSamples.heif(stereoEntities: 2),
        "spatial.mov": MediaSubtypeSamples.movie(video: .multiLayer(eyeViews: 0x03)),
        "flat.mov": MediaSubtypeSamples.movie(video: .singleLayer),
        "oneeye.mov": MediaSubtypeSamples.movie(video: .multiLayer(eyeViews: 0x01)),
        "timelapse.mov": MediaSubtypeSamples.movie(captureMode: "Time-lapse"),
        "VID_timelapse.mp4": MediaSubtypeSamples.movie(androidCaptureRate: 1),
        "VID_normal.mp4": MediaSubtypeSamples.movie(androidCaptureRate: 30),
        "cinematic.mov": MediaSubtypeSamples.movie(metadataKeys: [
            "com.apple.quicktime.cinematic-video.rendering", "com.apple.quicktime.cinematic-video.cinematography",
        ]),
        "live.mov": MediaSubtypeSamples.movie(metadataKeys: ["com.apple.quicktime.still-image-time"]),
    ]

    @Test func smartAlbumsHoldTheFilesThatSaySo() throws {
        let directory = try TemporaryDirectory(prefix: "photos-subtypes")
        let pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        for (name, bytes) in Self.files {
            try Data(bytes).write(to: pictures.appendingPathComponent(name))
        }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        #expect(report.ingested == Self.files.count, "\(report)")
        let options = PHFetchOptions()
        options.photoLibrary = library

        func name(_ asset: PHAsset) -> String { PHAssetResource.assetResources(for: asset)[0].originalFilename }
        let expected: [(PHAssetCollectionSubtype, String, PHAssetMediaSubtype, [String])] = [
            (.smartAlbumDepthEffect, "Portrait", .photoDepthEffect, ["lensblur.jpg", "portrait.heic", "portrait.jpg"]),
            (.smartAlbumSpatial, "Spatial", .spatialMedia, ["spatial.mov", "stereo.heic"]),
            (.smartAlbumTimelapses, "Time-lapse", .videoTimelapse, ["VID_timelapse.mp4", "timelapse.mov"]),
            (.smartAlbumCinematic, "Cinematic", .videoCinematic, ["cinematic.mov"]),
        ]
        let albums = try expected.map { subtype, _, _, _ in
            try #require(
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: options)
                    .firstObject)
        }
        // The counts an album listing shows: kept by the store's triggers.
        let listed = try library.database.collectionDescriptionRows(.localIdentifiers(albums.map(\.localIdentifier)))
        for ((subtype, title, flag, names), album) in zip(expected, albums) {
            #expect(album.localizedTitle == title)
            let members = PHAsset.fetchAssets(in: album, options: options)
            #expect(members.map(name).sorted() == names, "\(title)")
            #expect(listed.smartAlbumCounts[subtype.rawValue] == names.count, "\(title)")
            // The same assets by predicate, with the flag in PHAsset and in the asset JSON.
            let predicated = PHFetchOptions()
            predicated.photoLibrary = library
            predicated.predicate = NSPredicate(format: "(mediaSubtypes & %d) != 0", flag.rawValue)
            let matching = PHAsset.fetchAssets(with: predicated)
            #expect(matching.map(name).sorted() == names, "\(title)")
            #expect(matching.map { $0.mediaSubtypes.contains(flag) }.allSatisfy { $0 })
            let flagName = try #require(PHAssetMediaSubtype.named.first { $0.subtype == flag }?.name)
            let json = try matching.descriptions(at: Array(0..<matching.count))
            #expect(json.count == names.count && json.allSatisfy { $0.mediaSubtypes.contains(flagName) }, "\(title)")
        }
        // No near-miss carries any of the four.
        let four: PHAssetMediaSubtype = [.photoDepthEffect, .spatialMedia, .videoTimelapse, .videoCinematic]
        let plain = PHAsset.fetchAssets(with: options).filter { $0.mediaSubtypes.isDisjoint(with: four) }
        #expect(
            plain.map(name).sorted() == [
                "VID_normal.mp4", "alpha.heic", "flat.mov", "gainmap.heic", "hdr.jpg", "live.mov", "oneeye.mov",
            ])
    }
}
