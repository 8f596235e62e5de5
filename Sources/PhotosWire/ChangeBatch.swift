import Foundation
import PhotosCore

extension API {
    /// `POST /v1/changes`: change requests applied atomically in one change block, as
    /// `PHPhotoLibrary.performChanges` applies them.
    ///
    /// ```json
    /// {"changes": [
    ///   {"op": "createAsset", "path": "/home/me/in/IMG_1.jpg", "ref": "pic"},
    ///   {"op": "createAlbum", "title": "Trip", "ref": "trip"},
    ///   {"op": "addToAlbum", "album": "$trip", "assets": ["$pic", "3F2A…/L0/001"]}
    /// ]}
    /// ```
    ///
    /// Objects are named by local identifier, or, when an earlier operation of the same batch made
    /// them with `"ref": "NAME"`, as `"$NAME"` (PhotoKit's placeholders). Decoding is strict: an
    /// unknown `op`, an unknown or missing field, or a value of the wrong type is an error, never
    /// ignored; ``validateReferences()`` then checks the placeholders.
    public struct ChangeBatch: Sendable, Hashable, Codable {
        /// The operations, in order.
        public var changes: [ChangeOperation]

        /// A batch of these operations, in order.
        public init(changes: [ChangeOperation]) {
            self.changes = changes
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case changes
        }

        /// Decodes strictly: a key other than `changes` is an error.
        public init(from decoder: any Decoder) throws {
            try StrictFields.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "the batch")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            changes = try container.decode([ChangeOperation].self, forKey: .changes)
        }

        /// The most operations one batch may hold.
        public static let maximumOperations = 10_000
    }

    /// What `POST /v1/changes` answers once the batch has committed.
    public struct ChangeBatchResult: Sendable, Hashable, Codable {
        /// The local identifier of each object the batch created, under its `ref`, or under the
        /// operation's position in `changes` (`"0"`, `"1"`, ...) when it had none.
        public var created: [String: String]
        /// The persistent change token of the batch's commit: its entry in `GET /v1/changes`. The
        /// library's current token when the batch changed nothing.
        public var token: Int64

        /// An answer with the created identifiers and the commit's token.
        public init(created: [String: String], token: Int64) {
            self.created = created
            self.token = token
        }
    }

    /// One operation of a ``ChangeBatch``: `{"op": NAME, FIELDS...}`.
    public enum ChangeOperation: Sendable, Hashable {
        /// `createAsset`: a new asset from a file.
        case createAsset(CreateAsset)
        /// `editAsset`: an asset's favorite, hidden, date and place.
        case editAsset(EditAsset)
        /// `deleteAssets`.
        case deleteAssets(DeleteAssets)
        /// `createAlbum`: a user album.
        case createAlbum(CreateCollection)
        /// `renameAlbum`.
        case renameAlbum(RenameAlbum)
        /// `deleteAlbums`.
        case deleteAlbums(DeleteAlbums)
        /// `addToAlbum`: appends assets.
        case addToAlbum(AlbumMembers)
        /// `removeFromAlbum`.
        case removeFromAlbum(AlbumMembers)
        /// `moveInAlbum`: reorders an album.
        case moveInAlbum(MoveInAlbum)
        /// `createFolder`: a collection list.
        case createFolder(CreateCollection)
        /// `renameFolder`.
        case renameFolder(RenameFolder)
        /// `deleteFolders`, with what is in them.
        case deleteFolders(DeleteFolders)
        /// `addToFolder`: albums and folders move in.
        case addToFolder(FolderChildren)
        /// `removeFromFolder`: albums and folders move to the top level.
        case removeFromFolder(FolderChildren)

        /// Every operation's name (its `op`) and fields, `op` aside: what strict decoding accepts.
        public static let fields: [String: [String]] = [
            "createAsset": CreateAsset.CodingKeys.allCases.map(\.rawValue),
            "editAsset": EditAsset.CodingKeys.allCases.map(\.rawValue),
            "deleteAssets": DeleteAssets.CodingKeys.allCases.map(\.rawValue),
            "createAlbum": CreateCollection.CodingKeys.allCases.map(\.rawValue),
            "renameAlbum": RenameAlbum.CodingKeys.allCases.map(\.rawValue),
            "deleteAlbums": DeleteAlbums.CodingKeys.allCases.map(\.rawValue),
            "addToAlbum": AlbumMembers.CodingKeys.allCases.map(\.rawValue),
            "removeFromAlbum": AlbumMembers.CodingKeys.allCases.map(\.rawValue),
            "moveInAlbum": MoveInAlbum.CodingKeys.allCases.map(\.rawValue),
            "createFolder": CreateCollection.CodingKeys.allCases.map(\.rawValue),
            "renameFolder": RenameFolder.CodingKeys.allCases.map(\.rawValue),
            "deleteFolders": DeleteFolders.CodingKeys.allCases.map(\.rawValue),
            "addToFolder": FolderChildren.CodingKeys.allCases.map(\.rawValue),
            "removeFromFolder": FolderChildren.CodingKeys.allCases.map(\.rawValue),
        ]

        /// The operation's `op`.
        public var name: String {
            switch self {
            case .createAsset: "createAsset"
            case .editAsset: "editAsset"
            case .deleteAssets: "deleteAssets"
            case .createAlbum: "createAlbum"
            case .renameAlbum: "renameAlbum"
            case .deleteAlbums: "deleteAlbums"
            case .addToAlbum: "addToAlbum"
            case .removeFromAlbum: "removeFromAlbum"
            case .moveInAlbum: "moveInAlbum"
            case .createFolder: "createFolder"
            case .renameFolder: "renameFolder"
            case .deleteFolders: "deleteFolders"
            case .addToFolder: "addToFolder"
            case .removeFromFolder: "removeFromFolder"
            }
        }
    }
}

