import Foundation
import PhotosCore

/// An asset's edit (content editing): its files, kept as resources of the edit types
/// (``PhotosCore/PHAssetResourceType/editTypes``) in the library's own folder, and their removal.
///
/// An edit's files are the library's: the scanner never compares, moves or removes them, and
/// they go only after the commit that drops them, through the file journal (`remove` entries that
/// any process finishes, checked against the file's device and inode).
extension LibraryTransaction {
    /// The edit files of an asset (render, adjustment data, base), in type order.
    public func editResources(ofAsset assetID: Int64) throws -> [ResourceRecord] {
        try db.rows(
            """
            SELECT \(FileDirectories.columns(db.dialect)) FROM \(FileDirectories.join)
            WHERE r.assetId = ? AND r.type IN \(PHAssetResourceType.editTypesSQL) ORDER BY r.type, r.id
            """, [.int(assetID)], ResourceRecord.init(row:))
    }

    /// Drops resource rows of an asset's edit; files the library placed for them are removed once
    /// this transaction has committed (see ``journalRemoval(of:)``). Other resources are never touched.
    public func removeEditResources(_ resources: [ResourceRecord]) throws {
        let rows = resources.filter { row in
            row.id != nil && PHAssetResourceType(rawValue: row.type).map(PHAssetResourceType.editTypes.contains) == true
        }
        guard !rows.isEmpty else { return }
        try journalRemoval(of: rows)
        try db.execute(
            """
            DELETE FROM resource WHERE \(db.dialect.isInWholeNumberList("id"))
                AND type IN \(PHAssetResourceType.editTypesSQL)
            """, [.text(JSONText.array(rows.compactMap(\.id)))])
    }

    /// Gives a resource another type (an edit's render becomes the base of the next edit).
    public func setResourceType(_ resourceID: Int64, to type: PHAssetResourceType) throws {
        try db.execute("UPDATE resource SET type = ? WHERE id = ?", [.int(Int64(type.rawValue)), .int(resourceID)])
    }

    /// Journals the removal of the files the library placed for these resources (library-owned
    /// ones; a scanned file is the user's and is never journaled), to be done after the commit by
    /// whichever process comes next: the change block that committed, or the next opening of the
    /// library. A `remove` entry removes its file only while it is still the same file (device and
    /// inode) inside the library's import folder.
    func journalRemoval(of resources: [ResourceRecord]) throws {
        for resource in resources where resource.isLibraryOwned {
            _ = try journal(
                FileJournalEntry(
                    operation: .remove, destination: resource.path, device: resource.device, inode: resource.inode,
                    owner: FileJournalEntry.anyOwner))
            owesFileWork = true
        }
    }
}
