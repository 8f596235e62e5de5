/// Reads a JPEG XL image's size from its codestream's SizeHeader, in a bare codestream or in the
/// first `jxlc`/`jxlp` box of the ISO-style container.
enum JPEGXLParser {
    private static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        var codestream = reader.head[...]
        if codestream.matches(containerSignature) {
            let boxes = try ISOMediaParser.children(of: nil, in: reader, strict: true)
            guard let box = boxes.first(where: { $0.type == "jxlc" || $0.type == "jxlp" }) else {
                throw reader.corrupt("JPEG XL container has no codestream box (jxlc or jxlp)")
            }
            // A `jxlp` part starts with a 4-byte sequence number.
            let start = box.payload + (box.type == "jxlp" ? 4 : 0)
            codestream = try reader.read(at: start, count: min(64, box.end - start))
        }
        guard codestream.matches([0xFF, 0x0A]) else { throw reader.corrupt("JPEG XL codestream lacks its signature") }
        var bits = BitReader(codestream.dropFirst(2))
        guard let size = sizeHeader(&bits) else { throw reader.truncated("JPEG XL size header is cut off") }
        var info = ContainerInfo()
        info.setSize(size.width, size.height)
        return info
    }

    /// The SizeHeader of the JPEG XL specification (ISO/IEC 18181-1, D.2).
    private static func sizeHeader(_ bits: inout BitReader) -> (width: Int, height: Int)? {
        guard let small = bits.read(1) else { return nil }
        let height: Int
        if small == 1 {
            guard let value = bits.read(5) else { return nil }
            height = (value + 1) * 8
        } else {
            guard let value = dimension(&bits) else { return nil }
            height = value
        }
        guard let ratio = bits.read(3) else { return nil }
        let ratios: [Int: (Int, Int)] = [
            1: (1, 1), 2: (12, 10), 3: (4, 3), 4: (3, 2), 5: (16, 9), 6: (5, 4), 7: (2, 1),
        ]
        if let (numerator, denominator) = ratios[ratio] {
            return (height * numerator / denominator, height)
        }
        if small == 1 {
            guard let value = bits.read(5) else { return nil }
            return ((value + 1) * 8, height)
        }
        guard let width = dimension(&bits) else { return nil }
        return (width, height)
    }

    /// `U32(1 + u(9), 1 + u(13), 1 + u(18), 1 + u(30))`.
    private static func dimension(_ bits: inout BitReader) -> Int? {
        guard let selector = bits.read(2), let value = bits.read([9, 13, 18, 30][selector]) else { return nil }
        return value + 1
    }
}

/// Reads bits least-significant first, as JPEG XL stores them.
struct BitReader {
    private let bytes: ArraySlice<UInt8>
    private var position = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The next `count` bits (at most 32) as an integer, or `nil` past the end.
    mutating func read(_ count: Int) -> Int? {
        var value = 0
        for index in 0..<count {
            guard let byte = bytes.u8(at: position >> 3) else { return nil }
            value |= Int((byte >> UInt8(position & 7)) & 1) << index
            position += 1
        }
        return value
    }
}
