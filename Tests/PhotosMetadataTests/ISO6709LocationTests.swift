import Foundation
import Testing

@testable import PhotosMetadata

/// How movies' ISO 6709 location strings (QuickTime's `com.apple.quicktime.location.ISO6709` key,
/// the `©xyz` user data atom) are read: every form the standard allows for a point, and nothing
/// malformed.
@Suite struct ISO6709LocationTests {
    /// A string and the point it states (latitude, longitude, altitude).
    struct Row: CustomTestStringConvertible, Sendable {
        let text: String
        let latitude: Double
        let longitude: Double
        let altitude: Double?
        let source: String

        init(_ text: String, _ latitude: Double, _ longitude: Double, _ altitude: Double? = nil, _ source: String) {
            (self.text, self.latitude, self.longitude, self.altitude, self.source) =
                (text, latitude, longitude, altitude, source)
        }

        var testDescription: String { "\(source): \(text.debugDescription)" }
    }

    @Test(arguments: [
        // What iPhones write (the corpus's movies; ExifTool reads the same numbers).
        Row("+32.0929+034.8620+028.516/", 32.0929, 34.862, 28.516, "iPhone IMG_0420.MOV"),
        Row("+39.0513-094.2888+260.561/", 39.0513, -94.2888, 260.561, "iPhone IMG_5195.MOV"),
        Row("+52.4597+013.3220+051.178/", 52.4597, 13.322, 51.178, "iPhone IMG_1500.MOV"),
        // Android's MediaMuxer: four decimals, no altitude.
        Row("+37.4220-122.0841/", 37.422, -122.0841, nil, "Android MediaMuxer"),
        // The standard's examples (ISO 6709:2008 Annex H).
        Row("+40.20361-075.00417CRSxxxx/", 40.20361, -75.00417, nil, "Annex H degrees"),
        Row("+4012.22-07500.25CRSxxxx/", 40 + 12.22 / 60, -(75 + 0.25 / 60), nil, "Annex H minutes"),
        Row(
            "+401213.1-0750015.1CRSxxxx/", 40 + 12.0 / 60 + 13.1 / 3600, -(75 + 0.0 / 60 + 15.1 / 3600), nil,
            "Annex H seconds"),
        Row("+40-075CRSxxxx/", 40, -75, nil, "Annex H whole degrees"),
        Row("+4012-07500CRSxxxx/", 40.2, -75, nil, "Annex H whole minutes"),
        Row("+401213-0750015CRSxxxx/", 40 + 12.0 / 60 + 13.0 / 3600, -(75 + 15.0 / 3600), nil, "Annex H whole seconds"),
        Row("+40.20361-075.00417+350.517CRSxxxx/", 40.20361, -75.00417, 350.517, "Annex H with height"),
        Row("+27.5916+086.5640+8850CRSWGS_84/", 27.5916, 86.564, 8850, "Mount Everest"),
        Row("-90+000+2800CRSWGS_84/", -90, 0, 2800, "South Pole"),
        Row("+90+000/", 90, 0, nil, "North Pole"),
        Row("+00-025/", 0, -25, nil, "Atlantic Ocean"),
        Row("+46+002/", 46, 2, nil, "France"),
        Row("+48.52+002.20/", 48.52, 2.2, nil, "Paris"),
        Row("+48.8577+002.295/", 48.8577, 2.295, nil, "Eiffel Tower"),
        Row("+40.75-074.00/", 40.75, -74, nil, "New York City"),
        Row("+40.6894-074.0447/", 40.6894, -74.0447, nil, "Statue of Liberty"),
        // Longitudes of three degree digits near Greenwich, and every hemisphere.
        Row("+51.4169-000.0806/", 51.4169, -0.0806, nil, "Greenwich, west"),
        Row("-33.8568+151.2153/", -33.8568, 151.2153, nil, "Sydney"),
        Row("-3351.408+15112.918/", -(33 + 51.408 / 60), 151 + 12.918 / 60, nil, "Sydney in minutes"),
        Row("-335124.48+1511255.08/", -(33 + 51.0 / 60 + 24.48 / 3600), 151 + 12.0 / 60 + 55.08 / 3600, nil, "seconds"),
        Row("-00.5000-000.5000/", -0.5, -0.5, nil, "south and west of 0°"),
        Row("-0030-00030/", -0.5, -0.5, nil, "minutes south and west of 0°"),
        Row("+00+180/", 0, 180, nil, "antimeridian"),
        Row("-90.0000-180.0000/", -90, -180, nil, "both limits"),
        Row("+895959.9999+1795959.9999/", 90 - 0.0001 / 3600, 180 - 0.0001 / 3600, nil, "just inside the limits"),
        // Altitudes.
        Row("+40.7484-073.9857+057.000/", 40.7484, -73.9857, 57, "altitude"),
        Row("+40.7484-073.9857-010.5/", 40.7484, -73.9857, -10.5, "below the surface"),
        Row("+31.5590+035.4732-430/", 31.559, 35.4732, -430, "whole metres below"),
        Row("+35.6895+139.6917+040CRSWGS_84/", 35.6895, 139.6917, 40, "altitude and CRS"),
        Row("+35.6895+139.6917+040CRSWGS_84", 35.6895, 139.6917, 40, "CRS without /"),
        Row("+35.6895+139.6917CRSEPSG:4326/", 35.6895, 139.6917, nil, "EPSG code"),
        // Without the closing /, and padded as muxers leave it.
        Row("+40.7484-073.9857", 40.7484, -73.9857, nil, "no /"),
        Row("+40.7484-073.9857+057.000", 40.7484, -73.9857, 57, "altitude, no /"),
        Row("+40-075", 40, -75, nil, "whole degrees, no /"),
        Row("+40.7484-073.9857/\0\0\0\0", 40.7484, -73.9857, nil, "NUL padding"),
        Row("+40.7484-073.9857/\0garbage", 40.7484, -73.9857, nil, "text after NUL"),
        Row("+40.7484-073.9857+057.000/   ", 40.7484, -73.9857, 57, "space padding"),
        Row("+40.7484-073.9857/\r\n", 40.7484, -73.9857, nil, "line end"),
        Row(" \t+40.7484-073.9857/ \0", 40.7484, -73.9857, nil, "white space both ends"),
    ])
    func everyFormOfAPointIsRead(row: Row) throws {
        let point = try #require(ISO6709Location(parsing: row.text))
        #expect(abs(point.latitude - row.latitude) < 1e-9)
        #expect(abs(point.longitude - row.longitude) < 1e-9)
        if let altitude = row.altitude {
            #expect(abs(try #require(point.altitude) - altitude) < 1e-9)
        } else {
            #expect(point.altitude == nil)
        }
    }

