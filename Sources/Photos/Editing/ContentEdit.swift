import Foundation
import PhotosCore
import PhotosIngest
import PhotosLinux
import PhotosMetadata
import PhotosStore

/// A change of an asset's content asked for in a change block: an edit to commit, or a revert
/// (to a RAW+JPEG asset's chosen original, or to the one it has).
enum ContentChange {
    case edit(PHContentEditingOutput)
    case revert(to: PHAsset.OriginalResourceChoice?)
}

/// Committing edits and reverts.
///
/// An edit's files live in the library's folder, `.edits/<asset>/<edit>/` of its import folder:
/// the render (`FullSizeRender.jpg` or `.mov`, the `fullSizePhoto` or `fullSizeVideo` resource) and
/// the adjustment data (`Adjustments.plist`, an adjustment envelope, the `adjustmentData`
/// resource); an edit made over an earlier edit's render keeps that render as its
/// `adjustmentBasePhoto` or `adjustmentBaseVideo`. Files are placed after the commit through the
/// file journal, and files the edit replaces (or a revert drops) are removed after it; the asset's
/// original file is only ever read.
extension PHAssetChangeRequest {
    func apply(_ change: ContentChange, _ context: ApplyContext) throws {
        let assetID = try context.assetID(targetIdentifier)
        guard let record = try context.transaction.assets(ids: [assetID])[assetID] else {
            throw PHPhotosError(
                .identifierNotFound, "no asset \(targetIdentifier)", localIdentifiers: [targetIdentifier])
        }
        let existing = try context.transaction.editResources(ofAsset: assetID)
        switch change {
        case .revert(let choice):
            var columns: [(column: String, value: SQLValue)] = []
            if let choice {
                guard PHAsset.isRAWPlusCompressedPair(try context.transaction.resources(ofAsset: assetID)) else {
                    throw PHPhotosError(
                        .changeNotSupported,
                        "revertAssetContent(to:) applies to RAW+JPEG assets only: this asset has no compressed photo "
                            + "with a RAW alternate", localIdentifiers: [targetIdentifier])
                }
                if record.originalResourceChoice != Int64(choice.rawValue) {
                    columns.append(("originalResourceChoice", .int(Int64(choice.rawValue))))
                }
            }
            let isEdited = !existing.isEmpty || record.adjustmentFormatIdentifier != nil
            guard isEdited || !columns.isEmpty else { return }
            if isEdited {
                try context.transaction.removeEditResources(existing)
                columns.append(("adjustmentFormatIdentifier", .null))
            }
            columns.append(("modificationDate", .double(Date().timeIntervalSince1970)))
            try context.transaction.updateAsset(
                localIdentifier: targetIdentifier, setting: columns, properties: ["content"])
        case .edit(let output):
            try commit(output, record: record, assetID: assetID, existing: existing, context)
        }
    }

