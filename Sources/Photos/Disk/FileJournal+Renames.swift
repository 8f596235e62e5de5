import PhotosCore
import PhotosStore

extension FileJournal {
    /// Renames a file or directory under a root with `write = "files"` (`rename` entries).
    func rename(_ entry: FileJournalEntry) throws {
        // No change request journals this operation yet: the two-way mirror is being built.
        throw PHPhotosError(.changeNotSupported, "the library cannot yet carry out '\(entry.operation)' on the disk")
    }
}
