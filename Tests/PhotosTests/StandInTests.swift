import Foundation
import Testing

@testable import Photos

/// The `CLLocation` stand-in: speed, course, accuracies, time, and distances along the Earth.
@Suite struct LocationStandInTests {
    /// Two coordinates and the distance between them on the WGS 84 ellipsoid, in meters; the
    /// sphere's great circle must be within 0.5% of it.
    struct Distance: Sendable, CustomTestStringConvertible {
        let name: String
        let from: (Double, Double)
        let to: (Double, Double)
        let meters: Double

        var testDescription: String { name }
    }

    static let distances: [Distance] = [
        Distance(name: "the same place", from: (48.8584, 2.2945), to: (48.8584, 2.2945), meters: 0),
        Distance(name: "equator to pole (meridian quadrant)", from: (0, 0), to: (90, 0), meters: 10_001_965.7),
        Distance(name: "a quarter of the equator", from: (0, 0), to: (0, 90), meters: 10_018_754.2),
        Distance(name: "across the date line", from: (0, 179.5), to: (0, -179.5), meters: 111_319.5),
        Distance(name: "one degree of latitude at 45°", from: (44.5, 10), to: (45.5, 10), meters: 111_132.0),
        Distance(name: "south to north pole", from: (-90, 0), to: (90, 0), meters: 20_003_931.5),
    ]

    @Test(arguments: distances)
    func distanceIsTheGreatCircleWithinHalfAPercentOfTheEllipsoid(_ row: Distance) {
        let from = CLLocation(latitude: row.from.0, longitude: row.from.1)
        let to = CLLocation(latitude: row.to.0, longitude: row.to.1)
        let measured = from.distance(from: to)
        #expect(abs(measured - row.meters) <= row.meters * 0.005, "\(measured) m")
        #expect(measured == to.distance(from: from), "the same both ways")
    }

    @Test func distanceIsMeasuredOnTheMeanEarthSphereAndIgnoresAltitude() {
        // One degree along a meridian on a sphere of radius 6 371 008.8 m: R·π/180.
        let low = CLLocation(latitude: 10, longitude: 20)
        let high = CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: 11, longitude: 20), altitude: 8_000, horizontalAccuracy: 5,
            verticalAccuracy: 5, timestamp: Date())
        #expect(abs(low.distance(from: high) - 6_371_008.8 * Double.pi / 180) < 0.01)
    }

    @Test func speedCourseAndAccuraciesAreKeptAndUnknownIsNegative() {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let point = CLLocationCoordinate2D(latitude: 52.37, longitude: 4.89)
        let moving = CLLocation(
            coordinate: point, altitude: 2, horizontalAccuracy: 4, verticalAccuracy: 6, course: 271.5, speed: 13.9,
            timestamp: time)
        #expect(moving.speed == 13.9 && moving.course == 271.5)
        #expect(moving.speedAccuracy < 0 && moving.courseAccuracy < 0)
        #expect(moving.horizontalAccuracy == 4 && moving.verticalAccuracy == 6 && moving.timestamp == time)

        let full = CLLocation(
            coordinate: point, altitude: 2, horizontalAccuracy: 4, verticalAccuracy: 6, course: 90, courseAccuracy: 3,
            speed: 1.5, speedAccuracy: 0.5, timestamp: time)
        #expect(full.courseAccuracy == 3 && full.speedAccuracy == 0.5 && full.speed == 1.5 && full.course == 90)

        let still = CLLocation(latitude: 52.37, longitude: 4.89)
        #expect(still.speed < 0 && still.course < 0 && still.verticalAccuracy < 0 && still.horizontalAccuracy == 0)
    }

    @Test func coordinateValidityFollowsTheGlobe() {
        let rows: [(CLLocationCoordinate2D, Bool)] = [
            (CLLocationCoordinate2DMake(0, 0), true),
            (CLLocationCoordinate2DMake(90, 180), true),
            (CLLocationCoordinate2DMake(-90, -180), true),
            (CLLocationCoordinate2DMake(90.1, 0), false),
            (CLLocationCoordinate2DMake(0, -180.5), false),
            (kCLLocationCoordinate2DInvalid, false),
        ]
        for (coordinate, valid) in rows {
            #expect(CLLocationCoordinate2DIsValid(coordinate) == valid, "\(coordinate)")
        }
    }
}

