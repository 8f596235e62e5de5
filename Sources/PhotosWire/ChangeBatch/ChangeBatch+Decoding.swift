import Foundation
import PhotosCore

// Strict decoding: a key a shape does not know is an error, never skipped, and a value is
// checked as it is read (a rating in 0...5, degrees in range). What the shape cannot say
// (placeholders, empty names) is checked next, by `validate()`.

extension API.ChangeBatch {
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

    /// Decodes strictly: a key other than `changes` is an error.
    public init(from decoder: any Decoder) throws {
        try StrictFields.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "the batch")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changes = try container.decode([API.ChangeOperation].self, forKey: .changes)
    }
}

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

extension API.ChangeOperation.EditAsset {
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
                guard let (date, offset) = ISO8601Dates.dateAndOffset(from: text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .creationDate, in: container,
                        debugDescription:
                            "'\(text)' is not an ISO 8601 date with a UTC offset (2024-05-01T12:00:00+02:00) "
                            + "that exists")
                }
                creationDate = .some(date)
                creationDateOffset = offset
            }
        }
        if container.contains(.location) {
            location =
                try container.decodeNil(forKey: .location)
                ? .some(nil) : .some(try container.decode(API.ChangeOperation.Location.self, forKey: .location))
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
        case .some(let date?):
            try container.encode(ISO8601.string(date, offset: creationDateOffset ?? 0), forKey: .creationDate)
        }
        switch location {
        case nil: break
        case .some(nil): try container.encodeNil(forKey: .location)
        case .some(let location?): try container.encode(location, forKey: .location)
        }
    }
}

extension API.ChangeOperation.Location {
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
