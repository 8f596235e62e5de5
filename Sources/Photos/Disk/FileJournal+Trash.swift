import PhotosCore
import PhotosStore

extension FileJournal {
    /// Moves a file or directory of a deleted asset or album to the Trash of its file system (`trash` entries).
    func trash(_ entry: FileJournalEntry) throws {
        // No change request journals this operation yet: the two-way mirror is being built.
        throw PHPhotosError(.changeNotSupported, "the library cannot yet carry out '\(entry.operation)' on the disk")
    }
}
