import GRDB

/// What a scan asks of the library between its batches.
extension LibraryTransaction {
    /// The token of the newest change-log entry (0 for a library never written to).
    ///
    /// A scan that finds its own last entry the newest knows that no other writer, in this process
    /// or another, has committed since: what it remembers of the library is still true.
    public func newestChangeToken() throws -> Int64 {
        try LibraryDatabase.newestToken(db)
    }
}
