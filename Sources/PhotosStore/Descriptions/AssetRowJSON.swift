import Foundation
import PhotosCore
import PhotosWire

/// The asset JSON made straight from the store's rows (``PhotosStore/AssetRows``): the one writer
/// of asset JSON bytes (``PhotosWire/WireJSONWriter/appendAssets(_:as:timeZone:naming:each:)``),
/// and the ``AssetDescription`` values ``DescriptionReader`` reads for programs that want values.
/// Both walk the rows with the rules here, so both say the same; `DescriptionEquivalenceTests`
/// holds the bytes to the values' `Codable` encoding, and the values to PhotoKit's objects.
enum AssetRowJSON {
    typealias Asset = AssetRows.AssetColumn
    typealias Album = AssetRows.AlbumColumn
    typealias Resource = AssetRows.ResourceColumn

    // MARK: The rules

    /// The creation date and the offset it is written at: the recorded one, else the zone's.
    static func creationDate(_ row: RowCursor, timeZone: TimeZone) -> (date: Date, offset: Int)? {
        guard let seconds = row.double(Asset.creationDate) else { return nil }
        return creationDate(
            seconds: seconds,
            recorded: row.isNull(Asset.creationDateOffset) ? nil : Int(row.integer(Asset.creationDateOffset)),
            timeZone: timeZone)
    }

    /// The same rule from the columns' values (the day index reads them without the rest of the row).
    static func creationDate(seconds: Double, recorded offset: Int?, timeZone: TimeZone) -> (date: Date, offset: Int) {
        let date = Date(timeIntervalSince1970: seconds)
        return (date, offset ?? timeZone.secondsFromGMT(for: date))
    }

    /// The modification date, at the zone's offset.
    static func modificationDate(_ row: RowCursor, timeZone: TimeZone) -> (date: Date, offset: Int)? {
        guard let seconds = row.double(Asset.modificationDate) else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        return (date, timeZone.secondsFromGMT(for: date))
    }

    static func mediaTypeName(_ row: RowCursor) -> String {
        (PHAssetMediaType(rawValue: Int(truncatingIfNeeded: row.integer(Asset.mediaType))) ?? .unknown).name
    }

    static func resourceTypeName(_ row: RowCursor) -> String {
        (PHAssetResourceType(rawValue: Int(truncatingIfNeeded: row.integer(Resource.type))) ?? .photo).name
    }

    /// The location, when both coordinates are there.
    static func location(_ row: RowCursor) -> AssetDescription.Location? {
        guard let latitude = row.double(Asset.latitude), let longitude = row.double(Asset.longitude) else { return nil }
        return AssetDescription.Location(latitude: latitude, longitude: longitude, altitude: row.double(Asset.altitude))
    }

    /// Paths under which files are unavailable, each ending in a slash, as UTF-8.
    static func unavailablePrefixes(_ rows: AssetRows) -> [[UInt8]] {
        rows.unavailablePaths.map { Array(($0 == "/" ? "/" : $0 + "/").utf8) }
    }

    /// Whether a file's path lies under one of `prefixes` (as `PHAsset.isAvailable` tests it: under
    /// an offline root or an unreadable directory).
    static func isUnavailable(_ path: UnsafeBufferPointer<UInt8>?, under prefixes: [[UInt8]]) -> Bool {
        guard let path, !prefixes.isEmpty else { return false }
        return prefixes.contains { prefix in path.starts(with: prefix) }
    }

    /// The order of an asset's albums: PhotoKit's `fetchAssetCollectionsContaining(_:with: .album)`
    /// order, the albums' position, then row id.
    static func albumOrder(_ row: RowCursor) -> (Int64, Int64) {
        (row.integer(Album.position), row.integer(Album.id))
    }

    /// The order of an asset's files: type, then row id (``PhotosStore/LibraryDatabase/resources(assetIDs:)``).
    static func resourceOrder(_ row: RowCursor) -> (Int64, Int64) {
        (row.integer(Resource.type), row.integer(Resource.id))
    }