    private func commit(
        _ output: PHContentEditingOutput, record: AssetRecord, assetID: Int64, existing: [ResourceRecord],
        _ context: ApplyContext
    ) throws {
        func invalid(_ message: String) -> PHPhotosError {
            PHPhotosError(.invalidResource, message, localIdentifiers: [targetIdentifier])
        }
        guard output.assetIdentifier == targetIdentifier else {
            throw invalid("the content editing output is for asset \(output.assetIdentifier), not \(targetIdentifier)")
        }
        guard let adjustment = output.adjustmentData else {
            throw invalid("a content editing output needs adjustmentData to be committed")
        }
        let isVideo = record.mediaType == PHAssetMediaType.video.rawValue
        guard isVideo || record.mediaType == PHAssetMediaType.image.rawValue else {
            throw PHPhotosError(
                .requestNotSupportedForAsset, "only photos and videos can be edited",
                localIdentifiers: [targetIdentifier])
        }

        // The render: a non-empty regular file of the asset's kind.
        let renderPath = output.renderedContentURL.standardizedFileURL.path
        let renderIdentity = try FileOperations.identity(renderPath)
        guard let renderIdentity, renderIdentity.isRegularFile, renderIdentity.size > 0 else {
            throw invalid("nothing was written to the output's renderedContentURL (\(renderPath))")
        }
        let metadata: FileMetadata
        do {
            metadata = try MetadataExtractor(timeZone: context.library.configuration.timeZone).extract(path: renderPath)
        } catch {
            throw invalid("the rendered content \(renderPath) cannot be read: \(error)")
        }
        guard metadata.kind == (isVideo ? .video : .image) else {
            throw invalid(
                "the rendered content is \(metadata.mimeType), not the \(isVideo ? "movie" : "image") the asset needs")
        }

        // What the new edit replaces: everything of an earlier edit, but the picture it was made on.
        let baseType: PHAssetResourceType = isVideo ? .adjustmentBaseVideo : .adjustmentBasePhoto
        var removed = existing
        var newBase: Int64?
        switch output.basis {
        case .original:
            break
        case .base(let id):
            guard existing.contains(where: { $0.id == id && $0.type == baseType.rawValue }) else { throw stale() }
            removed.removeAll { $0.id == id }
        case .render(let id):
            let renderType: PHAssetResourceType = isVideo ? .fullSizeVideo : .fullSizePhoto
            guard existing.contains(where: { $0.id == id && $0.type == renderType.rawValue }) else { throw stale() }
            removed.removeAll { $0.id == id }
            newBase = id
        }

        // The files, staged now and placed after the commit.
        let staging = context.staging
        let directory =
            staging.importDirectory + "/.edits/" + String(targetIdentifier.prefix(36)) + "/"
            + UUID().uuidString
        try staging.makeDirectory(directory)
        let renderName =
            "FullSizeRender."
            + (PHAssetCreationRequest.filenameExtension(forMIMEType: metadata.mimeType) ?? (isVideo ? "mov" : "jpg"))
        let render = try stageRender(renderPath, identity: renderIdentity, name: renderName, in: directory, staging)
        let envelope = try staging.stage(
            data: AdjustmentEnvelope.encode(adjustment, overEarlierRender: newBase != nil, at: Date()),
            originalFilename: "Adjustments.plist", destination: directory + "/Adjustments.plist")
        context.place(render)
        context.place(envelope)

        var renderRow = AssetFactory.resource(
            path: render.destination, name: renderName, device: render.identity.device, inode: render.identity.inode,
            size: render.identity.size, modificationTime: render.identity.modificationTime, metadata: metadata,
            type: isVideo ? .fullSizeVideo : .fullSizePhoto)
        renderRow.assetId = assetID
        renderRow.isLibraryOwned = true
        var envelopeRow = ResourceRecord(
            assetId: assetID, type: PHAssetResourceType.adjustmentData.rawValue, path: envelope.destination,
            uniformTypeIdentifier: AdjustmentEnvelope.uniformTypeIdentifier, mimeType: AdjustmentEnvelope.mimeType,
            fileSize: envelope.identity.size, originalFilename: "Adjustments.plist")
        envelopeRow.device = envelope.identity.device
        envelopeRow.inode = envelope.identity.inode
        envelopeRow.modificationTime = envelope.identity.modificationTime
        envelopeRow.isLibraryOwned = true

        try context.transaction.removeEditResources(removed)
        if let newBase { try context.transaction.setResourceType(newBase, to: baseType) }
        try context.transaction.insertResource(renderRow)
        try context.transaction.insertResource(envelopeRow)
        var columns: [(column: String, value: SQLValue)] = [
            ("adjustmentFormatIdentifier", .text(adjustment.formatIdentifier))
        ]
        if asset != nil { columns.append(("modificationDate", .double(Date().timeIntervalSince1970))) }
        try context.transaction.updateAsset(
            localIdentifier: targetIdentifier, setting: columns, properties: ["content"])
    }

    /// The render as a staged file: the output's own file in the library's `.staging` is placed as
    /// it is (linked into place after the commit, its staged name then removed); a file elsewhere
    /// (an output made outside the library's folder) is copied and left where it is.
    private func stageRender(
        _ path: String, identity: FileIdentity, name: String, in directory: String, _ staging: ImportStaging
    ) throws -> StagedFile {
        let destination = try staging.destination(for: name, in: directory)
        let ownName = (path as NSString).lastPathComponent.hasPrefix("\(FileOperations.processID)-")
        guard ownName, FileJournal.isInside(path, staging.stagingDirectory) else {
            return try staging.stage(file: path, move: false, originalFilename: name, destination: destination)
        }
        // The app wrote it; the commit says it exists, so it reaches the disk first.
        try FileOperations.sync(path)
        return StagedFile(
            destination: destination, staged: path, source: nil, sourceIdentity: nil, removeSource: false,
            identity: identity, originalFilename: name, contentModificationTime: identity.modificationTime)
    }

    private func stale() -> PHPhotosError {
        PHPhotosError(
            .invalidResource,
            "the asset was edited again after this content editing input was requested: request a new input",
            localIdentifiers: [targetIdentifier])
    }
}
