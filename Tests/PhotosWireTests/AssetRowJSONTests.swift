import Foundation
import GRDB
import PhotosCore
import PhotosStore
import PhotosTestSupport
import PhotosWire
import Testing

/// The asset JSON written straight from the store's rows (``DescriptionReader/writeAssets(rowIDs:as:into:naming:)``)
/// is byte for byte what the descriptions of the same rows give through their `Codable` encoding
/// (`JSONEncoder`), over a library of awkward values: text needing every escape, bytes that are not
/// UTF-8 or hold a NUL, dates outside the hand-made formatter's domain, missing values, offline files.
@Suite struct AssetRowJSONTests {
    final class Library: Sendable {
        let directory: TemporaryDirectory
        let database: LibraryDatabase
        let ids: [Int64]
        let timeZone = TimeZone(identifier: "America/New_York")!
        static let offline = "/offline root"

        static let texts =
            WireJSONWriterTests.awkward.filter { !$0.contains("\u{0}") } + [
                "a/b", "Ünïcödé/ファイル.jpg",
                // Escapes and non-ASCII at each place of an eight-byte word, and the widest ASCII byte.
                "abcdefg\"hijklmno\\pqrstuvwxyz0123\u{1f}4567", "ABCDEFGH\u{7f}IJKLMNOPQRSTUVWXé", "1234567\t",
            ]
        static let dates: [Double] = [
            0, 1_700_000_000, 1_700_000_000.25, 1_600_000_000.999_6, -1_000_000_000,
            -25_000_000_000,  // 1177: before the Gregorian switch, through Foundation
            300_000_000_000,  // 11476: after 9999, through Foundation
            1_710_054_000,  // the night New York's clocks went forward (2024-03-10)
        ]

        init() throws {
            directory = try TemporaryDirectory(prefix: "asset-row-json")
            let path = directory.path("library.sqlite").path
            let database = try LibraryDatabase(path: path)
            var random = SplitMix64(seed: 2026)
            func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
            func maybe<T>(_ value: T) -> T? { random.next() % 3 == 0 ? nil : value }
            var ids: [Int64] = []
            _ = try database.write { transaction in
                var albums: [Int64] = []
                for index in 0..<6 {
                    albums.append(
                        try transaction.insertCollection(
                            CollectionRecord(
                                localIdentifier: "album \(index) \(pick(Self.texts))", isList: false,
                                type: PHAssetCollectionType.album.rawValue,
                                subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: maybe(pick(Self.texts)),
                                position: Int(random.next() % 4), path: maybe("/pictures/\(pick(Self.texts))"),
                                createdDate: 0)))
                }
                var members: [Int64: [Int64]] = [:]
                for index in 0..<300 {
                    var asset = AssetRecord(
                        localIdentifier: "\(index) \(pick(Self.texts))/L0/001",
                        mediaType: PHAssetMediaType(rawValue: Int(random.next() % 5)) ?? .unknown)
                    asset.mediaSubtypes = Int64(random.next() % 0x4_0000)
                    asset.pixelWidth = Int(random.next() % 10_000)
                    asset.pixelHeight = index % 7 == 0 ? -1 : Int(random.next() % 10_000)
                    asset.creationDate = maybe(pick(Self.dates))
                    asset.creationDateOffset = maybe(pick([0, 3600, -18_000, 19_800, 50_400, 30]))
                    asset.creationDateIsFloating = random.next() % 2 == 0
                    asset.modificationDate = maybe(pick(Self.dates))
                    asset.latitude = maybe(pick(WireJSONWriterTests.numbers))
                    asset.longitude = maybe(pick(WireJSONWriterTests.numbers))
                    asset.altitude = maybe(pick(WireJSONWriterTests.numbers))
                    asset.duration = pick(WireJSONWriterTests.numbers)
                    asset.isFavorite = random.next() % 2 == 0
                    asset.isHidden = random.next() % 2 == 0
                    asset.burstIdentifier = maybe(pick(Self.texts))
                    asset.representsBurst = random.next() % 2 == 0
                    let root = random.next() % 4 == 0 ? Self.offline : "/pictures"
                    let resources = (0..<Int(random.next() % 4)).map { file in
                        ResourceRecord(
                            assetId: 0, type: Int(random.next() % 20),
                            path: "\(root)/\(index)-\(file) \(pick(Self.texts))",
                            uniformTypeIdentifier: maybe("public.jpeg"), mimeType: maybe(pick(Self.texts)),
                            fileSize: Int64(bitPattern: random.next()), originalFilename: "\(index).jpg")
                    }
                    let id = try transaction.insertAsset(asset, resources: resources)
                    ids.append(id)
                    for album in albums where random.next() % 4 == 0 { members[album, default: []].append(id) }
                }
                for (album, assets) in members {
                    try transaction.setMembers(ofCollection: try transaction.collection(id: album)!, to: assets)
                }
            }
            // What Swift never writes but a damaged or foreign file may hold: bytes that are not
            // UTF-8, and text with a NUL in it.
            try DatabaseQueue(path: path).write { db in
                try db.execute(
                    sql:
                        "UPDATE directory SET path = CAST(X'2F706963747572657302FF80C32F' AS TEXT) WHERE id = (SELECT directoryId FROM resource WHERE id = (SELECT MIN(id) FROM resource))"
                )
                try db.execute(
                    sql: "UPDATE asset SET burstIdentifier = CAST(X'4275727374005A' AS TEXT) WHERE id = ?",
                    arguments: [ids[4]])
                try db.execute(sql: "INSERT INTO root (path, isOffline) VALUES (?, 1)", arguments: [Self.offline])
            }
            self.ids = ids
            self.database = database
        }

