import PhotosIngest

extension PHPhotoLibrary {
    /// Brings the identifier logs of the roots that keep user state up to the library after a
    /// change block moved photos on disk (an asset's files into an album's directory, a directory
    /// renamed or moved), as a scan does after its commits: a rebuild then gives the moved photos
    /// their identifiers back, whichever process made the change. A log that cannot be written is
    /// logged and left: the change has committed, and the next scan or move catches the log up.
    func catchUpIdentifierLogs() {
        for outcome in IdentifierLogSync(database: database).catchUp(roots) {
            if let error = outcome.error {
                configuration.logger.warning(
                    "cannot write the identifier log; it is left as it is",
                    metadata: ["root": "\(outcome.root)", "error": "\(error)"])
            }
        }
    }
}