// MARK: The operations

extension API.ChangeOperation {
    /// `createAsset`: a new asset from a file: the caller's file at `path` on the daemon's machine,
    /// or the bytes it sent to `POST /v1/uploads` (`upload`), exactly one of the two. A file at
    /// `path` is copied into the library's import folder; with `move`, it is removed from `path`
    /// once the commit that records the asset has landed (left as it was if the batch fails). Who
    /// may name a `path` the daemon decides (the access table in docs/api.md).
    public struct CreateAsset: Sendable, Hashable, Codable {
        /// An absolute path to a photo, video or audio file of the caller's.
        public var path: String?
        /// The identifier `POST /v1/uploads` answered.
        public var upload: String?
        /// The resource type: `photo`, `video` or `audio`; by default what the file's content is.
        public var type: String?
        /// Take the file instead of copying it (default false); only with `path`.
        public var move: Bool?
        /// The placeholder's name: later operations name the new asset `$ref`.
        public var ref: String?

        /// A `createAsset` operation.
        public init(path: String? = nil, upload: String? = nil, type: String? = nil, move: Bool? = nil, ref: String? = nil) {
            self.path = path
            self.upload = upload
            self.type = type
            self.move = move
            self.ref = ref
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case path, upload, type, move, ref
        }

        /// The resource types a file can be added as.
        public static let types = ["photo", "video", "audio"]
    }

    /// `editAsset`: an asset's properties (`PHAssetChangeRequest`). At least one is given;
    /// `creationDate` and `location` may be null to clear them.
    public struct EditAsset: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var asset: String
        /// The new favorite flag, if it changes.
        public var isFavorite: Bool?
        /// The new hidden flag, if it changes.
        public var isHidden: Bool?
        /// The new stars, 0 to 5, if they change.
        public var rating: Int?
        /// nil: unchanged; `.some(nil)`: cleared. ISO 8601 with an offset on the wire.
        public var creationDate: Date??
        /// nil: unchanged; `.some(nil)`: cleared.
        public var location: Location??

        /// An `editAsset` operation; give at least one property.
        public init(
            asset: String, isFavorite: Bool? = nil, isHidden: Bool? = nil, creationDate: Date?? = nil,
            location: Location?? = nil, rating: Int? = nil
        ) {
            self.asset = asset
            self.rating = rating
            self.isFavorite = isFavorite
            self.isHidden = isHidden
            self.creationDate = creationDate
            self.location = location
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case asset, isFavorite, isHidden, rating, creationDate, location
        }

