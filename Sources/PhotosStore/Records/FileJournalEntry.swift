import PhotosCore

/// One row of the `fileJournal` table: work on disk that a committed change block still owes.
///
/// A change block that adds a file to the library, or deletes an asset whose file the library
/// placed, writes its entries in its own transaction. The work is done after the commit, and each
/// entry is deleted when its work is done. An entry found at the next open belongs to a process that
/// stopped in between (kill -9, power loss); the library finishes it then. The caller's file is
/// never removed before the library's copy of it is complete under its final name.
public struct FileJournalEntry: Sendable, Hashable, Codable {
    /// What an entry asks for.
    public enum Operation: String, Sendable, Codable, CaseIterable {
        /// Put a file in the import folder at `destination`: link `staged` (the library's complete
        /// copy) there, or, with no staged copy, link the caller's `source` there (same file system).
        case place
        /// Remove `destination`, a file the library placed, if it is still that file (`device`, `inode`).
        case remove
        /// Move `destination`, a file or directory under a root with `write = "files"`, to the Trash of
        /// its file system, if it is still that file (`device`, `inode`): an asset's file (`assetId`), or
        /// a deleted album's emptied directory (no `assetId`).
        case trash
        /// Rename `source` to `destination` without replacing anything (a directory-backed album
        /// renamed or moved, an asset's file moved into an album's directory), if `source` is still
        /// that file (`device`, `inode`).
        case rename
        /// Bring the sidecar of the asset `assetId` (whose photo is `destination`) up to date with the
        /// library: merged, never rewritten whole.
        case sidecar
        /// Write the album manifest (the library's user albums and folders) at the top of the root
        /// `destination`, whole and atomically.
        case manifest
        /// Make the directory `destination` (an album created inside a directory-backed folder); a
        /// directory already there is taken as it is, nothing else is ever replaced.
        case mkdir
        /// Bring `source`, a file of a drop folder, into a root at `destination` (an import): linked
        /// there on its file system, else copied, synced and verified; then, with `removeSource`,
        /// `source` is removed if it is still that file (`device`, `inode`, `fileSize`,
        /// `modificationTime`) and `destination` holds it.
        case importFile = "import"
        /// Bring `source`, a deleted asset's file in the Trash (`files/NAME`), back to `destination`,
        /// its path, if `source` is still that file (`device`, `inode`) and nothing is at
        /// `destination` (never replaced); then remove its `.trashinfo`. Once every file of the asset
        /// `assetId` journaled to come back is back, the asset leaves Recently Deleted.
        case restore
    }

    /// The row id; nil until inserted.
    public var id: Int64?
    /// What to do.
    public var operation: Operation
    /// The file's final path in the import folder (placing), or the file to remove.
    public var destination: String
    /// The library's complete, synced copy under a temporary name, when there is one.
    public var staged: String?
    /// The caller's file, when it is moved into the library.
    public var source: String?
    /// Whether to unlink `source` once `destination` holds its content (`shouldMoveFile`).
    public var removeSource: Bool
    /// The device of the file the entry is about: the source being moved, or the file to remove.
    public var device: Int64?
    /// Its inode: a file that is no longer this one is left alone.
    public var inode: Int64?
    /// Its size when the entry was written.
    public var fileSize: Int64?
    /// Its modification time when the entry was written (seconds since 1970).
    public var modificationTime: Double?
    /// The process that does the work; another process takes an entry over only once it has gone.
    public var owner: Int64
    /// The asset the entry is about, where the work needs it (a sidecar).
    public var assetId: Int64?

    /// An entry, owned by `owner`.
    public init(
        operation: Operation, destination: String, staged: String? = nil, source: String? = nil,
        removeSource: Bool = false, device: Int64? = nil, inode: Int64? = nil, fileSize: Int64? = nil,
        modificationTime: Double? = nil, owner: Int64, assetId: Int64? = nil
    ) {
        self.operation = operation
        self.destination = destination
        self.staged = staged
        self.source = source
        self.removeSource = removeSource
        self.device = device
        self.inode = inode
        self.fileSize = fileSize
        self.modificationTime = modificationTime
        self.owner = owner
        self.assetId = assetId
    }

