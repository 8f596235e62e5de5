import Glibc
import PhotosCore

/// One event as the kernel wrote it, before its watch descriptor is resolved to a path.
public struct RawInotifyEvent: Hashable, Sendable {
    /// The watch descriptor (-1 for `IN_Q_OVERFLOW`).
    public var wd: Int32
    /// The `IN_*` bits.
    public var mask: UInt32
    /// Pairs `IN_MOVED_FROM` with `IN_MOVED_TO`; 0 otherwise.
    public var cookie: UInt32
    /// The entry's name inside the watched directory (a ``PathBytes`` string, so a name that is not
    /// UTF-8 keeps its bytes); nil for events about the directory itself.
    public var name: String?

    /// Creates an event (the parser does; tests write their own).
    public init(wd: Int32, mask: UInt32, cookie: UInt32, name: String?) {
        self.wd = wd
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }

    /// Whether any of `bits` is set (`event.has(IN_ISDIR)`).
    public func has(_ bits: Int32) -> Bool { mask & UInt32(bitPattern: bits) != 0 }
}

/// Splits what ``Inotify/read(_:into:)`` returned from an inotify descriptor into events.
///
/// Each event is the 16-byte `struct inotify_event` header (`wd`, `mask`, `cookie`, `len`) followed
/// by `len` bytes of name, NUL-terminated and padded with NULs to an alignment boundary. Swift
/// does not import the flexible `name[]` member, so the name is read from the bytes after the
/// header; fields are loaded unaligned so that any buffer works.
public enum InotifyEventParser {
    /// The header's size: 16 bytes.
    public static let headerSize = MemoryLayout<inotify_event>.size

    /// The events in `bytes`; a truncated trailing event (which the kernel never writes) is ignored.
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> [RawInotifyEvent] {
        var events: [RawInotifyEvent] = []
        var offset = 0
        while offset + headerSize <= bytes.count {
            let header = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameStart = offset + headerSize
            let nameEnd = nameStart + Int(header.len)
            guard nameEnd <= bytes.count else { break }
            var name: String?
            if header.len > 0 {
                let field = UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd])
                let length = field.firstIndex(of: 0) ?? field.count
                if length > 0 { name = PathBytes.string(field.prefix(length)) }
            }
            events.append(RawInotifyEvent(wd: header.wd, mask: header.mask, cookie: header.cookie, name: name))
            offset = nameEnd
        }
        return events
    }
}
