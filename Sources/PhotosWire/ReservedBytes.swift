import Foundation
import PhotosCore

extension [UInt8] {
    /// Appends what `body` writes into `bound` bytes reserved at the end: one capacity check for a
    /// whole JSON object instead of one an append (the checks were a quarter of the asset JSON's
    /// time). Writing past `bound` stops the program; write less and the rest is not appended.
    package mutating func write(atMost bound: Int, _ body: (inout ReservedBytes) -> Void) {
        append(addingCapacity: bound) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                var reserved = ReservedBytes(buffer, count: initialized)
                body(&reserved)
                initialized = reserved.count
            }
        }
    }
}

/// Space reserved at the end of a byte array, written through a pointer (``Swift/Array/write(atMost:_:)``),
/// with the JSON pieces the wire shapes are made of.
package struct ReservedBytes: ~Copyable {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    package private(set) var count: Int

    fileprivate init(_ buffer: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        self.buffer = buffer
        self.count = count
    }

    /// The bound any number needs.
    package static let numberBound = 32

    private mutating func room(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(needed <= buffer.count - count, "JSON written past its reserved bound")
        return buffer.baseAddress! + count
    }

    package mutating func put(_ byte: UInt8) {
        room(1).pointee = byte
        count += 1
    }

    package mutating func put(_ text: StaticString) {
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        room(bytes.count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    package mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { put($0) }
    }

    package mutating func putBool(_ value: Bool) {
        put(value ? "true" : "false")
    }

    /// A JSON string of these UTF-8 bytes (``PhotosCore/JSONText/writeString(_:to:)``: bytes that
    /// are not UTF-8 repaired). Needs ``PhotosCore/JSONText/stringBound(_:)`` bytes.
    package mutating func putString(_ utf8: UnsafeBufferPointer<UInt8>) {
        count += JSONText.writeString(utf8, to: room(JSONText.stringBound(utf8.count)))
    }

    /// A JSON string, or `null`.
    package mutating func putOptionalString(_ utf8: UnsafeBufferPointer<UInt8>?) {
        if let utf8 { putString(utf8) } else { put("null") }
    }

    package mutating func putString(_ value: String) {
        var value = value
        value.withUTF8 { putString($0) }
    }

    /// Decimal digits.
    package mutating func putInteger(_ value: Int64) {
        count += JSONText.writeInteger(value, to: room(20))
    }

    /// As `JSONEncoder` writes a finite double: Swift's shortest round-tripping text, without `.0`.
    package mutating func putDouble(_ value: Double) {
        var text = value.description
        text.withUTF8 { utf8 in
            let trimmed =
                utf8.count > 2 && utf8[utf8.count - 2] == UInt8(ascii: ".") && utf8[utf8.count - 1] == UInt8(ascii: "0")
            put(trimmed ? UnsafeBufferPointer(rebasing: utf8.dropLast(2)) : utf8)
        }
    }

    /// A date as ``ISO8601/string(_:offset:)`` writes it, quoted: needs ``ISO8601Text/bound``.
    package mutating func putDate(_ date: ISO8601Text) {
        switch date {
        case .fields(let fields):
            put(UInt8(ascii: "\""))
            count += fields.write(into: room(ISO8601.Fields.maximumLength))
            put(UInt8(ascii: "\""))
        case .text(let text):
            putString(text)
        }
    }

}

/// A date to write: by the hand-made path straight into the output, or as Foundation's text, made
/// before the output is reserved (the rare dates outside the hand-made path's domain).
package enum ISO8601Text {
    case fields(ISO8601.Fields)
    case text(String)

    package init(_ date: Date, offset: Int) {
        if let fields = ISO8601.Fields(date, offset: offset) {
            self = .fields(fields)
        } else {
            self = .text(ISO8601.foundation(date, offset: offset))
        }
    }

    /// The bytes it needs, quoted.
    package var bound: Int {
        switch self {
        case .fields: ISO8601.Fields.maximumLength + 2
        case .text(let text): JSONText.stringBound(text.utf8.count)
        }
    }
}
