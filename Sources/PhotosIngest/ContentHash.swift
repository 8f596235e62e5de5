import Glibc
import PhotosCore

/// A 128-bit hash of a file's whole content, to recognise identical files.
///
/// Two independent 64-bit multiply-rotate lanes over 8-byte words (not cryptographic: the library
/// compares the user's own files, and equal hashes are only ever a duplicate report).
public enum ContentHash {
    /// The hash as 32 hex digits, or nil when the file cannot be read.
    public static func of(path: String) -> String? {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15
        var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var total: UInt64 = 0
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            // Fill the buffer before hashing, so the hash never depends on how reads are split.
            var count = 0
            while count < size {
                let got = read(fd, buffer.baseAddress! + count, size - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    return nil
                }
                if got == 0 { break }
                count += got
            }
            if count == 0 { break }
            total &+= UInt64(count)
            let words = count / 8
            for index in 0..<words {
                let word = buffer.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                a = (a ^ word) &* 0x9FB2_1C65_1E98_DF25
                a = (a << 29) | (a >> 35)
                b = (b &+ word) &* 0xFF51_AFD7_ED55_8CCD
                b = (b << 31) | (b >> 33)
            }
            var tail: UInt64 = 0
            for index in (words * 8)..<count { tail = (tail << 8) | UInt64(buffer[index]) }
            a = (a ^ tail ^ UInt64(count)) &* 0x9FB2_1C65_1E98_DF25
            b = (b &+ tail) &* 0xFF51_AFD7_ED55_8CCD
        }
        a ^= total
        b ^= total &* 0x9E37_79B9_7F4A_7C15
        return hex(mix(a)) + hex(mix(b))
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