        /// Decodes `null` as "clear" and an absent key as "unchanged"; an edit of nothing is an error.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            asset = try container.decode(String.self, forKey: .asset)
            isFavorite = try container.decodeIfPresent(Bool.self, forKey: .isFavorite)
            isHidden = try container.decodeIfPresent(Bool.self, forKey: .isHidden)
            rating = try container.decodeIfPresent(Int.self, forKey: .rating)
            if let rating, !(0...5).contains(rating) {
                throw DecodingError.dataCorruptedError(
                    forKey: .rating, in: container, debugDescription: "rating \(rating) is not 0 to 5 stars")
            }
            if container.contains(.creationDate) {
                if try container.decodeNil(forKey: .creationDate) {
                    creationDate = .some(nil)
                } else {
                    let text = try container.decode(String.self, forKey: .creationDate)
                    guard let date = ISO8601Dates.date(from: text) else {
                        throw DecodingError.dataCorruptedError(
                            forKey: .creationDate, in: container,
                            debugDescription:
                                "'\(text)' is not an ISO 8601 date with a UTC offset (2024-05-01T12:00:00+02:00)")
                    }
                    creationDate = .some(date)
                }
            }
            if container.contains(.location) {
                location = try container.decodeNil(forKey: .location)
                    ? .some(nil) : .some(try container.decode(Location.self, forKey: .location))
            }
            guard isFavorite != nil || isHidden != nil || rating != nil || creationDate != nil || location != nil else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription:
                            "editAsset changes nothing: give isFavorite, isHidden, rating, creationDate or location"))
            }
        }

        /// Encodes what changes only, a cleared value as `null`, dates in ISO 8601 at UTC.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(asset, forKey: .asset)
            try container.encodeIfPresent(isFavorite, forKey: .isFavorite)
            try container.encodeIfPresent(isHidden, forKey: .isHidden)
            try container.encodeIfPresent(rating, forKey: .rating)
            switch creationDate {
            case nil: break
            case .some(nil): try container.encodeNil(forKey: .creationDate)
            case .some(let date?): try container.encode(ISO8601.string(date, offset: 0), forKey: .creationDate)
            }
            switch location {
            case nil: break
            case .some(nil): try container.encodeNil(forKey: .location)
            case .some(let location?): try container.encode(location, forKey: .location)
            }
        }

    }

    /// A place: degrees, and metres above sea level when known.
    public struct Location: Sendable, Hashable, Codable {
        /// Degrees north, -90 to 90.
        public var latitude: Double
        /// Degrees east, -180 to 180.
        public var longitude: Double
        /// Metres above sea level, if known.
        public var altitude: Double?

        /// A place.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case latitude, longitude, altitude
        }

        /// Decodes strictly, and refuses degrees out of range.
        public init(from decoder: any Decoder) throws {
            try StrictFields.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "location")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            latitude = try container.decode(Double.self, forKey: .latitude)
            longitude = try container.decode(Double.self, forKey: .longitude)
            altitude = try container.decodeIfPresent(Double.self, forKey: .altitude)
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "latitude must be within -90...90 and longitude within -180...180"))
            }
        }
    }

    /// `deleteAssets`: assets leave the library. Files the library imported go with them; files in
    /// watched folders are the user's and stay.
    public struct DeleteAssets: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var assets: [String]
        /// A `deleteAssets` operation.
        public init(assets: [String]) { self.assets = assets }
        enum CodingKeys: String, CodingKey, CaseIterable { case assets }
    }

    /// `createAlbum` and `createFolder`: a user album or folder with a title, at the top level or in
    /// `folder`.
    public struct CreateCollection: Sendable, Hashable, Codable {
        /// The title (titles may repeat).
        public var title: String
        /// The placeholder's name: later operations name the new collection `$ref`.
        public var ref: String?
        /// The folder to put it in (a local identifier or `$ref`); the top level by default.
        public var folder: String?

        /// A `createAlbum` or `createFolder` operation.
        public init(title: String, ref: String? = nil, folder: String? = nil) {
            self.title = title
            self.ref = ref
            self.folder = folder
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case title, ref, folder }
    }

    /// `renameAlbum`.
    public struct RenameAlbum: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// The new title.
        public var title: String
        /// A `renameAlbum` operation.
        public init(album: String, title: String) {
            self.album = album
            self.title = title
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, title }
    }

    /// `deleteAlbums`: the albums go; their assets stay in the library.
    public struct DeleteAlbums: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var albums: [String]
        /// A `deleteAlbums` operation.
        public init(albums: [String]) { self.albums = albums }
        enum CodingKeys: String, CodingKey, CaseIterable { case albums }
    }

    /// `addToAlbum` (appends those not already in it) and `removeFromAlbum` (they stay in the library).
    public struct AlbumMembers: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// Local identifiers or `$ref`s.
        public var assets: [String]
        /// An `addToAlbum` or `removeFromAlbum` operation.
        public init(album: String, assets: [String]) {
            self.album = album
            self.assets = assets
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, assets }
    }

    /// `moveInAlbum`: the assets at positions `from` move to `to` of the album as it is once they are
    /// taken out (`PHAssetCollectionChangeRequest.moveAssets(at:to:)`).
    public struct MoveInAlbum: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var album: String
        /// Positions in the album as it is before the move.
        public var from: [Int]
        /// The position in the album once the moved assets are taken out.
        public var to: Int
        /// A `moveInAlbum` operation.
        public init(album: String, from: [Int], to: Int) {
            self.album = album
            self.from = from
            self.to = to
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case album, from, to }
    }

    /// `renameFolder`.
    public struct RenameFolder: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var folder: String
        /// The new title.
        public var title: String
        /// A `renameFolder` operation.
        public init(folder: String, title: String) {
            self.folder = folder
            self.title = title
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case folder, title }
    }

    /// `deleteFolders`: the folders go with everything in them (albums and folders, not assets).
    public struct DeleteFolders: Sendable, Hashable, Codable {
        /// Local identifiers or `$ref`s.
        public var folders: [String]
        /// A `deleteFolders` operation.
        public init(folders: [String]) { self.folders = folders }
        enum CodingKeys: String, CodingKey, CaseIterable { case folders }
    }

    /// `addToFolder` (albums and folders move into it from wherever they were) and
    /// `removeFromFolder` (they move to the top level).
    public struct FolderChildren: Sendable, Hashable, Codable {
        /// A local identifier or `$ref`.
        public var folder: String
        /// Albums and folders: local identifiers or `$ref`s.
        public var collections: [String]
        /// An `addToFolder` or `removeFromFolder` operation.
        public init(folder: String, collections: [String]) {
            self.folder = folder
            self.collections = collections
        }
        enum CodingKeys: String, CodingKey, CaseIterable { case folder, collections }
    }
}