    /// Throws what `JSONEncoder` throws for a number JSON cannot hold, as ``WireJSONWriter`` does.
    static func requireFinite(_ numbers: Double?...) throws {
        for case let number? in numbers where !number.isFinite {
            throw EncodingError.invalidValue(
                number,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Unable to encode Double.\(number) directly in JSON."))
        }
    }

    // MARK: Values

    /// The descriptions of every asset row, in order.
    static func describe(_ rows: inout AssetRows, timeZone: TimeZone) throws -> [AssetDescription] {
        var subtypeNames: [Int64: [String]] = [:]
        let prefixes = unavailablePrefixes(rows)
        var descriptions: [AssetDescription] = []
        while let position = rows.assets.position {
            let row = rows.assets
            try rows.albums.skip(before: position)
            var albums: [(key: (Int64, Int64), album: AssetDescription.Album)] = []
            while rows.albums.position == position {
                albums.append(
                    (
                        albumOrder(rows.albums),
                        AssetDescription.Album(
                            localIdentifier: rows.albums.string(Album.localIdentifier) ?? "",
                            localizedTitle: rows.albums.string(Album.title), path: rows.albums.string(Album.path))
                    ))
                try rows.albums.advance()
            }
            try rows.resources.skip(before: position)
            var resources: [(key: (Int64, Int64), resource: AssetDescription.Resource)] = []
            var isAvailable = true
            var isLibraryOwned = true
            while rows.resources.position == position {
                let file = rows.resources
                if isUnavailable(file.text(Resource.path), under: prefixes) { isAvailable = false }
                if !file.bool(Resource.isLibraryOwned) { isLibraryOwned = false }
                resources.append(
                    (
                        resourceOrder(file),
                        AssetDescription.Resource(
                            type: resourceTypeName(file), path: file.string(Resource.path) ?? "",
                            uniformTypeIdentifier: file.string(Resource.uniformTypeIdentifier) ?? "public.data",
                            mimeType: file.string(Resource.mimeType), fileSize: file.integer(Resource.fileSize))
                    ))
                try rows.resources.advance()
            }
            let subtypes = row.integer(Asset.mediaSubtypes)
            let names: [String]
            if let known = subtypeNames[subtypes] {
                names = known
            } else {
                names = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: subtypes)).names
                subtypeNames[subtypes] = names
            }
            descriptions.append(
                AssetDescription(
                    localIdentifier: row.string(Asset.localIdentifier) ?? "", mediaType: mediaTypeName(row),
                    mediaSubtypes: names, pixelWidth: Int(truncatingIfNeeded: row.integer(Asset.pixelWidth)),
                    pixelHeight: Int(truncatingIfNeeded: row.integer(Asset.pixelHeight)),
                    creationDate: creationDate(row, timeZone: timeZone).map {
                        ISO8601.string($0.date, offset: $0.offset)
                    },
                    creationDateHasOffset: !row.bool(Asset.creationDateIsFloating),
                    modificationDate: modificationDate(row, timeZone: timeZone).map {
                        ISO8601.string($0.date, offset: $0.offset)
                    },
                    duration: row.double(Asset.duration) ?? 0, location: location(row),
                    isFavorite: row.bool(Asset.isFavorite), isHidden: row.bool(Asset.isHidden),
                    burstIdentifier: row.string(Asset.burstIdentifier),
                    representsBurst: row.bool(Asset.representsBurst),
                    isAvailable: isAvailable, isLibraryOwned: isLibraryOwned,
                    resources: resources.sorted { $0.key < $1.key }.map(\.resource),
                    albums: albums.sorted { $0.key < $1.key }.map(\.album),
                    rating: Int(truncatingIfNeeded: row.integer(Asset.rating)),
                    creationDateIsFileTime: row.bool(Asset.creationDateIsFileTime)))
            try rows.assets.advance()
        }
        return descriptions
    }
}

