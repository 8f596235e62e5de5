import PhotosCore
import PhotosStore

extension FileJournal {
    /// Brings an asset's XMP sidecar up to date with the library (`sidecar` entries).
    func updateSidecar(_ entry: FileJournalEntry) throws {
        // No change request journals this operation yet: the two-way mirror is being built.
        throw PHPhotosError(.changeNotSupported, "the library cannot yet carry out '\(entry.operation)' on the disk")
    }
}