        var reader: DescriptionReader { DescriptionReader(database: database, timeZone: timeZone) }
    }

    static let shared = Result { try Library() }
    var library: Library { get throws { try Self.shared.get() } }

    /// The descriptions of `ids` through their `Codable` encoding (the shape clients decode).
    func expectedLines(_ ids: [Int64]) throws -> [UInt8] {
        let encoder = WireJSON.makeEncoder()
        var encoded = Data()
        for description in try library.reader.assets(.rowIDs(ids)) {
            encoded += try encoder.encode(description) + Data("\n".utf8)
        }
        return Array(encoded)
    }

    @Test func linesAreTheDescriptionsWritten() throws {
        let library = try library
        var writer = WireJSONWriter()
        #expect(try library.reader.writeAssets(.rowIDs(library.ids), as: .line, into: &writer) == library.ids.count)
        let expected = try expectedLines(library.ids)
        // Bytes, not strings: decoding would repair bytes that are not UTF-8 on both sides alike.
        #expect(writer.bytes == expected)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(String(validating: writer.bytes, as: UTF8.self) != nil)
        // The awkward values are there to be written.
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(#""isAvailable":false"#) && text.contains(#""isAvailable":true"#))
        #expect(text.contains("\u{FFFD}"), "bytes that are not UTF-8 are repaired")
        #expect(text.contains(#""burstIdentifier":"Burst""#), "text ends at a NUL, as GRDB reads it")
        #expect(text.contains("1177-") && text.contains("11476-"), "dates through Foundation")
        #expect(text.contains(#"\u0002"#) && text.contains(#"\""#))
    }

    @Test func elementsOfAListingAreTheDescriptionsWritten() throws {
        let library = try library
        var direct = WireJSONWriter()
        direct.beginListing("assets")
        try library.reader.writeAssets(.rowIDs(Array(library.ids.prefix(100))), as: .element, into: &direct)
        try library.reader.writeAssets(.rowIDs(Array(library.ids.dropFirst(100))), as: .element, into: &direct)
        direct.endListing(next: "more")
        var described = WireJSONWriter()
        described.beginListing("assets")
        for asset in try library.reader.assets(.rowIDs(library.ids)) { described.appendElement(try AssetJSON(asset)) }
        described.endListing(next: "more")
        #expect(direct.bytes == described.bytes)
        let object = try JSONSerialization.jsonObject(with: Data(direct.bytes)) as? [String: Any]
        #expect((object?["assets"] as? [Any])?.count == library.ids.count)
    }

    /// An asset's files are in the store's order (type, then row id) and its albums in a collection
    /// fetch's (position, then row id), whatever order the rows came in: checked against the store's
    /// own queries, not the rules the reader shares with the writer.
    @Test func filesAndAlbumsAreInTheStoresOrder() throws {
        let library = try library
        let descriptions = try library.reader.assets(.rowIDs(library.ids))
        let resources = try library.database.resources(assetIDs: library.ids)
        var unsortedFiles = 0
        var unsortedAlbums = 0
        for (id, description) in zip(library.ids, descriptions) {
            let files = resources[id] ?? []
            #expect(description.resources.map(\.fileSize) == files.map(\.fileSize))
            if files.compactMap(\.id) != files.compactMap(\.id).sorted() { unsortedFiles += 1 }
            let albums = try library.database.collectionIDs(
                matching: CollectionQuery(scope: .containingAsset(id, type: .album)))
            let records = try library.database.collections(ids: albums)
            #expect(
                description.albums.map(\.localIdentifier) == albums.compactMap { records[$0]?.record.localIdentifier })
            if albums != albums.sorted() { unsortedAlbums += 1 }
        }
        // The library holds assets whose files and albums are not in row id order.
        #expect(unsortedFiles > 10 && unsortedAlbums > 10, "\(unsortedFiles) \(unsortedAlbums)")
    }

