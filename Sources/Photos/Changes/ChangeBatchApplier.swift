import Foundation
import PhotosCore
import PhotosMetadata
import PhotosWire

/// Makes one batch's change requests, inside its change block (on the library's change queue):
/// each operation in order, each object it names found first (or the block throws, and nothing
/// of the batch is committed). The library applies the requests as it applies any block's:
/// creations, then edits in the order they were made, then deletions.
package final class ChangeBatchApplier {
    /// An operation that cannot be made: which one, and PhotoKit's error.
    package struct Failure: Error {
        package let index: Int
        package let operation: String
        package let error: PHPhotosError
    }

    package let library: PHPhotoLibrary
    package let sniffer: MediaSniffer?
    /// The file each `createAsset` takes (``BatchFiles``), by position: the daemon's own copy or upload.
    package let files: [Int: (path: String, originalFilename: String?)]
    /// The identifiers of the objects the batch creates, under their ref or their operation's index.
    package private(set) var created: [String: String] = [:]

    // Requests by placeholder name, for the objects this batch creates.
    private var newAssets: [String: PHAssetChangeRequest] = [:]
    private var newAlbums: [String: PHAssetCollectionChangeRequest] = [:]
    private var newFolders: [String: PHCollectionListChangeRequest] = [:]
    // One edit request per existing object, by local identifier: its edits apply in batch order.
    private var assetEdits: [String: PHAssetChangeRequest] = [:]
    private var albumEdits: [String: PHAssetCollectionChangeRequest] = [:]
    private var folderEdits: [String: PHCollectionListChangeRequest] = [:]

    package init(
        library: PHPhotoLibrary, sniffer: MediaSniffer?, files: [Int: (path: String, originalFilename: String?)]
    ) {
        self.library = library
        self.sniffer = sniffer
        self.files = files
    }

    /// Makes every operation's requests; a batch already ``API/ChangeBatch/validate()``d.
    package func apply(_ batch: API.ChangeBatch) throws {
        for (index, operation) in batch.changes.enumerated() {
            do {
                try apply(operation, index: index)
            } catch let error as PHPhotosError {
                throw Failure(index: index, operation: operation.name, error: error)
            }
        }
    }

    private func apply(_ operation: API.ChangeOperation, index: Int) throws {
        switch operation {
        case .createAsset(let fields):
            guard let file = files[index] else {
                throw PHPhotosError(.internalError, "no file was prepared for this createAsset")
            }
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            // The daemon's own file (an upload, or its copy of the caller's): taken, never copied again.
            options.shouldMoveFile = true
            options.originalFilename = file.originalFilename
            request.addResource(
                with: resourceType(fields, path: file.path), fileURL: URL(fileURLWithPath: file.path), options: options)
            let placeholder = request.placeholderForCreatedAsset!
            if let ref = fields.ref { newAssets[ref] = request }
            created[fields.ref ?? String(index)] = placeholder.localIdentifier
        case .editAsset(let fields):
            let request = try assetRequest(fields.asset)
            if let value = fields.isFavorite { request.isFavorite = value }
            if let value = fields.isHidden { request.isHidden = value }
            if let value = fields.rating { request.rating = PHAssetRating(rawValue: value) ?? .unset }
            if let value = fields.creationDate {
                request.creationDate = value
                request.newCreationDateOffset = value == nil ? nil : fields.creationDateOffset
            }
            if let value = fields.location {
                request.location = value.map { place in
                    CLLocation(
                        coordinate: CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude),
                        altitude: place.altitude ?? 0, horizontalAccuracy: 0,
                        verticalAccuracy: place.altitude == nil ? -1 : 0, timestamp: Date())
                }
            }
        case .deleteAssets(let fields):
            PHAssetChangeRequest.deleteAssets(try assets(fields.assets))
        case .createAlbum(let fields):
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: fields.title)
            let placeholder: PHObject = request.placeholderForCreatedAssetCollection
            if let folder = fields.folder { try folderRequest(folder).addChildCollections([placeholder]) }
            if let ref = fields.ref { newAlbums[ref] = request }
            created[fields.ref ?? String(index)] = placeholder.localIdentifier
        case .renameAlbum(let fields):
            try albumRequest(fields.album).title = fields.title
        case .deleteAlbums(let fields):
            PHAssetCollectionChangeRequest.deleteAssetCollections(try fields.albums.map(album))
        case .addToAlbum(let fields):
            try albumRequest(fields.album).addAssets(try assets(fields.assets))
        case .removeFromAlbum(let fields):
            try albumRequest(fields.album).removeAssets(try assets(fields.assets))
        case .moveInAlbum(let fields):
            try albumRequest(fields.album).moveAssets(at: IndexSet(fields.from), to: fields.to)
        case .createFolder(let fields):
            let request = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: fields.title)
            let placeholder: PHObject = request.placeholderForCreatedCollectionList
            if let folder = fields.folder { try folderRequest(folder).addChildCollections([placeholder]) }
            if let ref = fields.ref { newFolders[ref] = request }
            created[fields.ref ?? String(index)] = placeholder.localIdentifier
        case .renameFolder(let fields):
            try folderRequest(fields.folder).title = fields.title
        case .deleteFolders(let fields):
            PHCollectionListChangeRequest.deleteCollectionLists(try fields.folders.map(folder))
        case .addToFolder(let fields):
            try folderRequest(fields.folder).addChildCollections(try fields.collections.map(collection))
        case .removeFromFolder(let fields):
            try folderRequest(fields.folder).removeChildCollections(try fields.collections.map(collection))
        }
    }

    /// The resource type the operation names, else the one the file's content is (a file that
    /// is not media is offered as a photo, which the library refuses with 3302).
    private func resourceType(_ fields: API.ChangeOperation.CreateAsset, path: String) -> PHAssetResourceType {
        // Only a regular file is read: opening a FIFO would wait for a writer, holding the
        // library's change queue. Anything else is the library's to refuse.
        var info = stat()
        let regular = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let sniffed = regular ? sniffer.map { $0.sniff(path: path).kind.resourceName } : nil
        return switch fields.type ?? sniffed {
        case "video": .video
        case "audio": .audio
        default: .photo
        }
    }

    // MARK: Objects by identifier or placeholder

    private func placeholderName(_ value: String) -> String? {
        value.hasPrefix("$") ? String(value.dropFirst()) : nil
    }

    /// The request that made placeholder `name`. ``API/ChangeBatch/validate()`` has checked that an
    /// earlier operation made it, of this kind; a miss here is a bug, answered as one, not a crash.
    private func made<Request>(_ requests: [String: Request], _ name: String) throws -> Request {
        guard let request = requests[name] else {
            throw PHPhotosError(.internalError, "no earlier operation made $\(name) of this kind")
        }
        return request
    }

    private func options() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        // By identifier every asset is found, hidden ones and burst members too.
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return options
    }

    private func notFound(_ kind: String, _ identifiers: [String]) -> PHPhotosError {
        PHPhotosError(
            .identifierNotFound,
            "no \(kind)\(identifiers.count == 1 ? "" : "s") \(identifiers.joined(separator: ", "))",
            localIdentifiers: identifiers)
    }

    /// Assets and placeholders of new ones, in the order named.
    private func assets(_ values: [String]) throws -> [PHObject] {
        let identifiers = values.filter { placeholderName($0) == nil }
        let result = PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: options())
        try requireReadable()
        var found: [String: PHAsset] = [:]
        result.enumerateObjects { asset, _, _ in found[asset.localIdentifier] = asset }
        let missing = identifiers.filter { found[$0] == nil }
        guard missing.isEmpty else { throw notFound("asset", missing) }
        return try values.map { value in
            if let name = placeholderName(value) { return try made(newAssets, name).placeholderForCreatedAsset! }
            return found[value]!
        }
    }

    private func assetRequest(_ value: String) throws -> PHAssetChangeRequest {
        if let name = placeholderName(value) { return try made(newAssets, name) }
        if let request = assetEdits[value] { return request }
        guard let asset = try assets([value]).first as? PHAsset else { throw notFound("asset", [value]) }
        let request = PHAssetChangeRequest(for: asset)
        assetEdits[value] = request
        return request
    }

    private func existingAlbum(_ identifier: String) throws -> PHAssetCollection {
        let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: options())
            .firstObject
        try requireReadable()
        guard let album else { throw notFound("album", [identifier]) }
        return album
    }

    private func existingFolder(_ identifier: String) throws -> PHCollectionList {
        let folder = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [identifier], options: options())
            .firstObject
        try requireReadable()
        guard let folder else { throw notFound("folder", [identifier]) }
        return folder
    }

    private func album(_ value: String) throws -> PHObject {
        if let name = placeholderName(value) { return try made(newAlbums, name).placeholderForCreatedAssetCollection }
        return try existingAlbum(value)
    }

    private func folder(_ value: String) throws -> PHObject {
        if let name = placeholderName(value) { return try made(newFolders, name).placeholderForCreatedCollectionList }
        return try existingFolder(value)
    }

    /// An album or a folder.
    private func collection(_ value: String) throws -> PHObject {
        if let name = placeholderName(value) {
            if let album = newAlbums[name] { return album.placeholderForCreatedAssetCollection }
            return try made(newFolders, name).placeholderForCreatedCollectionList
        }
        if let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [value], options: options())
            .firstObject
        {
            return album
        }
        let folder = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [value], options: options())
            .firstObject
        try requireReadable()
        guard let folder else { throw notFound("album or folder", [value]) }
        return folder
    }

    private func albumRequest(_ value: String) throws -> PHAssetCollectionChangeRequest {
        if let name = placeholderName(value) { return try made(newAlbums, name) }
        if let request = albumEdits[value] { return request }
        let album = try existingAlbum(value)
        guard let request = PHAssetCollectionChangeRequest(for: album) else {
            // A directory's album changes only where its root lets the library write the directory.
            if let path = album.directoryPath {
                try library.requireWrite(
                    .files, at: path, for: "edit album '\(album.localizedTitle ?? "")'", localIdentifiers: [value])
            }
            throw PHPhotosError(
                .changeNotSupported,
                "\(album.assetCollectionType == .smartAlbum ? "smart album" : "album") "
                    + "'\(album.localizedTitle ?? "")' cannot be edited",
                localIdentifiers: [value])
        }
        albumEdits[value] = request
        return request
    }

    private func folderRequest(_ value: String) throws -> PHCollectionListChangeRequest {
        if let name = placeholderName(value) { return try made(newFolders, name) }
        if let request = folderEdits[value] { return request }
        let folder = try existingFolder(value)
        guard let request = PHCollectionListChangeRequest(for: folder) else {
            if let path = folder.directoryPath {
                try library.requireWrite(
                    .files, at: path, for: "edit folder '\(folder.localizedTitle ?? "")'", localIdentifiers: [value])
            }
            throw PHPhotosError(
                .changeNotSupported, "folder '\(folder.localizedTitle ?? "")' cannot be edited",
                localIdentifiers: [value])
        }
        folderEdits[value] = request
        return request
    }

    /// A fetch that could not read the library found nothing for that reason: its error, not a 404.
    private func requireReadable() throws {
        if let reason = library.unavailabilityReason as? PHPhotosError,
            reason.code != .libraryVolumeOffline || reason.filePath == library.database.path
        {
            throw reason
        }
    }
}

extension MediaKind {
    /// The resource type a file of this kind is added as.
    fileprivate var resourceName: String {
        switch self {
        case .video: "video"
        case .audio: "audio"
        default: "photo"
        }
    }
}
