import PhotosLinux

/// A PNG's chunks walked before libvips reads it, for one that claims more bytes than it holds.
///
/// libpng (1.6, under libvips 8.14) allocates a text chunk's declared length and fills it before
/// it finds that the file ends: a 213-byte PNG whose `iTXt` chunk claimed 1.9 GB took libvips
/// 1.9 GB of memory to refuse (a fuzzer found it). libpng's own limit only warns for such a
/// chunk, and libvips goes on. Every chunk of a whole PNG fits in the bytes after it, so one that
/// runs past the end is refused here, as ``ImagingError/Code/undecodable``, before any
/// allocation; data that is not a PNG passes untouched.
///
/// ```swift
/// if let overrun = PNGChunks.overrun(in: bytes) { throw ImagingError(.undecodable, overrun) }
/// ```
enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Why `data`, a PNG, cannot be whole (a chunk that runs past its end); nil when each fits,
    /// or when `data` is not a PNG.
    static func overrun(in data: UnsafeRawBufferPointer) -> String? {
        overrun(size: data.count) { offset, into in
            guard offset + into.count <= data.count else { return false }
            into.copyMemory(from: UnsafeRawBufferPointer(rebasing: data[offset..<(offset + into.count)]))
            return true
        }
    }

    /// ``overrun(in:)`` of the file open as `descriptor`, `size` bytes long, read a chunk's header
    /// at a time (a few thousand reads for a large picture's `IDAT` chunks, against its decoding).
    static func overrun(descriptor: Int32, size: Int) -> String? {
        overrun(size: size) { offset, into in
            (try? Syscall.read(descriptor, into: into, at: offset)) == into.count
        }
    }

    /// The walk itself, through one 8-byte buffer: `read(offset, buffer)` fills the buffer with the
    /// bytes at `offset`, or answers false past the end.
    private static func overrun(size: Int, read: (Int, UnsafeMutableRawBufferPointer) -> Bool) -> String? {
        var header = [UInt8](repeating: 0, count: 8)
        return header.withUnsafeMutableBytes { bytes -> String? in
            guard size >= 8, read(0, bytes), bytes.elementsEqual(signature) else { return nil }
            var offset = 8
            // A header (length, type) and a CRC each, until IEND; a truncated tail is libpng's to judge.
            while offset + 8 <= size, read(offset, bytes) {
                let length = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: bytes[4..<8], as: UTF8.self)
                guard offset + 12 + length <= size else {
                    return "its \(type) chunk at byte \(offset) claims \(length) bytes, past the end of the "
                        + "\(size)-byte file"
                }
                if type == "IEND" { return nil }
                offset += 12 + length
            }
            return nil
        }
    }
}
