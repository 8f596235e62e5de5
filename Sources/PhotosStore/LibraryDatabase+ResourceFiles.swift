import Foundation
import GRDB

extension LibraryDatabase {
    /// Whether a file is some asset's resource: the one at `path`, or any with the same device and
    /// inode (another name of the same file, a hard link). The API refuses to take such a file as
    /// a new asset: a client would otherwise copy what it may not read, or move what is not its own.
    public func isResourceFile(path: String, device: Int64, inode: Int64) throws -> Bool {
        try read { db in
            let (ids, arguments) = FileDirectories.ids(at: [path])
            if try Bool.fetchOne(db, sql: "SELECT EXISTS(\(ids))", arguments: arguments) == true { return true }
            return try Bool.fetchOne(
                db, sql: "SELECT EXISTS(SELECT 1 FROM resource WHERE device = ? AND inode = ?)",
                arguments: [device, inode]) == true
        }
    }
}
