import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosSidecars
import PhotosStore

extension FileJournal {
    /// Brings an asset's XMP sidecar up to date with the library (`sidecar` entries): the sidecar is
    /// read and merged three ways with the asset against the base last synced (``PhotosIngest/SidecarSync``),
    /// what only the sidecar changed is taken into the library, and the merged state is written
    /// beside the photo (`entry.destination`), never the whole file: other tools' properties stay.
    ///
    /// An entry finished at the next open after a crash does the same: the merge finds what the
    /// interrupted run already wrote. Temporary files a stopped process left beside the sidecar go.
    ///
    /// `sync` is the run's (``PhotosIngest/SidecarSync/batched()``) when the entry is one of several in
    /// a row, so that a folder of thousands of edited photos is not listed once per photo.
    func updateSidecar(_ entry: FileJournalEntry, using sync: SidecarSync? = nil) throws {
        guard let assetID = entry.assetId else { return }
        let sync = sync ?? SidecarSync(database: database)
        let sidecar = try sync.sidecarPath(forPhoto: entry.destination)
        Self.removeAbandonedTemporaries(
            of: sidecar, among: try sync.names(inDirectory: PathName.directory(of: sidecar)))
        do {
            try sync.sync(assetID: assetID, photo: entry.destination, mayWrite: true) { step in
                switch step {
                case .merged: try FaultInjection.reach(.sidecarMerged, in: importDirectory)
                case .written: try FaultInjection.reach(.sidecarWritten, in: importDirectory)
                }
            }
        } catch let error where !error.isSimulatedCrash {
            // A sidecar that cannot be merged (not XMP, unreadable, a directory that cannot be
            // written) is reported, not retried at every open: the library keeps the state. One
            // that could not be written for want of room or of a writable disk is kept, and written
            // at the next open once the disk allows: else the state never reached its sidecar, and
            // a rebuild from the disk lost it.
            let passing = Self.isPassing(error)
            if let id = entry.id, !passing { try database.finishJournalEntry(id) }
            throw UserStateWriteFailure(file: sidecar, what: "sidecar", cause: error, kept: passing)
        }
    }

    /// Whether a sidecar's or album manifest's write failed for a reason that passes: a full disk or
    /// quota, a file system mounted read-only, an I/O error of a failing or disconnected disk.
    static func isPassing(_ error: any Error) -> Bool {
        let cause = (error as? SidecarError)?.cause ?? error
        guard let code = (cause as? SystemCallError)?.errno else { return false }
        return [ENOSPC, EDQUOT, EROFS, EIO].contains(code)
    }

    /// Removes `.NAME.photosd-PID-N.tmp` beside `path` (``PhotosLinux/FileOperations/replace(_:with:expecting:)``'s
    /// temporary names) of processes that are gone: a write that stopped before its rename.
    /// `names` is what the directory holds, when the caller listed it already.
    static func removeAbandonedTemporaries(of path: String, among names: [String]? = nil) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = "." + (path as NSString).lastPathComponent + ".photosd-"
        guard let names = names ?? (try? FileOperations.names(in: directory)) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let rest = name.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int64($0) }),
                !FileOperations.processIsAlive(pid)
            else { continue }
            try? FileOperations.unlink(directory + "/" + name)
        }
    }
}

extension ApplyContext {
    /// Journals the sync of an edited asset's sidecar, when its photo lies under a root that may hold
    /// sidecars (`write = "sidecars"` or `"files"`); fails the block with `accessRestricted` when that
    /// root cannot be written now. Under a `none` root (or none at all) the state stays in the library.
    func syncSidecar(ofAsset identifier: String) throws {
        // The common case, no root that writes: no query for blocks of thousands of edits.
        guard library.roots.roots.contains(where: { $0.write != .none }) else { return }
        let assetID = try assetID(identifier)
        guard !sidecarAssets.contains(assetID) else { return }
        let resources = try transaction.resources(ofAsset: assetID)
        // A photo that is not there (an offline volume, a file gone) has nothing to keep a sidecar
        // beside: the state stays in the library.
        guard let photo = SidecarSync.primaryFile(of: resources.map { ($0.type, $0.path) }),
            library.writePolicy(at: photo) != .none, (try? FileOperations.identity(photo)) ?? nil != nil
        else { return }
        try library.requireWrite(
            .sidecars, at: photo, for: "write the sidecar of \((photo as NSString).lastPathComponent)",
            localIdentifiers: [identifier])
        sidecarAssets.insert(assetID)
        journal(
            FileJournalEntry(operation: .sidecar, destination: photo, owner: FileOperations.processID, assetId: assetID)
        )
    }
}
