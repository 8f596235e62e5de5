import Glibc
import PhotosCore
import Synchronization

/// The mounts this process sees, from `/proc/self/mountinfo`: where a file's file system is
/// mounted (its trash's "top directory"), and which mount points may hold a trash.
struct MountTable: Sendable {
    /// One line of `mountinfo`.
    struct Mount: Equatable, Sendable {
        /// The mount's id (the first field): two mounts of one file system differ here.
        var id: Int
        /// `st_dev` of the files on it (the third field, `major:minor`, as `makedev` makes it).
        var device: Int64
        /// Where it is mounted (the fifth field, its `\040`-style escapes decoded).
        var mountPoint: String
        /// The file system type (after the ` - ` separator: `ext4`, `tmpfs`, `autofs`).
        var fsType: String = ""
    }

    /// The mounts in the order the kernel lists them (a later one over an earlier one at the same path).
    var mounts: [Mount]

    /// The table of this process, or an empty one when `/proc` cannot be read. Read at each call
    /// (mounts come and go); parsed again only when the text changed (a deletion asks once per file).
    static func current() -> MountTable {
        guard let bytes = try? TrashFiles.read("/proc/self/mountinfo", limit: 16 << 20) else {
            return MountTable(mounts: [])
        }
        if let table = lastParsed.withLock({ $0?.bytes == bytes ? $0?.table : nil }) { return table }
        let table = MountTable(parsing: bytes)
        lastParsed.withLock { $0 = (bytes, table) }
        return table
    }

    /// The text last parsed and its table.
    private static let lastParsed = Mutex<(bytes: [UInt8], table: MountTable)?>(nil)

    /// Reads `mountinfo` text; lines that do not have its shape are skipped.
    init(parsing bytes: [UInt8]) {
        var mounts: [Mount] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count >= 5, let id = Int(String(decoding: fields[0], as: UTF8.self)) else { continue }
            let numbers = fields[2].split(separator: UInt8(ascii: ":"))
            guard numbers.count == 2, let major = UInt64(String(decoding: numbers[0], as: UTF8.self)),
                let minor = UInt64(String(decoding: numbers[1], as: UTF8.self))
            else { continue }
            let point = PathBytes.string(Self.unescaped(fields[4]))
            guard point.hasPrefix("/") else { continue }
            let separator = fields.firstIndex { $0.elementsEqual("-".utf8) }
            let type = separator.flatMap {
                $0 + 1 < fields.count ? String(decoding: fields[$0 + 1], as: UTF8.self) : nil
            }
            mounts.append(
                Mount(
                    id: id, device: Self.device(major: major, minor: minor), mountPoint: point, fsType: type ?? ""))
        }
        self.mounts = mounts
    }

    init(mounts: [Mount]) { self.mounts = mounts }

    /// The mount that holds `path` (absolute, links resolved): the one with the longest mount point
    /// that is `path` or one of its parents, the last listed among equals (it hides the others).
    func mount(containing path: String) -> Mount? {
        var best: Mount?
        for mount in mounts where Self.isInside(path, mount.mountPoint) {
            if let current = best, current.mountPoint.utf8.count > mount.mountPoint.utf8.count { continue }
            best = mount
        }
        return best
    }

    /// Whether `path` is `directory` or inside it.
    static func isInside(_ path: String, _ directory: String) -> Bool { PathName.isWithin(path, directory) }

    /// glibc's `makedev`: the `dev_t` of `major:minor`, as `stat` reports it.
    static func device(major: UInt64, minor: UInt64) -> Int64 {
        let value =
            ((major & 0xFFFF_F000) << 32) | ((major & 0xFFF) << 8) | ((minor & 0xFFFF_FF00) << 12) | (minor & 0xFF)
        return Int64(bitPattern: value)
    }

    /// A `mountinfo` field with its octal escapes (`\040` for a space, `\134` for a backslash) decoded.
    private static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
        let bytes = Array(field)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count,
                let value = octal(bytes[(index + 1)..<(index + 4)])
            {
                out.append(value)
                index += 4
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 0xFF ? UInt8(value) : nil
    }
}