    @Test(arguments: [
        // Minutes or seconds of 60 or more.
        "+4060-07500/", "+4012.5-07560.0/", "+4059.99-07560/", "+401260-0750000/", "+401200-0750060.5/",
        "+401200-0756000/",
        // Beyond the poles and the antimeridian, in every form.
        "+90.0001+000/", "+91+000/", "-90.5+000/", "+9000.5+00000/", "+900000.1+0000000/",
        "+45+180.0001/", "+45-181/", "+45+18000.5/", "+45+1800001/", "+99.9999+000.0000/",
        // A missing sign, on any part.
        "40.7484-073.9857/", "+40.7484073.9857/", "+40.7484-073.9857057.000/", "+40.7484 -073.9857/",
        // Digit counts that fit no form.
        "+4-075/", "+040-075/", "+401-07500/", "+40121-0750012/", "+4012131-07500151/", "+40-75/",
        "+40-0750/", "+40-075001/", "+40.7484-73.9857/", "+4.7484-073.9857/",
        // A decimal sign without digits, or the wrong one.
        "+40.-075./", "+40-075./", "+.5-075/", "+40,7484-073,9857/",
        // An empty or dangling part.
        "+40.7484-073.9857+/", "+40.7484-073.9857CRS/", "+40.7484-/", "+40.7484/", "+/", "+-/",
        // More than one point, or more than three numbers.
        "+40-075/+41-076/", "+40.7484-073.9857+057.000+012/", "+40--075/", "+40+-075/",
        // Other text.
        "", " ", "\0", "/", "hello", "N40.7484 W73.9857", "40.7484, -73.9857", "+40.7484-073.9857/x",
        "+40.7484-073.9857 nonsense", "+40.7484-073.9857//", "x+40.7484-073.9857/", "+40.7484e1-073.9857/",
        "+inf-073.9857/", "+nan+000/", "+40.7484-073.9857+1e400/",
    ])
    func malformedStringGivesNoLocation(text: String) {
        #expect(ISO6709Location(parsing: text) == nil)
    }

    @Test(
        arguments: [
            (91.0, 0.0, nil), (-90.000001, 0.0, nil), (0.0, 180.5, nil), (0.0, -181.0, nil), (.nan, 0.0, nil),
            (0.0, .infinity, nil), (0.0, 0.0, Double.nan),
        ] as [(Double, Double, Double?)])
    func outOfRangeNumbersGiveNoPoint(latitude: Double, longitude: Double, altitude: Double?) {
        #expect(ISO6709Location(latitude: latitude, longitude: longitude, altitude: altitude) == nil)
    }

    // MARK: Through a movie file

