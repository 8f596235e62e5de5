import Foundation
import PhotosCore

/// How the wire shapes are written: keys sorted, slashes not escaped (`photos … --json`, hook
/// payloads).
public enum WireJSON {
    /// The encoder for any wire shape: keys sorted, slashes not escaped.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// Writes the JSON of listings, collections and assets into a byte buffer, byte for byte what
/// ``WireJSON/makeEncoder()`` writes (`WireJSONWriterTests` holds it to that), about ten times faster:
/// `JSONEncoder` builds a tree of boxed values and sorts every object's keys each time, where this
/// writer knows each shape's sorted keys.
///
/// Asset JSON has one writer, the store's, which writes it straight from the rows (PhotosStore's
/// `DescriptionReader.writeAssets`); this writer places what it wrote (``AssetJSON``). An
/// ``AssetDescription`` is the shape clients decode, and its `Codable` encoding writes the same bytes.
///
/// ```swift
/// var writer = WireJSONWriter()
/// writer.beginListing("albums")
/// for album in page { writer.appendElement(album) }
/// writer.endListing(next: nil)
/// FileHandle.standardOutput.write(Data(writer.bytes))
/// ```
public struct WireJSONWriter: Sendable {
    /// What was written so far.
    public package(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// Forgets what was written, keeping the buffer for the next page.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends one asset's JSON and a newline (a JSON Lines record).
    public mutating func appendLine(_ asset: AssetJSON) {
        append(asset)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one album's or folder's JSON and a newline.
    public mutating func appendLine(_ collection: CollectionDescription) {
        append(collection)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one asset's JSON.
    public mutating func append(_ asset: AssetJSON) {
        bytes.append(contentsOf: asset.bytes)
        first = false
    }

    /// Appends one album's or folder's JSON (absent values leave their keys out).
    public mutating func append(_ collection: CollectionDescription) {
        begin("{")
        if let endDate = collection.endDate {
            key("endDate")
            string(endDate)
        }
        if let count = collection.estimatedAssetCount {
            key("estimatedAssetCount")
            integer(count)
        }
        key("localIdentifier")
        string(collection.localIdentifier)
        if let title = collection.localizedTitle {
            key("localizedTitle")
            string(title)
        }
        if let parent = collection.parentLocalIdentifier {
            key("parentLocalIdentifier")
            string(parent)
        }
        if let path = collection.path {
            key("path")
            string(path)
        }
        if let startDate = collection.startDate {
            key("startDate")
            string(startDate)
        }
        key("subtype")
        string(collection.subtype)
        key("type")
        string(collection.type)
        end("}")
    }

    // MARK: Listings

    /// How objects are written: elements of a listing (``beginListing(_:)``), or one a line.
    public enum Form: Sendable {
        case element, line
    }

    /// Starts a listing, `{"NAME":[`; its elements follow with `appendElement`.
    public mutating func beginListing(_ name: String) {
        bytes.append(UInt8(ascii: "{"))
        JSONText.appendString(name, to: &bytes)
        bytes.append(contentsOf: ":[".utf8)
        first = true
    }

    /// One asset of a listing.
    public mutating func appendElement(_ asset: AssetJSON) {
        separator()
        append(asset)
    }

    /// One album or folder of a listing.
    public mutating func appendElement(_ collection: CollectionDescription) {
        separator()
        append(collection)
    }

    /// Ends a listing: `]`, then `"next"` when there is more to fetch, then `}`.
    public mutating func endListing(next: String?) {
        bytes.append(UInt8(ascii: "]"))
        if let next {
            bytes.append(contentsOf: ",\"next\":".utf8)
            JSONText.appendString(next, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    // MARK: Pieces

    /// Whether the next key or element is the first of its object or array (no comma before it).
    package var first = true

    private mutating func begin(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        first = true
    }

    private mutating func end(_ bracket: Unicode.Scalar) {
        bytes.append(UInt8(ascii: bracket))
        first = false
    }

    private mutating func separator() {
        if !first { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func key(_ name: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func null() {
        bytes.append(contentsOf: "null".utf8)
        first = false
    }

    /// Decimal digits, written in place (`description` allocated a string for each number).
    private mutating func integer<Value: BinaryInteger>(_ value: Value) {
        first = false
        guard let number = Int64(exactly: value), number != .min else {
            bytes.append(contentsOf: value.description.utf8)
            return
        }
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// As `JSONEncoder` escapes (``JSONText/appendString(_:to:)``).
    private mutating func string(_ value: String?) {
        guard let value else { return null() }
        JSONText.appendString(value, to: &bytes)
        first = false
    }
}

/// One asset's JSON as the store wrote it from its rows (PhotosStore's `DescriptionReader.assetJSON`),
/// with the identifier it is of: what a hook's payload and a live query place among other JSON.
/// The bytes decode as an ``AssetDescription``.
public struct AssetJSON: Sendable, Hashable {
    /// The asset's local identifier.
    public var localIdentifier: String
    /// The asset's JSON object, `{` to `}`.
    public var bytes: [UInt8]

    /// An asset's JSON, written already.
    public init(localIdentifier: String, bytes: [UInt8]) {
        self.localIdentifier = localIdentifier
        self.bytes = bytes
    }

    /// A description's JSON through its `Codable` encoding (the same bytes the store writes from the
    /// rows): for assets that have no row to write from. Throws `EncodingError.invalidValue` for a
    /// number JSON cannot hold.
    public init(_ description: AssetDescription) throws {
        localIdentifier = description.localIdentifier
        bytes = Array(try WireJSON.makeEncoder().encode(description))
    }
}
