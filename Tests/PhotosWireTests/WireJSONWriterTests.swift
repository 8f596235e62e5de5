import Foundation
import PhotosTestSupport
import PhotosWire
import Testing

/// ``WireJSONWriter`` writes what `JSONEncoder` (sorted keys, slashes unescaped) writes, byte for byte;
/// asset descriptions read back what their encoding writes.
@Suite struct WireJSONWriterTests {
    /// Text that needs every kind of escape, and some that needs none.
    static let awkward = [
        "", "plain", "/home/me/Pictures/a.jpg", "quote \" and backslash \\", "tab\tnew\nline\rreturn",
        "\u{8}\u{c}\u{0}\u{1}\u{1f}\u{7f}", "été 日本 😀 \u{2028}\u{2029}", "\u{EF80}\u{EFFF} undecodable bytes",
    ]
    static let numbers: [Double] = [
        0, -0.0, 3, 12.5, 43.55, 1e-7, 1e15, 1e16, 1e21, 0.1 + 0.2, -179.999_999, .leastNonzeroMagnitude,
    ]

    static func asset(_ index: Int, random: inout SplitMix64) -> AssetDescription {
        func text() -> String { awkward[Int(random.next() % UInt64(awkward.count))] }
        func maybe<T>(_ value: T) -> T? { random.next() % 3 == 0 ? nil : value }
        func number() -> Double { numbers[Int(random.next() % UInt64(numbers.count))] }
        let albums = (0..<Int(random.next() % 3)).map { _ in
            AssetDescription.Album(localIdentifier: text(), localizedTitle: maybe(text()), path: maybe(text()))
        }
        let resources = (0..<Int(random.next() % 3)).map { _ in
            AssetDescription.Resource(
                type: text(), path: text(), uniformTypeIdentifier: text(), mimeType: maybe(text()),
                fileSize: Int64(bitPattern: random.next()))
        }
        return AssetDescription(
            localIdentifier: text(), mediaType: text(), mediaSubtypes: (0..<Int(random.next() % 3)).map { _ in text() },
            pixelWidth: Int(truncatingIfNeeded: random.next()), pixelHeight: index, creationDate: maybe(text()),
            creationDateHasOffset: random.next() % 2 == 0, modificationDate: maybe(text()), duration: number(),
            location: maybe(
                AssetDescription.Location(latitude: number(), longitude: number(), altitude: maybe(number()))),
            isFavorite: random.next() % 2 == 0, isHidden: random.next() % 2 == 0, burstIdentifier: maybe(text()),
            representsBurst: random.next() % 2 == 0, isAvailable: random.next() % 2 == 0,
            isLibraryOwned: random.next() % 2 == 0, resources: resources, albums: albums)
    }

    /// Asset JSON is written from the store's rows (`AssetRowJSONTests` holds those bytes to the
    /// `Codable` encoding); the description reads back what its encoding writes, awkward text and all.
    @Test func assetDescriptionsReadBackWhatTheirEncodingWrites() throws {
        var random = SplitMix64(seed: 7)
        let encoder = WireJSON.makeEncoder()
        for index in 0..<2_000 {
            let asset = Self.asset(index, random: &random)
            let json = try AssetJSON(asset)
            #expect(json.bytes == Array(try encoder.encode(asset)) && json.localIdentifier == asset.localIdentifier)
            #expect(try JSONDecoder().decode(AssetDescription.self, from: Data(json.bytes)) == asset)
        }
    }

    @Test func collectionsAreWrittenAsJSONEncoderWritesThem() throws {
        var random = SplitMix64(seed: 11)
        let encoder = WireJSON.makeEncoder()
        for _ in 0..<500 {
            func text() -> String? {
                let value = Self.awkward[Int(random.next() % UInt64(Self.awkward.count))]
                return random.next() % 3 == 0 ? nil : value
            }
            let collection = CollectionDescription(
                localIdentifier: text() ?? "id", localizedTitle: text(), type: text() ?? "album",
                subtype: text() ?? "albumRegular",
                estimatedAssetCount: random.next() % 2 == 0 ? Int(random.next() % 9) : nil,
                path: text(), parentLocalIdentifier: text(), startDate: text(), endDate: text())
            var writer = WireJSONWriter()
            writer.append(collection)
            #expect(
                String(decoding: writer.bytes, as: UTF8.self)
                    == String(decoding: try encoder.encode(collection), as: UTF8.self))
        }
    }

    @Test func everyAssetKeyIsWrittenEvenWhenEmpty() throws {
        let asset = AssetDescription(
            localIdentifier: "A/L0/001", mediaType: "image", mediaSubtypes: [], pixelWidth: 0, pixelHeight: 0,
            creationDate: nil, creationDateHasOffset: true, modificationDate: nil, duration: 0, location: nil,
            isFavorite: false, isHidden: false, burstIdentifier: nil, representsBurst: false, isAvailable: true,
            resources: [],
            albums: [AssetDescription.Album(localIdentifier: "B/L0/040", localizedTitle: nil, path: nil)])
        #expect(
            String(decoding: try WireJSON.makeEncoder().encode(asset), as: UTF8.self)
                == """
                {"albums":[{"localIdentifier":"B/L0/040","localizedTitle":null,"path":null}],"burstIdentifier":null,\
                "creationDate":null,"creationDateHasOffset":true,"creationDateIsFileTime":false,"duration":0,"isAvailable":true,"isFavorite":false,\
                "isHidden":false,"isLibraryOwned":false,"localIdentifier":"A/L0/001","location":null,"mediaSubtypes":[],"mediaType":"image",\
                "modificationDate":null,"pixelHeight":0,"pixelWidth":0,"rating":0,"representsBurst":false,"resources":[]}
                """)
        // JSON written before `albums` existed still reads.
        let old = try JSONDecoder().decode(
            AssetDescription.self,
            from: Data(
                """
                {"burstIdentifier":null,"creationDate":null,"creationDateHasOffset":true,"duration":0,\
                "isAvailable":true,"isFavorite":false,"isHidden":false,"localIdentifier":"A/L0/001","location":null,\
                "mediaSubtypes":[],"mediaType":"image","modificationDate":null,"pixelHeight":0,"pixelWidth":0,\
                "representsBurst":false,"resources":[]}
                """.utf8))
        #expect(old.albums.isEmpty && old.localIdentifier == "A/L0/001")
    }

    @Test func numbersJSONCannotHoldAreRefusedAsJSONEncoderRefusesThem() {
        var asset = AssetDescription(
            localIdentifier: "A", mediaType: "video", mediaSubtypes: [], pixelWidth: 1, pixelHeight: 1,
            creationDate: nil, creationDateHasOffset: true, modificationDate: nil, duration: .infinity, location: nil,
            isFavorite: false, isHidden: false, burstIdentifier: nil, representsBurst: false, isAvailable: true,
            resources: [], albums: [])
        #expect(throws: EncodingError.self) { try AssetJSON(asset) }
        #expect(throws: EncodingError.self) { try WireJSON.makeEncoder().encode(asset) }
        asset.duration = 1
        asset.location = AssetDescription.Location(latitude: .nan, longitude: 0, altitude: nil)
        #expect(throws: EncodingError.self) { try AssetJSON(asset) }
    }
}
