import Foundation

/// Image files made by tests: hostile ones that the corpus does not hold.
public enum TestImages {
    /// A PNG of a few dozen bytes whose header claims `width` x `height` pixels (a decompression
    /// bomb: decoding it would need width x height x 3 bytes), with one short stored deflate block
    /// of zero rows as its data.
    public static func bombPNG(width: UInt32 = 60_000, height: UInt32 = 60_000) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: width)
        header.append(bigEndian: height)
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, RGB, deflate, no filter, no interlace
        png.append(chunk("IHDR", header))
        let rows = [UInt8](repeating: 0, count: 1024)
        var zlib = Data([0x78, 0x01, 0x01])  // zlib header; a final stored block
        zlib.append(littleEndian: UInt16(rows.count))
        zlib.append(littleEndian: ~UInt16(rows.count))
        zlib.append(contentsOf: rows)
        zlib.append(bigEndian: adler32(rows))
        png.append(chunk("IDAT", zlib))
        png.append(chunk("IEND", Data()))
        return png
    }

    /// A PNG of 213 bytes whose text chunk (`iTXt`) claims 1,986,621,555 bytes, as a fuzzer made
    /// it: libpng allocated and filled that much before finding the file's end.
    public static func overclaimingPNG() -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(45))
        header.append(bigEndian: UInt32(28))
        header.append(contentsOf: [8, 6, 0, 0, 0])  // 8 bits, RGBA, deflate, no filter, no interlace
        png.append(chunk("IHDR", header))
        png.append(bigEndian: UInt32(0x7669_7073))
        png.append(Data("iTXtRaw profile type exif".utf8))
        png.append(Data(repeating: 0x4E, count: 213 - png.count))
        return png
    }

    private static func chunk(_ type: String, _ payload: Data) -> Data {
        var chunk = Data()
        chunk.append(bigEndian: UInt32(payload.count))
        let typed = Data(type.utf8) + payload
        chunk.append(typed)
        chunk.append(bigEndian: crc32(typed))
        return chunk
    }

    private static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }
}

extension Data {
    fileprivate mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