    static let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)

    static func extract(_ bytes: [UInt8]) throws -> FileMetadata {
        let directory = try TemporaryDirectory()
        return try extractor.extract(path: directory.write(bytes, to: "MOVIE.MOV"))
    }

    /// A QuickTime user data text atom: length, language, text.
    static func userDataText(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF), 0x15, 0xC7] + bytes
    }

    @Test func userDataAtomOfAnAndroidMovieGivesItsLocation() throws {
        let movie = MovieBuilder.movie(samples: [(30, 20)], userData: [("©xyz", Self.userDataText("+4012.5-07500/"))])
        let metadata = try Self.extract(movie)
        #expect(metadata.latitude == 40 + 12.5 / 60)
        #expect(metadata.longitude == -75)
        #expect(metadata.altitude == nil)
    }

    /// The `©` atoms beside `©xyz` (byte 0xA9, not UTF-8) are found by the same type reading.
    @Test func userDataDateAndCameraAtomsAreReadBesideTheLocation() throws {
        let movie = MovieBuilder.movie(
            samples: [(30, 20)],
            userData: [
                ("©day", Self.userDataText("2020-11-20T15:04:02+0100")), ("©mak", Self.userDataText("Google")),
                ("©mod", Self.userDataText("Pixel 7")), ("©xyz", Self.userDataText("+52.3693+006.6761/")),
            ])
        let metadata = try Self.extract(movie)
        #expect(metadata.make == "Google" && metadata.model == "Pixel 7")
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_605_881_042))
        #expect(metadata.creationDateOffset == 3600)
        #expect(metadata.latitude == 52.3693 && metadata.longitude == 6.6761)
    }

    @Test func malformedKeyLeavesTheUserDataAtomToSpeak() throws {
        let movie = MovieBuilder.movie(
            samples: [(30, 20)], textKeys: ["com.apple.quicktime.location.ISO6709": "+4060-07500/"],
            userData: [("©xyz", Self.userDataText("+48.8577+002.295+035.5/\0"))])
        let metadata = try Self.extract(movie)
        #expect(metadata.latitude == 48.8577)
        #expect(metadata.longitude == 2.295)
        #expect(metadata.altitude == 35.5)
    }

    @Test func malformedStringsAloneGiveNoLocation() throws {
        let movie = MovieBuilder.movie(
            samples: [(30, 20)], textKeys: ["com.apple.quicktime.location.ISO6709": "+91.0000-073.9857/"],
            userData: [("©xyz", Self.userDataText("40.7484-073.9857/"))])
        let metadata = try Self.extract(movie)
        #expect(metadata.latitude == nil && metadata.longitude == nil && metadata.altitude == nil)
    }

    @Test func threeGPPLocationBoxIsHeldToTheSameRanges() throws {
        func loci(longitude: Int32, latitude: Int32) -> [UInt8] {
            // Version and flags, language, an empty name, role, then 16.16 longitude, latitude, altitude.
            MovieBuilder.zeros(4) + [0x15, 0xC7, 0, 0] + MovieBuilder.be32(UInt32(bitPattern: longitude))
                + MovieBuilder.be32(UInt32(bitPattern: latitude)) + MovieBuilder.be32(10 << 16)
        }
        let good = try Self.extract(
            MovieBuilder.movie(samples: [(30, 20)], userData: [("loci", loci(longitude: 6 << 16, latitude: 52 << 16))]))
        #expect(good.latitude == 52 && good.longitude == 6 && good.altitude == 10)
        let bad = try Self.extract(
            MovieBuilder.movie(samples: [(30, 20)], userData: [("loci", loci(longitude: 6 << 16, latitude: 95 << 16))]))
        #expect(bad.latitude == nil && bad.longitude == nil)
    }

    // MARK: The corpus

    /// Every corpus movie that ExifTool finds a location in (QuickTime keys on the iPhone movies,
    /// a 3GPP `loci` box on the Android one) is read to the same point; the others have none.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json"))
    func corpusMoviesHaveExifToolsLocation() throws {
        let movies = Corpus.ingestable.filter { $0.kind == "video" }
        let located = movies.filter { $0.lat != nil }
        // Four iPhone movies with an ISO 6709 key and one Android movie with `loci`.
        #expect(located.count >= 5)
        for record in movies {
            let metadata = try Self.extractor.extract(path: record.url.path)
            let matches =
                switch (metadata.latitude, metadata.longitude, record.lat, record.lon) {
                case (nil, nil, nil, nil): true
                case let (lat?, lon?, truthLat?, truthLon?): abs(lat - truthLat) < 1e-5 && abs(lon - truthLon) < 1e-5
                default: false
                }
            #expect(matches, "\(record.path): ours \(metadata.latitude as Any), \(metadata.longitude as Any)")
            if let truth = record.alt {
                #expect(abs((metadata.altitude ?? .nan) - truth) < 0.01, "\(record.path): altitude")
            }
        }
    }
}
