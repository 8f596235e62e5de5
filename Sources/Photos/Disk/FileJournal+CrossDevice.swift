import Foundation
import PhotosCore
import PhotosLinux
import PhotosStore

/// A file that goes to another file system (an asset's file moved into a directory-backed album's
/// directory on another disk, a created asset placed there from the import folder) cannot be renamed
/// there: it is copied, and the copy is trusted only once it is whole. The steps, each of which a stop
/// may interrupt (the entry runs again at the next open):
/// 1. the bytes are copied to a temporary name beside the destination (`.photosd-copy-ID.part`,
///    `O_EXCL`, permission bits and times kept) and synced (`fsync`);
/// 2. the copy is verified: read back and compared with the original, byte for byte;
/// 3. it is renamed to its name (`renameat2(RENAME_NOREPLACE)`: never over anything), and the
///    directory is synced;
/// 4. the library records the copy's device and inode (a commit);
/// 5. only then may the caller remove the original, if it is still the file that was copied.
///
/// A temporary copy a stopped run left is made anew; a copy already under its name is taken when it
/// holds the original's bytes, and is anything else's otherwise (never replaced).
extension FileJournal {
    /// Copies `source` to `destination` on another file system (steps 1 to 4 above) for the journal
    /// entry `entry`; returns the copy's identity. A copy that fails or does not verify leaves nothing
    /// behind, and `source` is untouched. An import, whose files no asset has yet and which syncs
    /// each folder once for a batch, passes `recording: false` and `syncingDirectory: false`.
    func copyAcrossDevices(
        _ source: String, to destination: String, for entry: FileJournalEntry, recording: Bool = true,
        syncingDirectory: Bool = true
    ) throws -> FileIdentity {
        try writeTemporaryCopy(of: source, to: destination, for: entry, syncing: true)
        try renameVerifiedCopy(of: source, to: destination, for: entry)
        if syncingDirectory { try FileOperations.sync(PathName.directory(of: destination), directory: true) }
        guard let copy = try FileOperations.identity(destination) else {
            throw SystemCallError(call: "lstat", path: destination, errno: ENOENT)
        }
        if recording { try database.noteFileIdentity(at: destination, device: copy.device, inode: copy.inode) }
        return copy
    }

    /// Step 1: `source` copied to ``temporaryCopy(of:for:)`` beside `destination`, permission bits
    /// and times kept, after removing what a stopped run left under that name (incomplete or never
    /// verified, and the library's own). Without `syncing`, the caller syncs many copies at once
    /// (`FileOperations.syncFileSystem(containing:)`) before ``renameVerifiedCopy(of:to:for:)``.
    func writeTemporaryCopy(of source: String, to destination: String, for entry: FileJournalEntry, syncing: Bool)
        throws
    {
        let temporary = Self.temporaryCopy(of: destination, for: entry)
        try FileOperations.unlink(temporary)
        try FileOperations.copy(source, to: temporary, preservingAttributes: true, syncing: syncing)
    }

    /// Steps 2 and 3 but the directory's sync: the synced temporary copy compared with `source` byte
    /// for byte, then renamed to `destination`, never over anything. A copy that does not verify, or
    /// cannot take its name, is removed.
    func renameVerifiedCopy(of source: String, to destination: String, for entry: FileJournalEntry) throws {
        let temporary = Self.temporaryCopy(of: destination, for: entry)
        do {
            guard try FileOperations.sameContent(source, temporary) else {
                throw SystemCallError(call: "read", path: temporary, errno: EIO)
            }
            try FaultInjection.reach(.copiedAcross, in: importDirectory)
            try FileOperations.renameWithoutReplacing(temporary, destination)
        } catch let error where !error.isSimulatedCrash {
            try? FileOperations.unlink(temporary)
            throw error
        }
    }

    /// Whether `destination` is a copy of `source` that a stopped run put in place (same bytes); if so,
    /// the library records it (step 4). False when nothing is there; `EEXIST` when something else is.
    func takeInterruptedCopy(of source: String, at destination: String) throws -> Bool {
        guard let existing = try FileOperations.identity(destination) else { return false }
        guard existing.isRegularFile, try FileOperations.sameContent(source, destination) else {
            throw SystemCallError(call: "renameat2", path: destination, errno: EEXIST)
        }
        try database.noteFileIdentity(at: destination, device: existing.device, inode: existing.inode)
        return true
    }

    /// The temporary name of the copy `entry` makes: hidden (the scanner skips it), beside the
    /// destination, and the same at every run of the entry.
    static func temporaryCopy(of destination: String, for entry: FileJournalEntry) -> String {
        PathName.directory(of: destination) + "/.photosd-copy-\(entry.id ?? 0).part"
    }

    /// Whether `path` and the directory `directory` are on different file systems (a rename between
    /// them fails with `EXDEV`).
    static func crossesDevices(_ path: FileIdentity, into directory: String) throws -> Bool {
        guard let target = try FileOperations.identity(directory, followingLinks: true) else { return false }
        return target.device != path.device
    }
}