extension WireJSONWriter {
    /// Writes the asset JSON of every asset row, in order, straight from the rows: the bytes the
    /// `Codable` encoding of the same assets' descriptions (``DescriptionReader``'s) gives, as
    /// elements of a listing or as lines, without making them. Returns the number of assets written.
    ///
    /// `named`: the only albums an asset's `albums` may name (a limited client's); nil: every album.
    /// `each` is told each asset's identifier and where its object (`{` to `}`) was written.
    ///
    /// Throws `EncodingError.invalidValue`, as `JSONEncoder` does, at an asset with a number JSON
    /// cannot hold; what came before it stays written, nothing of it is.
    @discardableResult
    mutating func appendAssets(
        _ rows: inout AssetRows, as form: Form, timeZone: TimeZone, naming named: Set<String>? = nil,
        each: ((_ localIdentifier: String, _ object: Range<Int>) -> Void)? = nil
    ) throws -> Int {
        typealias Asset = AssetRowJSON.Asset
        typealias Album = AssetRowJSON.Album
        typealias Resource = AssetRowJSON.Resource
        var subtypes: [Int64: [UInt8]] = [:]
        let prefixes = AssetRowJSON.unavailablePrefixes(rows)
        var albums = SortedPieces()
        var files = SortedPieces()
        var written = 0
        while let position = rows.assets.position {
            let row = rows.assets
            let duration = row.double(Asset.duration) ?? 0
            let location = AssetRowJSON.location(row)
            try AssetRowJSON.requireFinite(duration, location?.latitude, location?.longitude, location?.altitude)

            // The albums, first of the keys.
            try rows.albums.skip(before: position)
            albums.removeAll()
            while rows.albums.position == position {
                if let named, !named.contains(rows.albums.string(Album.localIdentifier) ?? "") {
                    try rows.albums.advance()
                    continue
                }
                let identifier = rows.albums.text(Album.localIdentifier)
                let title = rows.albums.text(Album.title)
                let path = rows.albums.text(Album.path)
                let bound =
                    64 + JSONText.stringBound((identifier?.count ?? 0) + (title?.count ?? 0) + (path?.count ?? 0))
                albums.write(key: AssetRowJSON.albumOrder(rows.albums), atMost: bound) { out in
                    out.put(#"{"localIdentifier":"#)
                    out.putString(identifier ?? UnsafeBufferPointer(start: nil, count: 0))
                    out.put(#","localizedTitle":"#)
                    out.putOptionalString(title)
                    out.put(#","path":"#)
                    out.putOptionalString(path)
                    out.put(UInt8(ascii: "}"))
                }
                try rows.albums.advance()
            }
            if form == .element, !first { bytes.append(UInt8(ascii: ",")) }
            let start = bytes.count
            bytes.append(contentsOf: #"{"albums":["#.utf8)
            albums.append(to: &bytes)

            // The files, last of the keys, written aside first: whether the asset is available
            // and whether the library placed them (keys before them) depend on the files.
            try rows.resources.skip(before: position)
            files.removeAll()
            var isAvailable = true
            var isLibraryOwned = true
            while rows.resources.position == position {
                let file = rows.resources
                let type = AssetRowJSON.resourceTypeName(file)
                let path = file.text(Resource.path)
                let uniformType = file.text(Resource.uniformTypeIdentifier)
                let mimeType = file.text(Resource.mimeType)
                if AssetRowJSON.isUnavailable(path, under: prefixes) { isAvailable = false }
                if !file.bool(Resource.isLibraryOwned) { isLibraryOwned = false }
                let bound =
                    128 + type.utf8.count
                    + JSONText.stringBound((path?.count ?? 0) + (uniformType?.count ?? 0) + (mimeType?.count ?? 0))
                files.write(key: AssetRowJSON.resourceOrder(file), atMost: bound) { out in
                    out.put(#"{"fileSize":"#)
                    out.putInteger(file.integer(Resource.fileSize))
                    // An absent MIME type has no key (the synthesized encoding).
                    if let mimeType {
                        out.put(#","mimeType":"#)
                        out.putString(mimeType)
                    }
                    out.put(#","path":"#)
                    out.putString(path ?? UnsafeBufferPointer(start: nil, count: 0))
                    out.put(#","type":"#)
                    out.putString(type)
                    out.put(#","uniformTypeIdentifier":"#)
                    if let uniformType { out.putString(uniformType) } else { out.put(#""public.data""#) }
                    out.put(UInt8(ascii: "}"))
                }
                try rows.resources.advance()
            }

            // The other keys, in one reserved run.
            let identifier = row.text(Asset.localIdentifier)
            let burst = row.text(Asset.burstIdentifier)
            let created = AssetRowJSON.creationDate(row, timeZone: timeZone).map {
                ISO8601Text($0.date, offset: $0.offset)
            }
            let modified = AssetRowJSON.modificationDate(row, timeZone: timeZone).map {
                ISO8601Text($0.date, offset: $0.offset)
            }
            let subtypeBits = row.integer(Asset.mediaSubtypes)
            let subtypeJSON: [UInt8]
            if let known = subtypes[subtypeBits] {
                subtypeJSON = known
            } else {
                subtypeJSON = Array(
                    JSONText.array(PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: subtypeBits)).names).utf8)
                subtypes[subtypeBits] = subtypeJSON
            }
            let mediaType = AssetRowJSON.mediaTypeName(row)
            let bound =
                512 + subtypeJSON.count + (created?.bound ?? 0) + (modified?.bound ?? 0)
                + JSONText.stringBound((identifier?.count ?? 0) + (burst?.count ?? 0) + mediaType.utf8.count)
            bytes.write(atMost: bound) { out in
                out.put(#"],"burstIdentifier":"#)
                out.putOptionalString(burst)
                out.put(#","creationDate":"#)
                if let created { out.putDate(created) } else { out.put("null") }
                out.put(#","creationDateHasOffset":"#)
                out.putBool(!row.bool(Asset.creationDateIsFloating))
                out.put(#","creationDateIsFileTime":"#)
                out.putBool(row.bool(Asset.creationDateIsFileTime))
                out.put(#","duration":"#)
                out.putDouble(duration)
                out.put(#","isAvailable":"#)
                out.putBool(isAvailable)
                out.put(#","isFavorite":"#)
                out.putBool(row.bool(Asset.isFavorite))
                out.put(#","isHidden":"#)
                out.putBool(row.bool(Asset.isHidden))
                out.put(#","isLibraryOwned":"#)
                out.putBool(isLibraryOwned)
                out.put(#","localIdentifier":"#)
                out.putString(identifier ?? UnsafeBufferPointer(start: nil, count: 0))
                out.put(#","location":"#)
                if let location {
                    // An absent altitude has no key (the synthesized encoding).
                    if let altitude = location.altitude {
                        out.put(#"{"altitude":"#)
                        out.putDouble(altitude)
                        out.put(#","latitude":"#)
                    } else {
                        out.put(#"{"latitude":"#)
                    }
                    out.putDouble(location.latitude)
                    out.put(#","longitude":"#)
                    out.putDouble(location.longitude)
                    out.put(UInt8(ascii: "}"))
                } else {
                    out.put("null")
                }
                out.put(#","mediaSubtypes":"#)
                out.put(subtypeJSON)
                out.put(#","mediaType":"#)
                out.putString(mediaType)
                out.put(#","modificationDate":"#)
                if let modified { out.putDate(modified) } else { out.put("null") }
                out.put(#","pixelHeight":"#)
                out.putInteger(row.integer(Asset.pixelHeight))
                out.put(#","pixelWidth":"#)
                out.putInteger(row.integer(Asset.pixelWidth))
                out.put(#","rating":"#)
                out.putInteger(row.integer(Asset.rating))
                out.put(#","representsBurst":"#)
                out.putBool(row.bool(Asset.representsBurst))
                out.put(#","resources":["#)
            }
            files.append(to: &bytes)
            bytes.append(contentsOf: "]}".utf8)
            each?(row.string(Asset.localIdentifier) ?? "", start..<bytes.count)
            if form == .line { bytes.append(UInt8(ascii: "\n")) }
            first = false
            written += 1
            try rows.assets.advance()
        }
        return written
    }
}

/// JSON objects written aside, each with the key it sorts by, then appended in key order and comma
/// separated: an asset's albums and files, which the rows give in no particular order (most assets
/// have one of each, in order already).
struct SortedPieces {
    private var bytes: [UInt8] = []
    private var pieces: [(key: (Int64, Int64), range: Range<Int>)] = []

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        pieces.removeAll(keepingCapacity: true)
    }

    /// Writes one piece, sorted by `key` (see ``Swift/Array/write(atMost:_:)``).
    mutating func write(key: (Int64, Int64), atMost bound: Int, _ body: (inout ReservedBytes) -> Void) {
        let start = bytes.count
        bytes.write(atMost: bound, body)
        pieces.append((key, start..<bytes.count))
    }

    /// Appends the pieces to `output` in key order, separated by commas.
    func append(to output: inout [UInt8]) {
        let inOrder = zip(pieces, pieces.dropFirst()).allSatisfy { $0.key <= $1.key }
        for (index, piece) in (inOrder ? pieces : pieces.sorted { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: bytes[piece.range])
        }
    }
}
