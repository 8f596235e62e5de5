import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosMetadata
import PhotosStore

/// Giving a library made again from the disk (`photos rebuild`, `photos scan` into a new file) the
/// edits its photos had, when the library's folder kept them.
///
/// An edit's files live in `.edits/<asset>/<edit>/` of the import folder (see `ContentEdit.swift`),
/// named by the asset's identifier, which a rebuild gives back (from a sidecar or the root's
/// identifier log). For each asset with no edit whose folder is there, the edit folder holding
/// `Adjustments.plist` (the newest, should a stopped process have left two) is its edit: the render
/// beside it (`FullSizeRender.*`) becomes its `fullSizePhoto` or `fullSizeVideo`, the envelope its
/// `adjustmentData`, and, when the envelope says the edit was made over an earlier render, the
/// newest render of its other edit folders its `adjustmentBasePhoto` or `adjustmentBaseVideo`.
/// Files are only read; an edit whose render or envelope cannot be read is passed over.
package enum EditRestore {
    /// What a restore gave back.
    package struct Restored: Sendable {
        /// Assets whose edit came back.
        package var edits = 0
        /// Edit folders passed over, with why.
        package var skipped: [String] = []
    }

    /// Restores the edits kept under `importDirectory` into `database`.
    package static func restore(into database: LibraryDatabase, importDirectory: String, timeZone: TimeZone)
        throws -> Restored
    {
        var restored = Restored()
        let editsRoot = importDirectory + "/.edits"
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: editsRoot)) ?? []
        guard !folders.isEmpty else { return restored }
        let extractor = MetadataExtractor(timeZone: timeZone)
        try database.write { transaction in
            // A folder is named by the identifier's first 36 characters: its UUID, which an asset's
            // identifier (`UUID/L0/001`) begins with.
            let identifiers = folders.filter { $0.utf8.count == 36 }.map { $0 + "/L0/001" }
            let ids = try transaction.assetIDs(forLocalIdentifiers: identifiers)
            let records = try transaction.assets(ids: Array(ids.values))
            for (identifier, id) in ids.sorted(by: { $0.key < $1.key }) {
                guard let record = records[id], record.adjustmentFormatIdentifier == nil else { continue }
                let folder = editsRoot + "/" + String(identifier.prefix(36))
                do {
                    guard
                        let edit = try Self.edit(
                            in: folder, isVideo: record.mediaType == PHAssetMediaType.video.rawValue, extractor)
                    else {
                        continue
                    }
                    for var resource in edit.resources {
                        resource.assetId = id
                        resource.isLibraryOwned = true
                        try transaction.insertResource(resource)
                    }
                    try transaction.updateAsset(
                        localIdentifier: identifier,
                        setting: [("adjustmentFormatIdentifier", .text(edit.formatIdentifier))],
                        properties: ["content"])
                    restored.edits += 1
                } catch let error as EditUnreadable {
                    restored.skipped.append("\(folder): \(error.reason)")
                }
            }
        }
        return restored
    }

    private struct EditUnreadable: Error {
        var reason: String
    }

    /// The edit kept in an asset's folder: its resources (render, envelope, maybe a base) and its
    /// format; nil when the folder holds no edit's envelope.
    private static func edit(in folder: String, isVideo: Bool, _ extractor: MetadataExtractor) throws
        -> (resources: [ResourceRecord], formatIdentifier: String)?
    {
        let manager = FileManager.default
        let editFolders = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
        var envelopes: [(folder: String, identity: FileIdentity)] = []
        for edit in editFolders {
            let path = folder + "/" + edit + "/Adjustments.plist"
            if let identity = try FileOperations.identity(path), identity.isRegularFile {
                envelopes.append((folder + "/" + edit, identity))
            }
        }
        guard let current = envelopes.max(by: { $0.identity.modificationTime < $1.identity.modificationTime }) else {
            return nil
        }
        let envelopePath = current.folder + "/Adjustments.plist"
        guard let data = manager.contents(atPath: envelopePath),
            let adjustment = AdjustmentEnvelope.decode(data)
        else { throw EditUnreadable(reason: "Adjustments.plist is not an adjustment envelope") }
        guard let render = try Self.render(in: current.folder, extractor) else {
            throw EditUnreadable(reason: "no render beside Adjustments.plist")
        }
        var renderRow = render.row(type: isVideo ? .fullSizeVideo : .fullSizePhoto)
        renderRow.isLibraryOwned = true
        var envelopeRow = ResourceRecord(
            assetId: 0, type: PHAssetResourceType.adjustmentData.rawValue, path: envelopePath,
            uniformTypeIdentifier: AdjustmentEnvelope.uniformTypeIdentifier, mimeType: AdjustmentEnvelope.mimeType,
            fileSize: current.identity.size, originalFilename: "Adjustments.plist")
        envelopeRow.device = current.identity.device
        envelopeRow.inode = current.identity.inode
        envelopeRow.modificationTime = current.identity.modificationTime
        var resources = [renderRow, envelopeRow]
        if AdjustmentEnvelope.isOverEarlierRender(data) {
            // The render it was made over: the newest of the other edit folders'.
            var bases: [(render: Render, time: Double)] = []
            for edit in editFolders where folder + "/" + edit != current.folder {
                if let base = try Self.render(in: folder + "/" + edit, extractor) {
                    bases.append((base, base.identity.modificationTime))
                }
            }
            if let base = bases.max(by: { $0.time < $1.time }) {
                resources.append(base.render.row(type: isVideo ? .adjustmentBaseVideo : .adjustmentBasePhoto))
            }
        }
        return (resources, adjustment.formatIdentifier)
    }

    /// A render found in an edit folder.
    private struct Render {
        var path: String
        var name: String
        var identity: FileIdentity
        var metadata: FileMetadata

        func row(type: PHAssetResourceType) -> ResourceRecord {
            var row = AssetFactory.resource(
                path: path, name: name, device: identity.device, inode: identity.inode, size: identity.size,
                modificationTime: identity.modificationTime, metadata: metadata, type: type)
            row.isLibraryOwned = true
            return row
        }
    }

    /// The render (`FullSizeRender.*`) in an edit folder, read; nil when there is none.
    private static func render(in folder: String, _ extractor: MetadataExtractor) throws -> Render? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let name = names.sorted().first(where: { $0.hasPrefix("FullSizeRender.") }) else { return nil }
        let path = folder + "/" + name
        guard let identity = try FileOperations.identity(path), identity.isRegularFile else { return nil }
        do {
            return Render(path: path, name: name, identity: identity, metadata: try extractor.extract(path: path))
        } catch {
            throw EditUnreadable(reason: "the render \(name) cannot be read: \(error)")
        }
    }
}
