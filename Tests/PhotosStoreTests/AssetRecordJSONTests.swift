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

    @Test func aNumberJSONCannotHoldIsRefusedAsJSONEncoderRefusesIt() throws {
        for value in [Double.nan, .infinity, -.infinity] {
            var record = AssetRecord(localIdentifier: "X/L0/001", mediaType: .image)
            record.latitude = value
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
            #expect(throws: EncodingError.self) { try record.keptJSON() }
        }
    }
}