    /// The owner of work any process may do: no process id is 0, so every process may take it over.
    public static let anyOwner: Int64 = 0
}

/// A journal entry's row, read and written through the engine-neutral ``StoreConnection``.
extension FileJournalEntry {
    /// The columns of an entry's row, in the order ``init(row:)`` reads them and ``values`` gives
    /// them (the id first).
    static let columnNames = [
        "id", "operation", "destination", "staged", "source", "removeSource", "device", "inode", "fileSize",
        "modificationTime", "owner", "assetId",
    ]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// An entry from a row that selected ``columns``; an operation this build does not know (a newer
    /// build's) is a ``StoreError`` (`newerSchema`), never a guess.
    init(row: StoreRow) throws {
        id = try row.int64(0)
        let named = try row.text(1)
        guard let operation = Operation(rawValue: named) else {
            throw StoreError(
                .missingColumn, "a file journal entry asks for \"\(named)\", which this build does not know")
        }
        self.operation = operation
        destination = try row.text(2)
        staged = row.optionalText(3)
        source = row.optionalText(4)
        removeSource = try row.bool(5)
        device = row.optionalInt64(6)
        inode = row.optionalInt64(7)
        fileSize = row.optionalInt64(8)
        modificationTime = row.optionalDouble(9)
        owner = try row.int64(10)
        assetId = row.optionalInt64(11)
    }

    /// The row's values but its id, in the order of ``columns`` after `id`.
    var values: [SQLValue] {
        [
            .text(operation.rawValue), .text(destination), staged.map(SQLValue.text) ?? .null,
            source.map(SQLValue.text) ?? .null, .int(removeSource ? 1 : 0), device.map(SQLValue.int) ?? .null,
            inode.map(SQLValue.int) ?? .null, fileSize.map(SQLValue.int) ?? .null,
            modificationTime.map(SQLValue.double) ?? .null, .int(owner), assetId.map(SQLValue.int) ?? .null,
        ]
    }
}

extension LibraryTransaction {
    /// Records work owed on disk once this transaction commits; returns the entry with its id. The
    /// entry is this host's (``host``): only processes on this host see it, take it over or carry it
    /// out, since the paths it names are on this host's disk.
    public func journal(_ entry: FileJournalEntry) throws -> FileJournalEntry {
        var entry = entry
        entry.id = try db.insert(
            SQLText.insert(into: "fileJournal", FileJournalEntry.columnNames.dropFirst() + ["host"]),
            entry.values + [host.map(SQLValue.text) ?? .null])
        return entry
    }
}

extension FileJournalEntry {
    /// The condition that keeps a host's entries: those it journaled (`host` NULL in a library file,
    /// which one machine holds). Another host's entries name paths on another disk: a process never
    /// reads, takes over or carries them out, whether or not their owner's process id is alive here.
    static func ofHost(_ host: String?) -> (condition: String, arguments: [SQLValue]) {
        guard let host else { return ("host IS NULL", []) }
        return ("host = ?", [.text(host)])
    }
}

extension LibraryTransaction {
    /// Points the entries journaled after `id` at `new` where they name a path under `old` (a directory
    /// whose rename was taken back: what the block did inside it after the rename happens inside it
    /// under its old name, where the library now records it). Bookkeeping, outside the change log.
    public func rebaseJournalEntries(after id: Int64, from old: String, to new: String) throws {
        let (oldPrefix, newPrefix) = (old + "/", new + "/")
        let mine = FileJournalEntry.ofHost(host)
        for column in ["source", "destination"] {
            let (under, arguments) = Self.under(old, column: column)
            try db.execute(
                """
                UPDATE fileJournal SET \(column) = ? || substr(\(column), length(?) + 1)
                    WHERE id > ? AND \(mine.condition) AND \(under)
                """, [.text(newPrefix), .text(oldPrefix), .int(id)] + mine.arguments + arguments)
        }
    }
}

