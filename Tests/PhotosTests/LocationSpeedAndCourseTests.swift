import Foundation
import Photos
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
