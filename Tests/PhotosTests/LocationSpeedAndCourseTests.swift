import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// `PHAsset.location`'s speed and course: from the file's GPS fields through a scan, and as a change
/// request sets them; -1 (CoreLocation's unknown) when there are none.
@Suite struct LocationSpeedAndCourseTests {
    let fixture: LibraryFixture
    var library: PHPhotoLibrary { fixture.library }

    init() throws {
        fixture = try LibraryFixture()
    }

    /// The DSC-HX5V's GPSSpeed (1.1 km/h) and GPSTrack (89.31°, true north), as ExifTool 12.57
    /// reads them, reach the asset a scan makes of it.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aScannedFilesSpeedAndTrackBecomeTheLocationsSpeedAndCourse() throws {
        let scan = try fixture.scanInAnotherProcess(corpusFile: "Camera/2010/Sony/DSC00042.JPG")
        #expect(scan.status == 0, "\(scan.stderr)")
        let all = PHAsset.fetchAssets(with: fixture.options { $0.includeHiddenAssets = true })
        let scanned = try #require(
            (0..<all.count).map { all[$0] }.first { abs(($0.location?.coordinate.latitude ?? 0) - 51.778_615) < 1e-6 })
        let location = try #require(scanned.location)
        #expect(abs(location.speed - 1.1 / 3.6) < 1e-9)
        #expect(location.course == 89.31)
        #expect(location.speedAccuracy < 0 && location.courseAccuracy < 0)
    }

    /// A sidecar beside the photo that places it elsewhere brings no speed nor course: the file's
    /// belong to the file's place. Without a place of its own, the file's stay.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"), arguments: [true, false])
    func aSidecarsPlaceReplacesTheFilesSpeedAndCourse(sidecarHasPlace: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "speed-sidecar")
        let pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let photo = try #require(Corpus.file("Camera/2010/Sony/DSC00042.JPG"))
        try FileManager.default.copyItem(at: photo, to: pictures.appendingPathComponent("DSC00042.JPG"))
        let place = sidecarHasPlace ? #"exif:GPSLatitude="59,19.8000N" exif:GPSLongitude="18,4.2000E""# : ""
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
             <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
               xmlns:exif="http://ns.adobe.com/exif/1.0/" xmp:Rating="2" \(place)/>
            </rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: pictures.appendingPathComponent("DSC00042.xmp"))
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures.path, write: .sidecars)]
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(with: options).firstObject)
        #expect(asset.rating == .two, "the sidecar was read")
        let location = try #require(asset.location)
        if sidecarHasPlace {
            #expect(abs(location.coordinate.latitude - 59.33) < 1e-6)
            #expect(location.speed == -1 && location.course == -1)
        } else {
            #expect(abs(location.coordinate.latitude - 51.778_615) < 1e-6)
            #expect(location.course == 89.31 && location.speed > 0)
        }
    }

    @Test func aLocationSetWithSpeedAndCourseKeepsThemAndOneWithoutHasNone() throws {
        let beach = fixture.asset("beach.jpg")
        #expect(beach.location?.speed == -1 && beach.location?.course == -1)
        let moving = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 1.5, longitude: -2.25), altitude: 0, horizontalAccuracy: 0,
            verticalAccuracy: -1, course: 271.5, speed: 13.9, timestamp: Date())
        try library.performChangesAndWait { PHAssetChangeRequest(for: beach).location = moving }
        let after = try #require(fixture.asset("beach.jpg").location)
        #expect(after.speed == 13.9 && after.course == 271.5)

        try library.performChangesAndWait {
            PHAssetChangeRequest(for: beach).location = CLLocation(latitude: 3, longitude: 4)
        }
        let still = try #require(fixture.asset("beach.jpg").location)
        #expect(still.speed == -1 && still.course == -1, "the new place's, not the old one's")
    }
}