// MARK: Coding

extension API.ChangeOperation: Codable {
    private struct OpKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static let op = OpKey(stringValue: "op")
    }

    /// Decodes by `op`, strictly: an unknown op, or a field that op does not have, is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: OpKey.self)
        let name = try container.decode(String.self, forKey: .op)
        guard let fields = Self.fields[name] else {
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container,
                debugDescription: "unknown op '\(name)'; known: \(Self.fields.keys.sorted().joined(separator: ", "))")
        }
        try StrictFields.check(decoder, allowed: fields + ["op"], in: name)
        switch name {
        case "createAsset": self = .createAsset(try CreateAsset(from: decoder))
        case "editAsset": self = .editAsset(try EditAsset(from: decoder))
        case "deleteAssets": self = .deleteAssets(try DeleteAssets(from: decoder))
        case "createAlbum": self = .createAlbum(try CreateCollection(from: decoder))
        case "renameAlbum": self = .renameAlbum(try RenameAlbum(from: decoder))
        case "deleteAlbums": self = .deleteAlbums(try DeleteAlbums(from: decoder))
        case "addToAlbum": self = .addToAlbum(try AlbumMembers(from: decoder))
        case "removeFromAlbum": self = .removeFromAlbum(try AlbumMembers(from: decoder))
        case "moveInAlbum": self = .moveInAlbum(try MoveInAlbum(from: decoder))
        case "createFolder": self = .createFolder(try CreateCollection(from: decoder))
        case "renameFolder": self = .renameFolder(try RenameFolder(from: decoder))
        case "deleteFolders": self = .deleteFolders(try DeleteFolders(from: decoder))
        case "addToFolder": self = .addToFolder(try FolderChildren(from: decoder))
        default: self = .removeFromFolder(try FolderChildren(from: decoder))
        }
    }

    /// Encodes `op` beside the operation's fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: OpKey.self)
        try container.encode(name, forKey: .op)
        switch self {
        case .createAsset(let fields): try fields.encode(to: encoder)
        case .editAsset(let fields): try fields.encode(to: encoder)
        case .deleteAssets(let fields): try fields.encode(to: encoder)
        case .createAlbum(let fields), .createFolder(let fields): try fields.encode(to: encoder)
        case .renameAlbum(let fields): try fields.encode(to: encoder)
        case .deleteAlbums(let fields): try fields.encode(to: encoder)
        case .addToAlbum(let fields), .removeFromAlbum(let fields): try fields.encode(to: encoder)
        case .moveInAlbum(let fields): try fields.encode(to: encoder)
        case .renameFolder(let fields): try fields.encode(to: encoder)
        case .deleteFolders(let fields): try fields.encode(to: encoder)
        case .addToFolder(let fields), .removeFromFolder(let fields): try fields.encode(to: encoder)
        }
    }
}

