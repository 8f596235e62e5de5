import Foundation
import PhotosIngest
import PhotosCore
import PhotosLinux
import PhotosSidecars
import PhotosStore

extension FileJournal {
    /// Writes the album manifest at the top of the root `entry.destination` (`manifest` entries): the
    /// library's user albums and folders as they are now, whole and atomically. An entry finished
    /// at the next open after a crash writes the state of then, which is the newer one.
    func writeManifest(_ entry: FileJournalEntry) throws {
        let path = AlbumManifest.path(inRoot: entry.destination)
        Self.removeAbandonedTemporaries(of: path)
        do {
            try FaultInjection.reach(.manifestWriting, in: importDirectory)
            try ManifestSync(database: database).write(toRoot: entry.destination)
            try FaultInjection.reach(.manifestWritten, in: importDirectory)
        } catch let error where !error.isSimulatedCrash {
            // As for a sidecar: kept for the next open when the disk is full or read-only.
            let passing = Self.isPassing(error)
            if let id = entry.id, !passing { try database.finishJournalEntry(id) }
            throw UserStateWriteFailure(file: path, what: "album manifest", cause: error, kept: passing)
        }
    }
}

extension ApplyContext {
    /// Journals the album manifest of every root that keeps user state (`write = "sidecars"` or
    /// `"files"`), after a block that changed user albums or folders; fails the block with
    /// `accessRestricted` when such a root cannot be written now. A root that is not there (an
    /// offline volume) gets its manifest with the next change made while it is.
    func writeManifests() throws {
        for root in library.roots.roots where root.write != .none {
            guard (try? FileOperations.identity(root.path, followingLinks: true)) ?? nil != nil else { continue }
            let path = AlbumManifest.path(inRoot: root.path)
            try library.requireWrite(.sidecars, at: path, for: "write the album manifest \(path)")
            do {
                // A file of that name that is not a manifest is another program's: never written over.
                _ = try AlbumManifest.read(path)
            } catch {
                throw PHPhotosError(.accessRestricted, "cannot write the album manifest: \(error)")
            }
            journal(FileJournalEntry(operation: .manifest, destination: root.path, owner: FileOperations.processID))
        }
    }
}
