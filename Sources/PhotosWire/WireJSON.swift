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

/// Writes asset and collection JSON into a byte buffer, byte for byte what
/// ``WireJSON/makeEncoder()`` writes (`WireJSONWriterTests` holds it to that), about ten times faster:
/// `JSONEncoder` builds a tree of boxed values and sorts every object's keys each time, where this
/// writer knows each shape's sorted keys.
///
/// ```swift
/// var writer = WireJSONWriter()
/// for asset in page { try writer.appendLine(asset) }
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
    ///
    /// Throws `EncodingError.invalidValue`, as `JSONEncoder` does, for a number JSON cannot hold
    /// (infinity, NaN); nothing is appended then.
    public mutating func appendLine(_ asset: AssetDescription) throws {
        try append(asset)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one album's or folder's JSON and a newline.
    public mutating func appendLine(_ collection: CollectionDescription) {
        append(collection)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one asset's JSON.
    public mutating func append(_ asset: AssetDescription) throws {
        let numbers = [asset.duration, asset.location?.latitude, asset.location?.longitude, asset.location?.altitude]
        for case let number? in numbers where !number.isFinite {
            throw EncodingError.invalidValue(
                number,
                EncodingError.Context(
                    codingPath: [], debugDescription: "Unable to encode Double.\(number) directly in JSON."))
        }
        begin("{")
        key("albums")
        begin("[")
        for album in asset.albums {
            separator()
            begin("{")
            key("localIdentifier")
            string(album.localIdentifier)
            key("localizedTitle")
            string(album.localizedTitle)
            key("path")
            string(album.path)
            end("}")
        }
        end("]")
        key("burstIdentifier")
        string(asset.burstIdentifier)
        key("creationDate")
        string(asset.creationDate)
        key("creationDateHasOffset")
        bool(asset.creationDateHasOffset)
        key("duration")
        double(asset.duration)
        key("isAvailable")
        bool(asset.isAvailable)
        key("isFavorite")
        bool(asset.isFavorite)
        key("isHidden")
        bool(asset.isHidden)
        key("localIdentifier")
        string(asset.localIdentifier)
        key("location")
        if let location = asset.location {
            begin("{")
            // An absent altitude has no key (the synthesized encoding).
            if let altitude = location.altitude {
                key("altitude")
                double(altitude)
            }
            key("latitude")
            double(location.latitude)
            key("longitude")
            double(location.longitude)
            end("}")
        } else {
            null()
        }
        key("mediaSubtypes")
        begin("[")
        for name in asset.mediaSubtypes {
            separator()
            string(name)
        }
        end("]")
        key("mediaType")
        string(asset.mediaType)
        key("modificationDate")
        string(asset.modificationDate)
        key("pixelHeight")
        integer(asset.pixelHeight)
        key("pixelWidth")
        integer(asset.pixelWidth)
        key("rating")
        integer(asset.rating)
        key("representsBurst")
        bool(asset.representsBurst)
        key("resources")
        begin("[")
        for resource in asset.resources {
            separator()
            begin("{")
            key("fileSize")
            integer(resource.fileSize)
            // An absent MIME type has no key (the synthesized encoding).
            if let mimeType = resource.mimeType {
                key("mimeType")
                string(mimeType)
            }
            key("path")
            string(resource.path)
            key("type")
            string(resource.type)
            key("uniformTypeIdentifier")
            string(resource.uniformTypeIdentifier)
            end("}")
        }
        end("]")
        end("}")
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
    public mutating func appendElement(_ asset: AssetDescription) throws {
        let mark = bytes.count
        separator()
        do {
            try append(asset)
        } catch {
            bytes.removeSubrange(mark...)
            throw error
        }
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

    private mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
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
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
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

    /// As `JSONEncoder` writes a finite double: Swift's shortest round-tripping text, without `.0`.
    private mutating func double(_ value: Double) {
        let text = value.description
        if text.hasSuffix(".0") {
            bytes.append(contentsOf: text.utf8.dropLast(2))
        } else {
            bytes.append(contentsOf: text.utf8)
        }
        first = false
    }

    /// As `JSONEncoder` escapes (``JSONText/appendString(_:to:)``).
    private mutating func string(_ value: String?) {
        guard let value else { return null() }
        JSONText.appendString(value, to: &bytes)
        first = false
    }
}
