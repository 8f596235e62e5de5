import Foundation
import PhotosCore
import Testing

@testable import PhotosStore

/// A deleted or trashed asset's kept record (``AssetRecord/keptJSON()``), written without
/// `JSONEncoder`: it must read back as the record it was, hold the fields `JSONEncoder` would have
/// written and no others, and refuse what JSON cannot hold, as `JSONEncoder` does.
struct AssetRecordJSONTests {
    /// A record with every field set, strings that need escaping, and numbers at their edges.
    static func full(_ generator: inout some RandomNumberGenerator) -> AssetRecord {
        var record = AssetRecord(
            localIdentifier: "\(UUID().uuidString)/L0/001", mediaType: .video,
            addedDate: Date(timeIntervalSince1970: .random(in: 0...2_000_000_000, using: &generator)),
            creationDate: Date(timeIntervalSince1970: .random(in: -1e10...1e10, using: &generator)))
        record.id = .random(in: 1...Int64.max, using: &generator)
        record.mediaSubtypes = .random(in: 0...1 << 40, using: &generator)
        record.sourceType = 1
        record.pixelWidth = .random(in: 0...100_000, using: &generator)
        record.pixelHeight = .random(in: 0...100_000, using: &generator)
        record.creationDateOffset = .random(in: -50_400...50_400, using: &generator)
        record.creationDateIsFloating = .random(using: &generator)
        record.creationDateIsFileTime = .random(using: &generator)
        record.modificationDate = [5e-324, 1e-5, 0.1, 1e16, 1.7976931348623157e308, -0.0].randomElement(
            using: &generator)
        record.latitude = .random(in: -90...90, using: &generator)
        record.longitude = .random(in: -180...180, using: &generator)
        record.altitude = .random(in: -400...9000, using: &generator)
        record.speed = .random(in: 0...300, using: &generator)
        record.course = .random(in: 0..<360, using: &generator)
        record.duration = .random(in: 0...36_000, using: &generator)
        record.isFavorite = .random(using: &generator)
        record.isHidden = .random(using: &generator)
        record.burstIdentifier = "burst \"7\"\\\n\t\u{1}"
        record.burstSelectionTypes = .random(in: 0...3, using: &generator)
        record.representsBurst = .random(using: &generator)
        record.adjustmentFormatIdentifier = "com.example/édition ✂︎ 🖼"
        record.isRAW = .random(using: &generator)
        record.rating = .random(in: -1...5, using: &generator)
        record.isSelfie = .random(using: &generator)
        record.make = "NIKON\u{0}CORPORATION"
        record.model = "D\u{7F}850 </script>"
        record.originalResourceChoice = .random(in: 0...1, using: &generator)
        return record
    }

    /// The JSON's fields, as `JSONSerialization` reads them.
    static func fields(_ json: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    @Test func aKeptRecordReadsBackAsItWasWithTheFieldsJSONEncoderWrites() throws {
        var generator = SystemRandomNumberGenerator()
        var plain = AssetRecord(localIdentifier: "P/L0/001", mediaType: .image)
        plain.id = 7
        for record in (0..<200).map({ _ in Self.full(&generator) }) + [plain] {
            let json = Data(try record.keptJSON().utf8)
            #expect(try JSONDecoder().decode(AssetRecord.self, from: json) == record)
            let encoded = try JSONEncoder().encode(record)
            let (ours, theirs) = (try Self.fields(json), try Self.fields(encoded))
            #expect(Set(ours.keys) == Set(theirs.keys), "\(record.localIdentifier)")
            // Flags are JSON's booleans, as the store's SQL reads them (`jsonKind`).
            for column in AssetRecord.columnNames where AssetRecord.jsonKind(of: column) == .flag {
                #expect(ours[column] is Bool && (ours[column] as? Bool) == (theirs[column] as? Bool), "\(column)")
            }
        }
        // A record without any optional field writes none of them.
        let fields = try Self.fields(
            Data(try AssetRecord(localIdentifier: "N/L0/001", mediaType: .audio).keptJSON().utf8))
        #expect(fields["id"] == nil && fields["latitude"] == nil && fields["make"] == nil)
    }

    /// A trashed asset's resources and albums, kept the same way.
    @Test func keptResourcesAndMembershipsReadBackAsTheyWereWithTheFieldsJSONEncoderWrites() throws {
        var full = ResourceRecord(
            assetId: 9, type: 1, path: "/p/caf\u{EFE9} \"1\"\\.jpg", uniformTypeIdentifier: "public.jpeg",
            mimeType: "image/jpeg", fileSize: 1 << 40, originalFilename: "IMG\t1.JPG")
        full.id = 3
        full.device = -1
        full.inode = Int64.max
        full.modificationTime = 1_700_000_000.123456
        full.contentHash = "ab12"
        full.contentIdentifier = "C-1"
        full.isLibraryOwned = true
        full.pixelWidth = 4032
        full.pixelHeight = 3024
        let plain = ResourceRecord(
            assetId: 1, type: 2, path: "/p/a.mov", uniformTypeIdentifier: nil, mimeType: nil, fileSize: 0,
            originalFilename: "a.mov")
        let json = Data(KeptJSON.array([try full.keptJSON(), try plain.keptJSON()]).utf8)
        #expect(try JSONDecoder().decode([ResourceRecord].self, from: json) == [full, plain])
        for record in [full, plain] {
            let ours = try Self.fields(Data(try record.keptJSON()))
            #expect(Set(ours.keys) == Set(try Self.fields(try JSONEncoder().encode(record)).keys))
        }
        let memberships = [TrashedMembership(collectionId: 4, position: -2), .init(collectionId: 5, position: 0)]
        let kept = Data(KeptJSON.array(try memberships.map { try $0.keptJSON() }).utf8)
        let read = try JSONDecoder().decode([TrashedMembership].self, from: kept)
        #expect(read.map(\.collectionId) == [4, 5] && read.map(\.position) == [-2, 0])
        #expect(KeptJSON.array([]) == "[]")
    }

    @Test func aNumberJSONCannotHoldIsRefusedAsJSONEncoderRefusesIt() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            var record = AssetRecord(localIdentifier: "X/L0/001", mediaType: .image)
            record.latitude = value
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
            #expect(throws: EncodingError.self) { try record.keptJSON() }
        }
    }
}