extension LibraryTransaction {
    /// Deletes the `rename` entries of the asset `assetID` journaled after `id` (its move into an
    /// album's directory was taken back: the files left stay where they are). Bookkeeping, outside the
    /// change log.
    public func dropAssetMoves(after id: Int64, ofAsset assetID: Int64) throws {
        let mine = FileJournalEntry.ofHost(host)
        try db.execute(
            "DELETE FROM fileJournal WHERE id > ? AND assetId = ? AND operation = ? AND \(mine.condition)",
            [.int(id), .int(assetID), .text(FileJournalEntry.Operation.rename.rawValue)] + mine.arguments)
    }
}

extension LibraryDatabase {
    /// Records entries in one transaction of their own, before the work they describe begins (the
    /// files of an import about to be linked or copied into a root, the files of a restore about to
    /// leave the Trash); returns them with their ids. Bookkeeping, outside the change log: what the
    /// work changes in the library is committed by it. They are this host's (``host``), as a change
    /// block's are.
    public func journalAhead(_ entries: [FileJournalEntry]) throws -> [FileJournalEntry] {
        let host = host.map(SQLValue.text) ?? .null
        return try bookkeeping { db in
            // One statement text for the batch: the connection prepares it once.
            let insert = SQLText.insert(into: "fileJournal", FileJournalEntry.columnNames.dropFirst() + ["host"])
            return try entries.map { entry in
                var entry = entry
                entry.id = try db.insert(insert, entry.values + [host])
                return entry
            }
        }
    }

    /// Every entry still in the journal for this host (``host``), oldest first. Other hosts'
    /// entries, about files on their disks, are theirs to finish.
    public func fileJournal() throws -> [FileJournalEntry] {
        let mine = FileJournalEntry.ofHost(host)
        return try read { db in
            try db.rows(
                "SELECT \(FileJournalEntry.columns) FROM fileJournal WHERE \(mine.condition) ORDER BY id",
                mine.arguments, FileJournalEntry.init(row:))
        }
    }

    /// Makes `owner` the owner of an entry if `mayTakeOver` says its present owner may be replaced;
    /// returns the entry when this call took it (nil when it is gone or another owner keeps it).
    ///
    /// This is a plain write, outside the change log: the journal is bookkeeping, not library content.
    public func claimJournalEntry(
        _ id: Int64, owner: Int64, mayTakeOver: (Int64) -> Bool
    ) throws -> FileJournalEntry? {
        let mine = FileJournalEntry.ofHost(host)
        return try bookkeeping { db in
            guard
                var entry = try db.firstRow(
                    "SELECT \(FileJournalEntry.columns) FROM fileJournal WHERE id = ? AND \(mine.condition)",
                    [.int(id)] + mine.arguments, FileJournalEntry.init(row:)),
                mayTakeOver(entry.owner)
            else { return nil }
            entry.owner = owner
            try db.execute("UPDATE fileJournal SET owner = ? WHERE id = ?", [.int(owner), .int(id)])
            return entry
        }
    }

    /// Deletes an entry whose work is done.
    public func finishJournalEntry(_ id: Int64) throws {
        try finishJournalEntries([id])
    }

    /// Deletes entries whose work is done, in one transaction.
    public func finishJournalEntries(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        _ = try bookkeeping { db in
            // In slices: a statement takes a bounded number of arguments.
            var start = 0
            while start < ids.count {
                let end = min(start + 500, ids.count)
                let slice = ids[start..<end]
                try db.execute(
                    "DELETE FROM fileJournal WHERE id IN (\(SQLText.placeholders(slice.count)))",
                    slice.map(SQLValue.int))
                start = end
            }
        }
    }
}
