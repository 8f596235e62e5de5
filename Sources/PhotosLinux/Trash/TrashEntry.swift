import Foundation

/// One trashed file or directory: its trash, its name there, where it came from, when, and (unless
/// it is an orphan) the file itself as `lstat` sees it in `files/`.
///
/// ``Trash/trash(_:)`` returns one for what it moved; ``Trash/listing(of:)`` one per `.trashinfo`,
/// whoever wrote it. The device and inode are those of the file the user had: a rename keeps
/// them, so a file restored by another tool (trash-cli, a file manager) is known again by them.
///
/// ```swift
/// let entry = try trash.trash("/srv/photos/2024/IMG_0001.JPG")
/// entry.name           // "IMG_0001.JPG", or "IMG_0001.JPG_1" when the name was taken
/// entry.originalPath   // "/srv/photos/2024/IMG_0001.JPG"
/// entry.file?.inode    // the inode the photo had, and still has
/// ```
public struct TrashEntry: Equatable, Sendable, CustomStringConvertible {
    /// The trash it is in.
    public let directory: TrashDirectory
    /// Its name in the trash: `files/NAME`, `info/NAME.trashinfo`.
    public let name: String
    /// Where it was, absolute (a relative `Path=` read against the trash's top directory).
    public let originalPath: String
    /// The `DeletionDate=` as written: local time, `YYYY-MM-DDThh:mm:ss`; nil when absent.
    public let deletionDate: String?
    /// `files/NAME` as `lstat` sees it; nil for an orphan (a `.trashinfo` without its file).
    public let file: FileIdentity?
    /// The `.trashinfo` as read.
    public let info: TrashInfo

    /// An entry; ``Trash`` makes them.
    public init(directory: TrashDirectory, name: String, info: TrashInfo, file: FileIdentity?) {
        self.directory = directory
        self.name = name
        self.info = info
        self.originalPath = directory.originalPath(for: info.path)
        self.deletionDate = info.deletionDate
        self.file = file
    }

    /// Whether `files/NAME` is missing (another tool removed it, or an erase stopped halfway).
    public var isOrphan: Bool { file == nil }
    /// The deletion date as an instant (read as local time), when it can be read.
    public var deletionInstant: Date? { deletionDate.flatMap(TrashInfo.date(fromDeletionDate:)) }
    /// `files/NAME`.
    public var filePath: String { directory.filePath(of: name) }
    /// `info/NAME.trashinfo`.
    public var infoPath: String { directory.infoPath(of: name) }
    /// Whether this library wrote it (its `.trashinfo` carries `X-Photosd-Process=`).
    public var isOwn: Bool { info.process != nil }

    /// `"2026-11-28T16:05:09 /srv/photos/IMG_0001.JPG (IMG_0001.JPG in user trash /srv/.Trash-1000)"`.
    public var description: String {
        "\(deletionDate ?? "?") \(originalPath) (\(name) in \(directory)\(isOrphan ? ", orphan" : ""))"
    }
}

/// What a trash directory holds: its entries, and what could not be read as one.
public struct TrashListing: Sendable {
    /// Every readable `.trashinfo`, by name; orphans (no file in `files/`) included.
    public var entries: [TrashEntry]
    /// `.trashinfo` files that cannot be read as one, each error naming its file and why.
    public var unreadable: [TrashError]
    /// Names in `files/` without a `.trashinfo` (no tool can say where they came from).
    public var unlisted: [String]

    /// The entries whose file is missing.
    public var orphans: [TrashEntry] { entries.filter(\.isOrphan) }
}
