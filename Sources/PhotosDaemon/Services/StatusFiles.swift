import Foundation
import PhotosStore
import PhotosWire

// The files photosd writes beside the library for `photos status` to read. The shapes and their
// readers are PhotosWire's (the CLI reads them without the daemon); writing them, private to the
// user, is the daemon's.

extension DaemonStatus {
    /// Writes the status atomically (a reader never sees half a file), private to the user (0600:
    /// it names every root).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try PrivateFiles.write(try encoder.encode(self), atomicallyTo: path)
    }
}

extension StartupProgress {
    /// Writes the progress atomically, private to the user.
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try PrivateFiles.write(try encoder.encode(self), atomicallyTo: path)
    }
}
