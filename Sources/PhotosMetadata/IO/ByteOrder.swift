import CPhotosLinux

/// The byte order of a multi-byte field.
enum ByteOrder: Sendable {
    case bigEndian, littleEndian
}

/// Bounds-checked field access relative to the slice's start: every accessor returns `nil`
/// instead of trapping when the field does not fit, so a parser cannot read past its input.
extension ArraySlice<UInt8> {
    /// The byte at `offset`, or `nil` past the end.
    func u8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < count else { return nil }
        return self[startIndex + offset]
    }

    /// The 16-bit unsigned integer at `offset`.
    func u16(at offset: Int, _ order: ByteOrder) -> UInt16? {
        guard let value = unsigned(at: offset, width: 2, order) else { return nil }
        return UInt16(truncatingIfNeeded: value)
    }

    /// The 24-bit unsigned integer at `offset` (WebP canvas sizes).
    func u24(at offset: Int, _ order: ByteOrder) -> UInt32? {
        guard let value = unsigned(at: offset, width: 3, order) else { return nil }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The 32-bit unsigned integer at `offset`.
    func u32(at offset: Int, _ order: ByteOrder) -> UInt32? {
        guard let value = unsigned(at: offset, width: 4, order) else { return nil }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The 64-bit unsigned integer at `offset`.
    func u64(at offset: Int, _ order: ByteOrder) -> UInt64? {
        unsigned(at: offset, width: 8, order)
    }

    /// Whether the bytes at `offset` equal `signature`.
    func matches(_ signature: [UInt8], at offset: Int = 0) -> Bool {
        guard offset >= 0, offset <= count - signature.count else { return false }
        var index = startIndex + offset
        for byte in signature {
            if self[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// Whether the bytes at `offset` spell the ASCII text `signature`.
    func matches(ascii signature: String, at offset: Int = 0) -> Bool {
        matches(Array(signature.utf8), at: offset)
    }

    /// The offset of the first `signature` (relative, as every accessor's), found with memmem
    /// rather than a comparison at each offset; nil when it is not there or is empty.
    func offset(of signature: [UInt8]) -> Int? {
        guard !signature.isEmpty, count >= signature.count else { return nil }
        return withUnsafeBytes { bytes in
            signature.withUnsafeBytes { needle in
                cphotos_find_bytes(bytes.baseAddress!, bytes.count, needle.baseAddress!, needle.count).map {
                    bytes.baseAddress!.distance(to: $0)
                }
            }
        }
    }

    /// The offset of the first `signature` that starts before `end`.
    func offset(of signature: [UInt8], before end: Int) -> Int? {
        prefix(Swift.max(0, end) + signature.count - 1).offset(of: signature)
    }

    /// Four bytes at `offset` as text (a RIFF chunk or ISO-BMFF box type), or `nil`.
    ///
    /// Each byte is one character (ISO 8859-1), not UTF-8: QuickTime's user data and item list
    /// types begin with byte 0xA9, which must read as the `©` of `©xyz` and `©day`.
    func fourCC(at offset: Int) -> String? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        let start = startIndex + offset
        let code = self[start..<(start + 4)]
        // ASCII, as nearly every box's: four bytes of UTF-8, made in place (a parser asks for one a box).
        if code.allSatisfy({ $0 < 0x80 }) {
            return String(unsafeUninitializedCapacity: 4) { buffer in buffer.initialize(from: code).1 }
        }
        // Latin-1 beyond, as QuickTime's `©nam`.
        return String(String.UnicodeScalarView(code.map { Unicode.Scalar($0) }))
    }

    /// The sub-slice `offset ..< offset + length`, or `nil` when it does not fit.
    func slice(at offset: Int, count length: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else { return nil }
        return self[(startIndex + offset)..<(startIndex + offset + length)]
    }

    private func unsigned(at offset: Int, width: Int, _ order: ByteOrder) -> UInt64? {
        guard offset >= 0, offset <= count - width else { return nil }
        var value: UInt64 = 0
        let start = startIndex + offset
        switch order {
        case .bigEndian:
            for index in start..<(start + width) { value = value << 8 | UInt64(self[index]) }
        case .littleEndian:
            for index in (start..<(start + width)).reversed() { value = value << 8 | UInt64(self[index]) }
        }
        return value
    }
}

extension [UInt8] {
    /// The array as a slice, for the bounds-checked accessors.
    var bytes: ArraySlice<UInt8> { self[...] }
}
