import Foundation
import PhotosCore
import PhotosLinux
import PhotosSidecars
import PhotosStore

/// Keeps each root's identifier log (``PhotosSidecars/IdentifierLog``) up with the library, and
/// gives a library rebuilt from the disk its photos' identifiers back from there.
///
/// A catch-up runs after a scan has committed, never inside its transaction: it reads the change log
/// from the log's last checkpoint, and appends, per root, the assets placed or moved since, then a
/// checkpoint (one `write` and one `fsync` per root). A log that is missing, of another library,
/// older than the change log keeps, or grown to more than twice its root's assets (plus 1,000
/// lines) is written again whole from the library instead.
///
/// ```swift
/// let logs = IdentifierLogSync(database: database)
/// let outcomes = logs.catchUp(LibraryRoots(configuration.libraryRoots))   // after a scan
/// let restored = try logs.restore(from: roots)                             // after a rebuild's scan
/// ```
public struct IdentifierLogSync: Sendable {
    /// The library.
    public let database: LibraryDatabase
    /// A log that has grown past this many lines more than twice its root's assets is written again.
    public static let compactionSlack = 1000
    /// Change-log entries with no placed or moved asset that are passed over before a checkpoint is
    /// written for them alone (so that the next catch-up does not read them again).
    static let entriesBeforeCheckpoint = 256

    /// Keeps the identifier logs of `database`'s roots.
    public init(database: LibraryDatabase) {
        self.database = database
    }

    /// What a catch-up did to one root's log.
    public struct Outcome: Sendable {
        /// The root.
        public var root: String
        /// Entries appended (or written, for a log written whole).
        public var entries = 0
        /// Whether the log was written whole (missing, another library's, expired or compacted).
        public var rewritten = false
        /// Why the log could not be written (another program's file of that name, a failed write).
        public var error: (any Error)?
    }

    /// Brings the log of every root that keeps user state in `roots` up to the library's change log.
    /// A root that is not there or cannot be written now is passed over; each root's failure is its
    /// own outcome, and a file of the log's name that is not one keeps its bytes.
    public func catchUp(_ roots: LibraryRoots) -> [Outcome] {
        let writable = roots.roots.filter { root in
            root.write != .none && FileOperations.writeRestriction(ofDirectory: root.path) == nil
        }
        guard !writable.isEmpty else { return [] }
        let library: String
        do {
            library = try database.libraryIdentifier()
        } catch {
            return writable.map { Outcome(root: $0.path, error: error) }
        }
        return writable.map { root in
            do {
                return try catchUp(root.path, among: roots, library: library)
            } catch {
                return Outcome(root: root.path, error: error)
            }
        }
    }

    /// One root's catch-up.
    private func catchUp(_ root: String, among roots: LibraryRoots, library: String) throws -> Outcome {
        let path = IdentifierLog.path(inRoot: root)
        let found = try IdentifierLog.tail(path)
        guard let tail = found, let checkpoint = tail.checkpoint, checkpoint.library == library else {
            return try rewrite(root, among: roots, library: library, replacing: found?.identity)
        }
        var token = checkpoint.token
        var entries = 0
        var identifiers: [String] = []
        var seen: Set<String> = []
        do {
            while true {
                let page = try database.changes(after: token, limit: 512)
                guard let last = page.last else { break }
                for change in page {
                    let moved = change.asset.updated.filter {
                        change.asset.changedProperties[$0]?.contains("resources") == true
                    }
                    for identifier in change.asset.inserted + moved where seen.insert(identifier).inserted {
                        identifiers.append(identifier)
                    }
                }
                entries += page.count
                token = last.token
            }
        } catch let error as StoreError where error.code == .historyExpired {
            return try rewrite(root, among: roots, library: library, replacing: tail.identity)
        }
        guard !identifiers.isEmpty || entries >= Self.entriesBeforeCheckpoint else { return Outcome(root: root) }
        var lines: [String] = []
        for file in try database.assetFiles(localIdentifiers: identifiers)
        where roots.root(of: file.path)?.path == root {
            lines.append(
                IdentifierLog.entry(identifier: file.localIdentifier, path: Self.relative(file.path, to: root)))
        }
        if lines.isEmpty && entries < Self.entriesBeforeCheckpoint { return Outcome(root: root) }
        let total = checkpoint.lines + lines.count + 1 + (tail.endsWithNewline ? 0 : 1)
        if total > Self.compactionSlack,
            total > 2 * (try database.assetCount(under: root)) + Self.compactionSlack
        {
            return try rewrite(root, among: roots, library: library, replacing: tail.identity)
        }
        lines.append(IdentifierLog.line(.init(library: library, token: token, lines: total)))
        try IdentifierLog.append(lines, to: path, after: tail)
        return Outcome(root: root, entries: lines.count - 1)
    }

    /// Writes a root's log whole from the library, over the file read as `replacing` only (nil: only
    /// where there is none). A root without assets gets no log where there is none.
    private func rewrite(_ root: String, among roots: LibraryRoots, library: String, replacing: FileIdentity?)
        throws -> Outcome
    {
        let (files, token) = try database.assetFiles(under: root)
        var lines: [String] = []
        lines.reserveCapacity(files.count + 1)
        for file in files.sorted(by: { $0.path < $1.path }) where roots.root(of: file.path)?.path == root {
            lines.append(
                IdentifierLog.entry(identifier: file.localIdentifier, path: Self.relative(file.path, to: root)))
        }
        if lines.isEmpty, replacing == nil { return Outcome(root: root) }
        let entries = lines.count
        lines.append(IdentifierLog.line(.init(library: library, token: token, lines: entries + 2)))
        try IdentifierLog.rewrite(IdentifierLog.path(inRoot: root), lines: lines, replacing: replacing)
        return Outcome(root: root, entries: entries, rewritten: true)
    }

    /// `path` relative to `root` (which holds it).
    static func relative(_ path: String, to root: String) -> String {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// What a restore brought back.
    public struct Restored: Sendable {
        /// Assets given their logged identifier back.
        public var identifiers = 0
        /// Logs that could not be read (another program's file of that name), left as they are.
        public var unreadable: [String] = []
    }

    /// Gives each asset of a library just scanned from `roots` the identifier its root's log names
    /// for its photo's path, where that identifier did not come from its sidecar, and no other asset
    /// has the logged one. Run after the scan and before the album manifests are restored.
    @discardableResult
    public func restore(from roots: [String]) throws -> Restored {
        var restored = Restored()
        let suffix = LocalIdentifier.suffix(.asset)
        for root in roots {
            let contents: IdentifierLog.Contents
            do {
                guard let read = try IdentifierLog.read(IdentifierLog.path(inRoot: root)) else { continue }
                contents = read
            } catch {
                restored.unreadable.append("\(error)")
                continue
            }
            let prefix = root.hasSuffix("/") ? root : root + "/"
            var logged: [String: String] = [:]
            for (relative, identifier) in contents.identifiers
            where identifier.hasSuffix(suffix) && UUID(uuidString: String(identifier.dropLast(suffix.count))) != nil {
                logged[prefix + relative] = identifier
            }
            let count = try database.write { transaction in
                try transaction.restoreIdentifiers(logged) { SidecarBaseCoding.decode($0)?.localIdentifier }
            }.value
            restored.identifiers += count
        }
        return restored
    }
}
