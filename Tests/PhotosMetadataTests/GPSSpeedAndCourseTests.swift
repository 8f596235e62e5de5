import Foundation
import Testing

@testable import PhotosMetadata

/// A location's speed and course from EXIF (GPSSpeed in its unit, GPSTrack relative to true north)
/// and from a movie's QuickTime keys, as `CLLocation` holds them: metres per second and degrees
/// clockwise from true north. Where the lens pointed (GPSImgDirection) is not a course.
@Suite struct GPSSpeedAndCourseTests {
    typealias Entries = [UInt16: TIFFBuilder.Value]

    static let place: Entries = [
        0x0001: .ascii("N"), 0x0002: .rationals([(51, 1), (46, 1), (4301, 100)]),
        0x0003: .ascii("E"), 0x0004: .rationals([(8, 1), (21, 1), (5630, 100)]),
    ]

    static func extract(gps: Entries) throws -> FileMetadata {
        let tiff = MetadataExtractorTests.exif(
            exif: [0x9003: .ascii("2010:05:15 17:12:07")], gps: place.merging(gps) { $1 })
        return try GroupingAndSubtypeTests.extract(JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), name: "gps.jpg")
    }

    @Test(
        arguments: [
            ("K", (36, 1), 10.0), ("M", (10, 1), 4.4704), ("N", (10, 1), 5.144_444), (nil, (36, 1), 10.0),
            ("k", (72, 2), 10.0), ("X", (36, 1), nil), ("K", (36, 0), nil),
        ] as [(String?, (UInt32, UInt32), Double?)])
    func gpsSpeedIsInMetresPerSecondWhateverItsUnit(unit: String?, speed: (UInt32, UInt32), metres: Double?) throws {
        var gps: Entries = [0x000D: .rationals([speed])]
        if let unit { gps[0x000C] = .ascii(unit) }
        let read = try Self.extract(gps: gps)
        if let metres {
            #expect(abs(try #require(read.speed) - metres) < 1e-6)
        } else {
            #expect(read.speed == nil)
        }
    }

    @Test(
        arguments: [
            ("T", (8931, 100), 89.31), (nil, (90, 1), 90.0), ("T", (360, 1), 0.0), ("T", (0, 1), 0.0),
            // Magnetic north, out of range, a zero denominator: no course.
            ("M", (90, 1), nil), ("T", (400, 1), nil), ("T", (1, 0), nil),
        ] as [(String?, (UInt32, UInt32), Double?)])
    func gpsTrackRelativeToTrueNorthIsTheCourse(reference: String?, track: (UInt32, UInt32), course: Double?) throws {
        var gps: Entries = [0x000F: .rationals([track])]
        if let reference { gps[0x000E] = .ascii(reference) }
        #expect(try Self.extract(gps: gps).course == course)
    }

    @Test func theLensDirectionIsNoCourseAndNoPlaceMeansNeither() throws {
        let facing = try Self.extract(gps: [0x0010: .ascii("T"), 0x0011: .rationals([(21_120, 100)])])
        #expect(facing.course == nil && facing.latitude != nil)
        // Speed and course belong to a place: without coordinates, none.
        let tiff = MetadataExtractorTests.exif(
            exif: [0x9003: .ascii("2010:05:15 17:12:07")],
            gps: [0x000C: .ascii("K"), 0x000D: .rationals([(36, 1)]), 0x000F: .rationals([(90, 1)])])
        let alone = try GroupingAndSubtypeTests.extract(
            JPEGBuilder.jpeg(width: 8, height: 8, exif: tiff), name: "a.jpg")
        #expect(alone.speed == nil && alone.course == nil && alone.latitude == nil)
    }

    @Test(
        arguments: [
            ("123.4", 123.4), ("+123.4/-10.5", 123.4), ("0", 0.0), ("360", 0.0),
            ("123.4M", nil), ("123.4M/5", nil), ("400", nil), ("-5", nil), ("", nil), ("north", nil),
        ] as [(String, Double?)])
    func quickTimeMotionDirectionIsACourseUnlessMagnetic(text: String, course: Double?) {
        #expect(ISOMediaParser.trueCompassDirection(text) == course)
    }

    /// A movie's motion direction is its course with its place; the facing direction is not.
    @Test func aMoviesMotionDirectionIsItsCourse() throws {
        let place = ["com.apple.quicktime.location.ISO6709": "+51.7786+008.3656+093.300/"]
        let moving = MovieBuilder.movie(
            samples: [(30, 20)],
            textKeys: place.merging(["com.apple.quicktime.direction.motion": "89.31/0.5"]) { $1 })
        let read = try ISO6709LocationTests.extract(moving)
        #expect(read.latitude == 51.7786 && read.course == 89.31 && read.speed == nil)
        let facing = MovieBuilder.movie(
            samples: [(30, 20)],
            textKeys: place.merging(["com.apple.quicktime.direction.facing": "89.31"]) { $1 })
        #expect(try ISO6709LocationTests.extract(facing).course == nil)
    }

    /// ExifTool 12.57 on the corpus: the DSC-HX5V's GPSSpeed 1.1 km/h and GPSTrack 89.31 (true
    /// north); the iPhone's 1.04 km/h and a GPSImgDirection only, so no course.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theCorpusSpeedsAndCoursesMatchExifTool() throws {
        let sony = try CorpusGroupingTests.extract("Camera/2010/Sony/DSC00042.JPG")
        #expect(abs(try #require(sony.speed) - 1.1 / 3.6) < 1e-9)
        #expect(sony.course == 89.31)
        let phone = try CorpusGroupingTests.extract("Phone/DCIM/100APPLE/IMG_2682.HEIC")
        #expect(abs(try #require(phone.speed) - 1.039_999_962 / 3.6) < 1e-6)
        #expect(phone.course == nil)
        let facingOnly = try CorpusGroupingTests.extract("Phone/DCIM/100APPLE/IMG_0004.JPG")
        #expect(facingOnly.speed == nil && facingOnly.course == nil)
    }
}
