import Foundation
import PhotosCore
import PhotosWire
import Testing

/// `POST /v1/changes`'s body: decoded strictly (an unknown op, an unknown or missing field, a value
/// of the wrong type is an error, never skipped), encoded back to the same JSON, and its
/// placeholders checked before anything is applied.
@Suite struct ChangeBatchTests {
    typealias Operation = API.ChangeOperation

    static func decode(_ json: String) throws -> API.ChangeBatch {
        try JSONDecoder().decode(API.ChangeBatch.self, from: Data(json.utf8))
    }

    /// A creation date is a date that exists, at an offset some zone has; Foundation's formatter
    /// would roll `2020-02-30` over to March and read `+25:00` as `+02:00`.
    @Test(arguments: [
        "2020-02-30T12:00:00Z", "2021-02-29T12:00:00Z", "2020-01-01T24:00:00Z", "2020-01-01T12:60:00Z",
        "2020-01-01T12:00:60Z", "2020-01-01T12:00:00+25:00", "2020-01-01T12:00:00+99:99", "2020-01-01T12:00:00+14:01",
        "0000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "2020-13-01T00:00:00Z", "2020-00-10T00:00:00Z",
        "2020-01-01T12:00:00", "2020-01-01T12:00:00.Z", "2020-01-01 12:00:00Z", "2020-1-01T12:00:00Z",
    ])
    func aCreationDateThatDoesNotExistIsRefused(text: String) {
        let json = #"{"changes": [{"op": "editAsset", "asset": "A/L0/001", "creationDate": "\#(text)"}]}"#
        #expect(throws: (any Error).self, "\(text)") { try Self.decode(json) }
    }