    /// Any order, repeats and ids with no asset: the order asked, each repeat written again, the
    /// missing skipped (their neighbours' albums and files stay theirs).
    @Test func idsInAnyOrderWithRepeatsAndGaps() throws {
        let library = try library
        var random = SplitMix64(seed: 5)
        for _ in 0..<20 {
            var ids = (0..<Int(random.next() % 40)).map { _ in
                library.ids[Int(random.next() % UInt64(library.ids.count))]
            }
            ids.insert(-1, at: Int(random.next() % UInt64(ids.count + 1)))
            ids.append(999_999)
            var writer = WireJSONWriter()
            let written = try library.reader.writeAssets(.rowIDs(ids), as: .line, into: &writer)
            #expect(written == ids.count - 2)
            #expect(writer.bytes == (try expectedLines(ids)))
        }
        var writer = WireJSONWriter()
        #expect(try library.reader.writeAssets(.rowIDs([]), as: .line, into: &writer) == 0 && writer.bytes.isEmpty)
    }

    /// A number JSON cannot hold stops the writing at its asset, as JSONEncoder would: the assets
    /// before it are written whole, nothing of it is.
    /// Each asset's JSON apart (a hook's payload, a live query) is the listing's, cut at its
    /// objects; a limited client's JSON names only its albums, and is otherwise the same.
    @Test func assetsApartAndAssetsNamingSomeAlbumsAreTheDescriptionsWritten() throws {
        let library = try library
        var lines = WireJSONWriter()
        try library.reader.writeAssets(.rowIDs(library.ids), as: .line, into: &lines)
        let apart = try library.reader.assetJSON(.rowIDs(library.ids))
        let descriptions = try library.reader.assets(.rowIDs(library.ids))
        #expect(apart.map(\.localIdentifier) == descriptions.map(\.localIdentifier))
        #expect(apart.flatMap { $0.bytes + [UInt8(ascii: "\n")] } == lines.bytes)

        let albums = Array(Set(descriptions.flatMap { $0.albums.map(\.localIdentifier) })).sorted()
        try #require(albums.count >= 2, "the library has albums to leave out")
        let named = Set(albums.prefix(albums.count / 2))
        var limited = WireJSONWriter()
        try library.reader.writeAssets(.rowIDs(library.ids), as: .line, into: &limited, naming: named)
        var expected = Data()
        for var description in descriptions {
            description.albums = description.albums.filter { named.contains($0.localIdentifier) }
            expected += try WireJSON.makeEncoder().encode(description) + Data("\n".utf8)
        }
        #expect(limited.bytes == Array(expected))
        #expect(limited.bytes != lines.bytes, "some album was left out")
        let limitedApart = try library.reader.assetJSON(.rowIDs(library.ids), naming: named)
        #expect(limitedApart.flatMap { $0.bytes + [UInt8(ascii: "\n")] } == limited.bytes)
    }

    @Test func aNumberJSONCannotHoldIsAnErrorAtItsAsset() throws {
        let directory = try TemporaryDirectory(prefix: "asset-row-json-nan")
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let ids = try database.write { transaction in
            try (0..<3).map { index in
                var asset = AssetRecord(localIdentifier: "A\(index)/L0/001", mediaType: .image)
                asset.duration = index == 1 ? .infinity : 1
                return try transaction.insertAsset(asset)
            }
        }.value
        let reader = DescriptionReader(database: database, timeZone: .gmt)
        for form in [WireJSONWriter.Form.line, .element] {
            var writer = WireJSONWriter()
            #expect(throws: EncodingError.self) { try reader.writeAssets(.rowIDs(ids), as: form, into: &writer) }
            var before = WireJSONWriter()
            try reader.writeAssets(.rowIDs([ids[0]]), as: form, into: &before)
            #expect(writer.bytes == before.bytes)
        }
    }
}