/// The common system types of the `UTType` stand-in, with Apple's identifiers and tags.
@Suite struct CommonTypeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let type: UTType
        let identifier: String
        let filenameExtension: String?
        let mimeType: String?
        let conforms: [UTType]
        let conformsNot: [UTType]

        var testDescription: String { identifier }
    }

    static let rows: [Row] = [
        Row(
            type: .json, identifier: "public.json", filenameExtension: "json", mimeType: "application/json",
            conforms: [.text, .data, .content], conformsNot: [.image]),
        Row(
            type: .plainText, identifier: "public.plain-text", filenameExtension: "txt", mimeType: "text/plain",
            conforms: [.text, .data], conformsNot: [.xml]),
        Row(
            type: .xml, identifier: "public.xml", filenameExtension: "xml", mimeType: "application/xml",
            conforms: [.text, .data], conformsNot: [.json]),
        Row(
            type: .html, identifier: "public.html", filenameExtension: "html", mimeType: "text/html",
            conforms: [.text], conformsNot: [.xml]),
        Row(
            type: .pdf, identifier: "com.adobe.pdf", filenameExtension: "pdf", mimeType: "application/pdf",
            conforms: [.compositeContent, .data, .content], conformsNot: [.text, .image]),
        Row(
            type: .zip, identifier: "public.zip-archive", filenameExtension: "zip", mimeType: "application/zip",
            conforms: [.archive, .data], conformsNot: [.content]),
        Row(
            type: .svg, identifier: "public.svg-image", filenameExtension: "svg", mimeType: "image/svg+xml",
            conforms: [.image], conformsNot: [.rawImage]),
        Row(
            type: .ico, identifier: "com.microsoft.ico", filenameExtension: "ico",
            mimeType: "image/vnd.microsoft.icon", conforms: [.image], conformsNot: []),
        Row(
            type: .mp3, identifier: "public.mp3", filenameExtension: "mp3", mimeType: "audio/mpeg",
            conforms: [.audio, .audiovisualContent], conformsNot: [.movie]),
        Row(
            type: .jpeg, identifier: "public.jpeg", filenameExtension: "jpeg", mimeType: "image/jpeg",
            conforms: [.image], conformsNot: [.movie]),
        Row(
            type: .quickTimeMovie, identifier: "com.apple.quicktime-movie", filenameExtension: "mov",
            mimeType: "video/quicktime", conforms: [.movie], conformsNot: [.image]),
        Row(
            type: .data, identifier: "public.data", filenameExtension: nil, mimeType: nil, conforms: [.item],
            conformsNot: [.content]),
        Row(
            type: .image, identifier: "public.image", filenameExtension: nil, mimeType: nil, conforms: [.data],
            conformsNot: [.movie]),
        Row(
            type: .movie, identifier: "public.movie", filenameExtension: nil, mimeType: nil,
            conforms: [.audiovisualContent], conformsNot: [.image]),
        Row(
            type: .text, identifier: "public.text", filenameExtension: nil, mimeType: nil, conforms: [.data, .content],
            conformsNot: [.image]),
        Row(
            type: .archive, identifier: "public.archive", filenameExtension: nil, mimeType: nil, conforms: [.data],
            conformsNot: [.content]),
        Row(
            type: .compositeContent, identifier: "public.composite-content", filenameExtension: nil, mimeType: nil,
            conforms: [.content], conformsNot: [.data]),
        Row(
            type: .directory, identifier: "public.directory", filenameExtension: nil, mimeType: nil,
            conforms: [.item], conformsNot: [.data, .folder]),
        Row(
            type: .folder, identifier: "public.folder", filenameExtension: nil, mimeType: nil,
            conforms: [.directory, .item], conformsNot: [.data, .content]),
        Row(
            type: .url, identifier: "public.url", filenameExtension: nil, mimeType: nil, conforms: [.data],
            conformsNot: [.text]),
        Row(
            type: .fileURL, identifier: "public.file-url", filenameExtension: nil, mimeType: nil,
            conforms: [.url, .data], conformsNot: [.folder]),
    ]

    @Test(arguments: rows)
    func aCommonTypeHasApplesIdentifierTagsAndPlace(_ row: Row) {
        #expect(row.type.identifier == row.identifier)
        #expect(row.type.isDeclared)
        #expect(UTType(row.identifier) == row.type)
        #expect(row.type.preferredFilenameExtension == row.filenameExtension)
        #expect(row.type.preferredMIMEType == row.mimeType)
        for parent in row.conforms { #expect(row.type.conforms(to: parent), "conforms to \(parent)") }
        for other in row.conformsNot { #expect(!row.type.conforms(to: other), "does not conform to \(other)") }
        if let filenameExtension = row.filenameExtension {
            #expect(UTType(filenameExtension: filenameExtension) == row.type)
            #expect(UTType(filenameExtension: filenameExtension.uppercased()) == row.type)
        }
        if let mimeType = row.mimeType { #expect(UTType(mimeType: mimeType) == row.type) }
    }

    @Test func documentExtensionsBesidesThePreferredOneGiveTheirType() {
        let rows: [(String, UTType?)] = [
            ("text", .plainText), ("htm", .html), ("wave", .wav), ("aif", .aiff),
            ("psd", UTType("com.adobe.photoshop-image")),
            ("JSON", .json), ("json5", nil),
        ]
        for (filenameExtension, type) in rows {
            #expect(UTType(filenameExtension: filenameExtension) == type, "\(filenameExtension)")
        }
        #expect(UTType(filenameExtension: "json", conformingTo: .image) == nil, "JSON is not an image")
        #expect(UTType(filenameExtension: "txt", conformingTo: .text) == .plainText)
    }
}
