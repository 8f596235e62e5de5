import Foundation
import PhotosLinux
import PhotosStore

/// A file a change block has staged: its complete copy under a temporary name, and where it will be.
struct StagedFile {
    /// The final path in the import folder (nothing is there until the block commits).
    var destination: String
    /// The staged copy (or hard link) under `.staging/` in the import folder.
    let staged: String
    /// The caller's file, when the resource came from one.
    let source: String?
    /// The caller's file as it was when staged: a moved original is removed only if still the same.
    let sourceIdentity: FileIdentity?
    /// Whether the caller's file is to be removed once the copy is in place (`shouldMoveFile`).
    let removeSource: Bool
    /// The staged file's identity (the placed file keeps it).
    let identity: FileIdentity
    /// The name recorded as `originalFilename`: the one the caller gave, else the source's.
    var originalFilename: String

    /// When the content was last modified: the caller's file's time, or now for data.
    let contentModificationTime: Double
}

/// The files one change block adds to the library's import folder, before and after it commits.
///
/// Before the commit, each resource is staged: copied (or, for a move on the same file system, hard
/// linked) into `.staging/` of the import folder and synced. The caller's file is never changed.
/// The block's transaction records where each staged file goes (``FileJournalEntry``). After the
/// commit, ``FileJournal`` links each into place and only then removes a moved file's original.
/// If the block fails, ``discard()`` removes what this block staged and the directories it made,
/// and nothing else.
final class ImportStaging {
    let importDirectory: String
    /// Files this block created under `.staging/`.
    private var stagedFiles: [String] = []
    /// Directories this block created, deepest last.
    private var createdDirectories: [String] = []
    /// Final names taken by this block, which are not on disk until it commits.
    private var reserved: Set<String> = []

    init(importDirectory: URL) {
        self.importDirectory = importDirectory.standardizedFileURL.path
    }

    /// The folder of staged copies, named so that a scan of the import folder would skip it.
    var stagingDirectory: String { importDirectory + "/.staging" }

    /// Creates a directory (and missing parents) for this block, remembering which ones it made.
    func makeDirectory(_ path: String) throws {
        var missing: [String] = []
        var current = path
        while try FileOperations.identity(current) == nil, current != "/" {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() where try FileOperations.makeDirectory(directory) {
            createdDirectories.append(directory)
        }
    }

    /// A final path for `name` in `directory` that is neither on disk nor taken by this block:
    /// `name`, else `1-name`, `2-name`, ... An existing file is never replaced.
    func destination(for name: String, in directory: String) throws -> String {
        var candidate = directory + "/" + name
        var suffix = 1
        while try reserved.contains(candidate) || FileOperations.identity(candidate) != nil {
            candidate = directory + "/\(suffix)-" + name
            suffix += 1
        }
        reserved.insert(candidate)
        return candidate
    }

    /// Gives a staged file another final name (data named by its content), releasing the old one.
    /// Nothing on disk changes: the final name is only where the file will be linked after the commit.
    func chooseDestination(_ file: inout StagedFile, named name: String) throws {
        reserved.remove(file.destination)
        file.destination = try destination(for: name, in: (file.destination as NSString).deletingLastPathComponent)
    }

    private func stagingPath(for name: String) throws -> String {
        try makeDirectory(stagingDirectory)
        // The owner's process id: another process removes only leftovers of processes that are gone.
        let path = stagingDirectory + "/\(FileOperations.processID)-\(UUID().uuidString)-" + name
        stagedFiles.append(path)
        return path
    }

    /// Stages a copy of the caller's file; with `move`, a hard link where the file system allows it
    /// (the caller's file keeps its name until the block has committed).
    func stage(
        file source: String, move: Bool, originalFilename: String, destination: String
    ) throws -> StagedFile {
        // The name the caller gave (a symbolic link is the link: a move removes the link, never
        // the file it points to), and the content behind it, which must be a regular file.
        guard let sourceIdentity = try FileOperations.identity(source),
            let content = try FileOperations.identity(source, followingLinks: true)
        else { throw SystemCallError(call: "open", path: source, errno: ENOENT) }
        guard content.isRegularFile else { throw SystemCallError(call: "open", path: source, errno: EINVAL) }
        if move {
            // The original goes after the commit: a directory it cannot be removed from (read-only,
            // or not the caller's to write) would leave an asset committed and its original behind.
            // Found now, the block fails whole (accessRestricted) and nothing is staged.
            let directory = (source as NSString).deletingLastPathComponent
            guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
                throw SystemCallError(call: "access", path: directory, errno: errno)
            }
        }
        let staged = try stagingPath(for: (destination as NSString).lastPathComponent)
        var linked = false
        if move, sourceIdentity.isRegularFile {
            do {
                try FileOperations.link(source, staged)
                linked = true
            } catch let error as SystemCallError
                where [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(error.errno)
            {
                // Another file system, or one without hard links: copy; the original goes after commit.
            }
        }
        if !linked { try FileOperations.copy(source, to: staged) }
        try FaultInjection.reach(.staged, in: importDirectory)
        guard let identity = try FileOperations.identity(staged) else {
            throw SystemCallError(call: "lstat", path: staged, errno: ENOENT)
        }
        return StagedFile(
            destination: destination, staged: staged, source: source, sourceIdentity: sourceIdentity,
            removeSource: move, identity: identity, originalFilename: originalFilename,
            contentModificationTime: content.modificationTime)
    }

    /// Stages data as a new file.
    func stage(data: Data, originalFilename: String, destination: String) throws -> StagedFile {
        let staged = try stagingPath(for: (destination as NSString).lastPathComponent)
        try FileOperations.write(data, to: staged)
        try FaultInjection.reach(.staged, in: importDirectory)
        guard let identity = try FileOperations.identity(staged) else {
            throw SystemCallError(call: "lstat", path: staged, errno: ENOENT)
        }
        return StagedFile(
            destination: destination, staged: staged, source: nil, sourceIdentity: nil, removeSource: false,
            identity: identity, originalFilename: originalFilename, contentModificationTime: identity.modificationTime)
    }

    /// The block failed: removes the files this block staged and the directories it made (only
    /// when empty). The caller's files were never touched.
    func discard() {
        for path in stagedFiles { try? FileOperations.unlink(path) }
        for directory in createdDirectories.reversed() { FileOperations.removeEmptyDirectory(directory) }
        stagedFiles = []
        createdDirectories = []
    }
}