    /// A date the library writes is read back the same, before 1583 too (ICU's Julian calendar, which
    /// the writer uses there); fractions past the millisecond are dropped, never carried into the
    /// next second and day.
    @Test(arguments: [
        ("1500-06-15T12:00:00+00:00", "1500-06-15T12:00:00+00:00"),
        ("1500-02-29T12:00:00+00:00", "1500-02-29T12:00:00+00:00"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00+00:00"),
        ("1582-12-01T08:30:00+02:00", "1582-12-01T08:30:00+02:00"),
        ("2024-12-31T23:59:59.9999999999Z", "2024-12-31T23:59:59.999+00:00"),
        ("2024-05-01T23:59:59.99999999-03:00", "2024-05-01T23:59:59.999-03:00"),
        ("2024-05-01T12:00:00.5+05:30", "2024-05-01T12:00:00.500+05:30"),
        ("9999-12-31T23:59:59.999-14:00", "9999-12-31T23:59:59.999-14:00"),
    ])
    func aDateReadIsWrittenBackAsItWasGiven(text: String, written: String) throws {
        let read = try #require(ISO8601Dates.dateAndOffset(from: text), "\(text)")
        #expect(ISO8601.string(read.date, offset: read.offset) == written)
        #expect(ISO8601Dates.dateAndOffset(from: written)?.date == read.date, "\(written)")
    }

    /// The offset a creation date is written with is kept (the photo's local day), and written back.
    @Test func aCreationDateKeepsItsOffset() throws {
        let batch = try Self.decode(
            #"{"changes": [{"op": "editAsset", "asset": "A/L0/001", "creationDate": "2020-01-01T02:00:00.5+05:30"}]}"#)
        let edit = API.ChangeOperation.EditAsset(
            asset: "A/L0/001", creationDate: .some(Date(timeIntervalSince1970: 1_577_824_200.5)),
            creationDateOffset: 19_800)
        #expect(batch.changes == [.editAsset(edit)])
        let written = String(decoding: try JSONEncoder().encode(edit), as: UTF8.self)
        #expect(written.contains(#""creationDate":"2020-01-01T02:00:00.500+05:30""#), "\(written)")
    }

    @Test func everyOperationDecodesFromItsJSON() throws {
        let batch = try Self.decode(
            #"""
            {"changes": [
              {"op": "createAsset", "path": "/in/a.jpg", "ref": "pic"},
              {"op": "createAsset", "path": "/in/b.mov", "type": "video", "move": true},
              {"op": "editAsset", "asset": "$pic", "isFavorite": true, "isHidden": false,
               "creationDate": "2024-05-01T12:00:00+02:00", "location": {"latitude": 59.3, "longitude": 18.1}},
              {"op": "editAsset", "asset": "A/L0/001", "creationDate": null, "location": null},
              {"op": "deleteAssets", "assets": ["B/L0/001"]},
              {"op": "createFolder", "title": "2024", "ref": "year"},
              {"op": "createAlbum", "title": "Trip", "ref": "trip", "folder": "$year"},
              {"op": "renameAlbum", "album": "$trip", "title": "Trip!"},
              {"op": "addToAlbum", "album": "$trip", "assets": ["$pic", "A/L0/001"]},
              {"op": "removeFromAlbum", "album": "C/L0/040", "assets": ["A/L0/001"]},
              {"op": "moveInAlbum", "album": "C/L0/040", "from": [0, 2], "to": 1},
              {"op": "deleteAlbums", "albums": ["D/L0/040"]},
              {"op": "renameFolder", "folder": "$year", "title": "Year 2024"},
              {"op": "addToFolder", "folder": "$year", "collections": ["C/L0/040"]},
              {"op": "removeFromFolder", "folder": "E/L0/050", "collections": ["F/L0/040"]},
              {"op": "deleteFolders", "folders": ["E/L0/050"]}
            ]}
            """#)
        let date = try #require(ISO8601DateFormatter().date(from: "2024-05-01T10:00:00Z"))
        #expect(
            batch.changes == [
                .createAsset(.init(path: "/in/a.jpg", ref: "pic")),
                .createAsset(.init(path: "/in/b.mov", type: "video", move: true)),
                .editAsset(
                    .init(
                        asset: "$pic", isFavorite: true, isHidden: false, creationDate: .some(date),
                        creationDateOffset: 7200, location: .some(.init(latitude: 59.3, longitude: 18.1)))),
                .editAsset(.init(asset: "A/L0/001", creationDate: .some(nil), location: .some(nil))),
                .deleteAssets(.init(assets: ["B/L0/001"])),
                .createFolder(.init(title: "2024", ref: "year")),
                .createAlbum(.init(title: "Trip", ref: "trip", folder: "$year")),
                .renameAlbum(.init(album: "$trip", title: "Trip!")),
                .addToAlbum(.init(album: "$trip", assets: ["$pic", "A/L0/001"])),
                .removeFromAlbum(.init(album: "C/L0/040", assets: ["A/L0/001"])),
                .moveInAlbum(.init(album: "C/L0/040", from: [0, 2], to: 1)),
                .deleteAlbums(.init(albums: ["D/L0/040"])),
                .renameFolder(.init(folder: "$year", title: "Year 2024")),
                .addToFolder(.init(folder: "$year", collections: ["C/L0/040"])),
                .removeFromFolder(.init(folder: "E/L0/050", collections: ["F/L0/040"])),
                .deleteFolders(.init(folders: ["E/L0/050"])),
            ])
        #expect(Set(batch.changes.map(\.name)) == Set(Operation.fields.keys))
        try batch.validate()
        // Encoded and decoded again: the same batch (null kept apart from absent).
        let encoded = try WireJSON.makeEncoder().encode(batch)
        #expect(try JSONDecoder().decode(API.ChangeBatch.self, from: encoded) == batch)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""creationDate":null"#))
        #expect(text.contains(#""op":"editAsset""#))
    }

    @Test(arguments: [
        // Not JSON, or not the batch's shape.
        (#"nope"#, "the body is not valid JSON"),
        (#"[]"#, "the body: expected an object"),
        (#"{}"#, "changes"),
        (#"{"changes": {}}"#, "changes"),
        (#"{"changes": [], "atomic": true}"#, "unknown field atomic"),
        // Operations: unknown, missing, extra, mistyped.
        (#"{"changes": [{"path": "/a.jpg"}]}"#, "op"),
        (#"{"changes": [{"op": "paint", "asset": "A"}]}"#, "unknown op 'paint'"),
        (
            #"{"changes": [{"op": "createAsset", "path": "/a.jpg", "colour": "red"}]}"#,
            "unknown field colour in createAsset"
        ),
        (#"{"changes": [{"op": "createAsset", "path": "/a.jpg", "move": "yes"}]}"#, "changes[0].move"),
        (#"{"changes": [{"op": "editAsset", "asset": "A", "title": "x"}]}"#, "unknown field title in editAsset"),
        (#"{"changes": [{"op": "editAsset", "asset": "A"}]}"#, "changes nothing"),
        (#"{"changes": [{"op": "editAsset", "asset": "A", "isFavorite": 1}]}"#, "isFavorite"),
        (#"{"changes": [{"op": "editAsset", "asset": "A", "rating": 6}]}"#, "rating 6 is not 0 to 5 stars"),
        (#"{"changes": [{"op": "editAsset", "asset": "A", "creationDate": "yesterday"}]}"#, "not an ISO 8601 date"),
        (#"{"changes": [{"op": "editAsset", "asset": "A", "creationDate": "2024-05-01T12:00:00"}]}"#, "ISO 8601"),
        (
            #"{"changes": [{"op": "editAsset", "asset": "A", "location": {"latitude": 1, "longitude": 2, "x": 3}}]}"#,
            "unknown field x in location"
        ),
        (
            #"{"changes": [{"op": "editAsset", "asset": "A", "location": {"latitude": 91, "longitude": 2}}]}"#,
            "latitude"
        ),
        (#"{"changes": [{"op": "deleteAssets", "assets": "A"}]}"#, "assets"),
        (#"{"changes": [{"op": "createAlbum", "title": "T", "parent": "F"}]}"#, "unknown field parent"),
        (#"{"changes": [{"op": "moveInAlbum", "album": "C", "from": [0], "to": "end"}]}"#, "to"),
        (#"{"changes": [{"op": "addToFolder", "folder": "F", "albums": ["C"]}]}"#, "unknown field albums"),
    ])
    func malformedBatchesAreRefusedNamingWhere(json: String, mention: String) {
        #expect {
            try API.ChangeBatch.decode(json: Data(json.utf8))
        } throws: { error in
            (error as? API.ChangeBatch.Malformed)?.description.contains(mention) == true
        }
    }

    @Test(arguments: [
        // A placeholder used before (or without) the operation that makes it.
        (
            [
                Operation.addToAlbum(.init(album: "$trip", assets: ["A"])),
                .createAlbum(.init(title: "Trip", ref: "trip")),
            ], 0, "no earlier operation of this batch has ref 'trip'"
        ),
        // Of the wrong kind.
        (
            [.createAsset(.init(path: "/a.jpg", ref: "pic")), .renameAlbum(.init(album: "$pic", title: "x"))], 1,
            "$pic is an asset, not album"
        ),
        (
            [.createAlbum(.init(title: "T", ref: "t")), .addToAlbum(.init(album: "C", assets: ["$t"]))], 1,
            "$t is an album, not asset"
        ),
        (
            [.createAlbum(.init(title: "T", ref: "t")), .createAlbum(.init(title: "U", folder: "$t"))], 1,
            "not folder"
        ),
        // Taken twice, or not a name.
        ([.createAlbum(.init(title: "T", ref: "t")), .createFolder(.init(title: "U", ref: "t"))], 1, "already taken"),
        ([.createAlbum(.init(title: "T", ref: "2"))], 0, "must start with a letter"),
        ([.createAlbum(.init(title: "T", ref: "a b"))], 0, "must start with a letter"),
        // Empty names and lists, relative paths, unknown resource types.
        ([.createAlbum(.init(title: ""))], 0, "title is empty"),
        ([.deleteAssets(.init(assets: []))], 0, "assets is empty"),
        ([.addToAlbum(.init(album: "", assets: ["A"]))], 0, "album is empty"),
        ([.createAsset(.init(path: "in/a.jpg"))], 0, "path must be absolute"),
        ([.createAsset(.init())], 0, "give path or upload, one of the two"),
        ([.createAsset(.init(path: "/a.jpg", upload: "U"))], 0, "give path or upload, one of the two"),
        ([.createAsset(.init(upload: "U", move: true))], 0, "move goes with path"),
        ([.createAsset(.init(path: "/a.jpg", type: "sticker"))], 0, "type 'sticker'"),
        ([.moveInAlbum(.init(album: "C", from: [], to: 0))], 0, "from is empty"),
        ([.moveInAlbum(.init(album: "C", from: [-1], to: 0))], 0, "0 or more"),
    ])
    func placeholdersAndValuesAreCheckedBeforeAnythingIsApplied(
        changes: [Operation], index: Int, mention: String
    ) {
        #expect {
            try API.ChangeBatch(changes: changes).validate()
        } throws: { error in
            guard let invalid = error as? API.ChangeBatch.Invalid else { return false }
            return invalid.index == index && invalid.description.contains(mention)
        }
    }

    @Test func collectionsTakeAlbumsAndFoldersByPlaceholder() throws {
        try API.ChangeBatch(changes: [
            .createAlbum(.init(title: "A", ref: "album")),
            .createFolder(.init(title: "F", ref: "folder")),
            .createFolder(.init(title: "G", ref: "outer")),
            .addToFolder(.init(folder: "$outer", collections: ["$album", "$folder", "X/L0/040"])),
        ]).validate()
    }

    @Test(arguments: [
        ("a", true), ("trip-2024.v2_x", true), (String(repeating: "a", count: 64), true),
        (String(repeating: "a", count: 65), false), ("", false), ("1a", false), ("é", false), ("$a", false),
    ])
    func placeholderNames(name: String, valid: Bool) {
        #expect(API.ChangeBatch.isPlaceholderName(name) == valid)
    }

    @Test func theAnswerIsCreatedIdentifiersAndTheToken() throws {
        let result = API.ChangeBatchResult(created: ["trip": "C/L0/040", "1": "A/L0/001"], token: 42)
        let text = String(decoding: try WireJSON.makeEncoder().encode(result), as: UTF8.self)
        #expect(text == #"{"created":{"1":"A/L0/001","trip":"C/L0/040"},"token":42}"#)
    }
}
