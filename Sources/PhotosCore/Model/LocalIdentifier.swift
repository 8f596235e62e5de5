import Foundation
import Synchronization

/// Local identifiers in PhotoKit's shape: a UUID and a suffix naming the object type
/// (`7A3C…/L0/001` for an asset). The one place identifiers are formed.
///
/// The UUIDs are time-ordered (RFC 9562 version 7: milliseconds since 1970, then a counter and
/// random bits), so identifiers made one after another sort one after another. The library's
/// index on identifiers then grows at its end: with random (version 4) UUIDs each new asset of a
/// first scan landed on its own page of that index, and at a million assets a scan wrote about a
/// page (4 KB) of it per file, while at 10,000 the whole index fit in SQLite's cache.
public enum LocalIdentifier {
    /// A new identifier for an object of `type`.
    public static func make(_ type: PHObjectType) -> String {
        identifier(TimeOrderedUUID.next(), type)
    }

    /// The identifier of `uuid` for an object of `type`: the UUID as Foundation writes it (upper
    /// case), then the type's suffix, written into one string. `uuidString` formats each byte with
    /// `snprintf`: a first scan makes a few thousand identifiers on its committing thread, and
    /// that was 2% of the thread.
    public static func identifier(_ uuid: UUID, _ type: PHObjectType) -> String {
        let suffix = suffix(type).utf8
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36 + suffix.count) { text in
                var end = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[end] = UInt8(ascii: "-")
                        end += 1
                    }
                    text[end] = hexDigits[Int(byte >> 4)]
                    text[end + 1] = hexDigits[Int(byte & 0xF)]
                    end += 2
                }
                for byte in suffix {
                    text[end] = byte
                    end += 1
                }
                return end
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The suffix PhotoKit gives identifiers of `type`.
    public static func suffix(_ type: PHObjectType) -> String {
        switch type {
        case .asset: "/L0/001"
        case .assetCollection: "/L0/040"
        case .collectionList: "/L0/020"
        }
    }
}

/// Version 7 UUIDs (RFC 9562), increasing within this process: 48 bits of Unix time in
/// milliseconds, the version, 12 bits of counter within the millisecond (method 1 of the RFC's
/// section 6.2), the variant, and 62 random bits. Their strings sort in the order they were made.
public enum TimeOrderedUUID {
    private static let last = Mutex<(milliseconds: UInt64, counter: UInt16)>((0, 0))

    /// The next UUID: after every one this process made before, even if the clock goes back.
    public static func next(now: Date = Date()) -> UUID {
        let wall = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let (milliseconds, counter) = last.withLock { last -> (UInt64, UInt16) in
            if wall > last.milliseconds {
                // A random start in the lower half leaves room to count up within the millisecond.
                last = (wall, UInt16.random(in: 0..<0x800))
            } else if last.counter < 0xFFF {
                last.counter += 1
            } else {
                // 4,096 in one millisecond: borrow the next one.
                last = (last.milliseconds + 1, 0)
            }
            return last
        }
        var random = SystemRandomNumberGenerator()
        let tail = random.next() as UInt64
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(counter >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: counter)
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: tail >> (56 - 8 * UInt64(index - 8))) }
        bytes[8] = 0x80 | (bytes[8] & 0x3F)
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
