import PhotosCore

/// A record's JSON object written field by field, as `JSONEncoder` writes a `Codable` record (a nil
/// field left out, a flag as `true` or `false`), without its cost: the kept forms of a deleted or
/// trashed asset (its record, its resources, its albums), which `JSONDecoder` reads back. A
/// thousand deletions to the Trash spent a tenth of their time in `JSONEncoder`.
///
/// ```swift
/// var object = KeptJSON()
/// try object.add("id", .int(7))
/// try object.add("isFavorite", .int(1), flag: true)
/// object.finished  // {"id":7,"isFavorite":true}
/// ```
struct KeptJSON {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Adds `key` with `value` (nothing for a null or a blob); an integer that is a `Bool` of the
    /// record as `true` or `false`. Throws for a number JSON cannot hold (not a number, infinite),
    /// as `JSONEncoder` does.
    mutating func add(_ key: String, _ value: SQLValue, flag: Bool = false) throws {
        switch value {
        case .null, .blob: return
        case .int, .double, .text: break
        }
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        switch value {
        case .int(let number) where flag: bytes.append(contentsOf: (number != 0 ? "true" : "false").utf8)
        case .int(let number): bytes.append(contentsOf: number.description.utf8)
        case .double(let number):
            guard number.isFinite else {
                throw EncodingError.invalidValue(
                    number, .init(codingPath: [], debugDescription: "\(key) is \(number), which JSON cannot hold"))
            }
            bytes.append(contentsOf: number.description.utf8)
        case .text(let text): JSONText.appendString(text, to: &bytes)
        case .null, .blob: break
        }
    }

    /// The object, closed.
    var finished: [UInt8] { bytes + [UInt8(ascii: "}")] }

    /// `objects` as a JSON array.
    static func array(_ objects: [[UInt8]]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(objects.reduce(2) { $0 + $1.count + 1 })
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += object
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ResourceRecord {
    /// The resource's JSON form as `JSONEncoder` writes it (its property names, nil ones left
    /// out), which `JSONDecoder` reads back: a trashed asset's kept resources.
    func keptJSON() throws -> [UInt8] {
        var object = KeptJSON()
        try object.add("id", id.map(SQLValue.int) ?? .null)
        try object.add("assetId", .int(assetId))
        try object.add("type", .int(Int64(type)))
        try object.add("path", .text(path))
        try object.add("uniformTypeIdentifier", uniformTypeIdentifier.map(SQLValue.text) ?? .null)
        try object.add("mimeType", mimeType.map(SQLValue.text) ?? .null)
        try object.add("fileSize", .int(fileSize))
        try object.add("originalFilename", .text(originalFilename))
        try object.add("device", device.map(SQLValue.int) ?? .null)
        try object.add("inode", inode.map(SQLValue.int) ?? .null)
        try object.add("modificationTime", modificationTime.map(SQLValue.double) ?? .null)
        try object.add("contentHash", contentHash.map(SQLValue.text) ?? .null)
        try object.add("contentIdentifier", contentIdentifier.map(SQLValue.text) ?? .null)
        try object.add("isLibraryOwned", .int(isLibraryOwned ? 1 : 0), flag: true)
        try object.add("pixelWidth", pixelWidth.map(SQLValue.int) ?? .null)
        try object.add("pixelHeight", pixelHeight.map(SQLValue.int) ?? .null)
        return object.finished
    }
}