/// Strict objects: a key the shape does not know is an error, not something to skip.
enum StrictFields {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func check(_ decoder: any Decoder, allowed: [String], in name: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "unknown field\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) "
                        + "in \(name) (known: \(allowed.sorted().joined(separator: ", ")))"))
        }
    }
}

// MARK: Checks before anything is applied

extension API.ChangeBatch {
    /// What a placeholder stands for.
    public enum ObjectKind: String, Sendable, Hashable {
        /// Made by `createAsset`.
        case asset
        /// Made by `createAlbum`.
        case album
        /// Made by `createFolder`.
        case folder
    }

    /// A batch that is well-formed JSON but cannot be applied as it stands: which operation, and why.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The position of the operation in `changes`.
        public var index: Int
        /// What is wrong, after the operation's name.
        public var message: String
        /// `changes[INDEX]: MESSAGE`.
        public var description: String { "changes[\(index)]: \(message)" }
    }

    /// The rules no library state changes, checked before anything is applied: every `$ref` names
    /// a placeholder an earlier operation made, of the kind the field takes (an album where an
    /// album goes; `collections` take albums and folders); `ref` names are unique, start with a
    /// letter and hold only letters, digits, `_`, `-` and `.` (at most 64); names and lists are not
    /// empty; paths are absolute; `type` is a resource type; at most ``maximumOperations``.
    public func validate() throws(Invalid) {
        guard changes.count <= Self.maximumOperations else {
            throw Invalid(
                index: Self.maximumOperations, message: "a batch holds at most \(Self.maximumOperations) operations")
        }
        var placeholders: [String: ObjectKind] = [:]
        for (index, operation) in changes.enumerated() {
            func fail(_ message: String) -> Invalid { Invalid(index: index, message: "\(operation.name): \(message)") }
            func object(_ value: String, _ field: String, _ kinds: Set<ObjectKind>) throws(Invalid) {
                guard !value.isEmpty else { throw fail("\(field) is empty") }
                guard value.hasPrefix("$") else { return }
                let name = String(value.dropFirst())
                guard let kind = placeholders[name] else {
                    throw fail("\(field): no earlier operation of this batch has ref '\(name)'")
                }
                guard kinds.contains(kind) else {
                    let article = kind == .folder ? "a" : "an"
                    let wanted = kinds.map(\.rawValue).sorted().joined(separator: " or ")
                    throw fail("\(field): $\(name) is \(article) \(kind), not \(wanted)")
                }
            }
            func objects(_ values: [String], _ field: String, _ kinds: Set<ObjectKind>) throws(Invalid) {
                guard !values.isEmpty else { throw fail("\(field) is empty") }
                for value in values { try object(value, field, kinds) }
            }
            func define(_ ref: String?, _ kind: ObjectKind) throws(Invalid) {
                guard let ref else { return }
                guard Self.isPlaceholderName(ref) else {
                    throw fail(
                        "ref '\(ref)' must start with a letter and hold only letters, digits, _, - and . (at most 64)")
                }
                guard placeholders[ref] == nil else { throw fail("ref '\(ref)' is already taken in this batch") }
                placeholders[ref] = kind
            }
            func title(_ value: String) throws(Invalid) {
                guard !value.isEmpty else { throw fail("title is empty") }
            }
            switch operation {
            case .createAsset(let fields):
                switch (fields.path, fields.upload) {
                case (let path?, nil):
                    guard path.hasPrefix("/") else { throw fail("path must be absolute, not '\(path)'") }
                case (nil, let upload?):
                    guard !upload.isEmpty else { throw fail("upload is empty") }
                    guard fields.move == nil else { throw fail("move goes with path; an upload is always taken") }
                default:
                    throw fail("give path or upload, one of the two")
                }
                if let type = fields.type, !API.ChangeOperation.CreateAsset.types.contains(type) {
                    let types = API.ChangeOperation.CreateAsset.types.joined(separator: ", ")
                    throw fail("type '\(type)' is not one of \(types)")
                }
                try define(fields.ref, .asset)
            case .editAsset(let fields): try object(fields.asset, "asset", [.asset])
            case .deleteAssets(let fields): try objects(fields.assets, "assets", [.asset])
            case .createAlbum(let fields), .createFolder(let fields):
                try title(fields.title)
                if let folder = fields.folder { try object(folder, "folder", [.folder]) }
                try define(fields.ref, operation.name == "createAlbum" ? .album : .folder)
            case .renameAlbum(let fields):
                try object(fields.album, "album", [.album])
                try title(fields.title)
            case .deleteAlbums(let fields): try objects(fields.albums, "albums", [.album])
            case .addToAlbum(let fields), .removeFromAlbum(let fields):
                try object(fields.album, "album", [.album])
                try objects(fields.assets, "assets", [.asset])
            case .moveInAlbum(let fields):
                try object(fields.album, "album", [.album])
                guard !fields.from.isEmpty else { throw fail("from is empty") }
                guard fields.from.allSatisfy({ $0 >= 0 }), fields.to >= 0 else {
                    throw fail("positions are 0 or more")
                }
            case .renameFolder(let fields):
                try object(fields.folder, "folder", [.folder])
                try title(fields.title)
            case .deleteFolders(let fields): try objects(fields.folders, "folders", [.folder])
            case .addToFolder(let fields), .removeFromFolder(let fields):
                try object(fields.folder, "folder", [.folder])
                try objects(fields.collections, "collections", [.album, .folder])
            }
        }
    }

    /// Whether `name` can be a `ref`: a letter, then up to 63 letters, digits, `_`, `-` or `.`.
    public static func isPlaceholderName(_ name: String) -> Bool {
        func letter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        let scalars = name.unicodeScalars
        guard let first = scalars.first, letter(first), scalars.count <= 64 else { return false }
        return scalars.allSatisfy { letter($0) || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }
}

extension API.ChangeBatch {
    /// A body that is not a batch: not JSON, or not its shape. ``description`` names where
    /// (`changes[2].location.latitude: ...`).
    public struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, and where.
        public var description: String
    }

    /// A batch from its JSON, decoded strictly (the rules of ``API/ChangeBatch``).
    public static func decode(json: Data) throws(Malformed) -> API.ChangeBatch {
        do {
            return try JSONDecoder().decode(API.ChangeBatch.self, from: json)
        } catch let error as DecodingError {
            throw Malformed(description: describe(error))
        } catch {
            throw Malformed(description: "the body is not JSON: \(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the body" : text
        }
        func name(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            case is Int.Type, is Int64.Type: "an integer"
            case is Double.Type: "a number"
            case is [String].Type, is [Int].Type, is [API.ChangeOperation].Type: "an array"
            default: "an object"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.underlyingError != nil || context.debugDescription.contains("JSON") {
                return "the body is not valid JSON (\(context.debugDescription))"
            }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
