import Foundation
import HTTPTypes
import Hummingbird
import NIOPosix
import Photos
import PhotosCore
import PhotosMetadata
import PhotosWire

/// `POST /v1/changes`: a batch of change requests (``API/ChangeBatch``), applied atomically in one
/// change block with PhotoKit's rules, answering the new objects' identifiers and the commit's
/// change token (``API/ChangeBatchResult``).
///
/// The batch is checked in three stages, and nothing is applied unless all pass: its JSON (strict:
/// unknown ops and fields are 400), its placeholders and paths (400, ``API/ChangeBatch/validate()``),
/// then, inside the change block, each object it names (404, or 409 for one that cannot be edited).
/// The library checks the rest as it commits, as for any change block (PhotoKit's code, under the
/// status of ``APIError/status(of:)``). A failure anywhere leaves the library as it was: the block
/// throws before it commits, or the commit rolls back whole. The files a batch takes are made
/// ready before its block (``BatchFiles``: uploads claimed, callers' files copied into the
/// daemon's uploads folder); the library moves each into place, and a caller's moved file is
/// removed only after the commit.
///
/// A `createAsset` takes a file of the caller's, never one of the daemon's: an upload of its own
/// (``Uploads``), or, from a read-write client on the Unix socket only, a `path` that client may
/// read (and, to move, remove), which the daemon copies from the descriptor it checked
/// (``CallerFile``) before the block starts.
struct ChangeBatchRoutes: Sendable {
    let library: PHPhotoLibrary
    /// Decides a file's resource type when the operation does not; nil if libmagic cannot load
    /// (then `photo`, and the library refuses what is not one).
    let sniffer: MediaSniffer?
    /// The uploads batches take, and where copies of callers' files are made.
    let uploads: Uploads

    /// The largest body accepted.
    static let maximumBodySize = 1 << 20

    init(library: PHPhotoLibrary, uploads: Uploads? = nil) {
        self.library = library
        self.uploads = uploads ?? Uploads(importDirectory: library.importDirectory)
        sniffer = try? MediaSniffer()
    }

    func add(to router: Router<APIContext>) {
        router.post("/v1/changes") { request, context in
            try await self.apply(request, access: context.access, peer: context.peer)
        }
    }

    /// `peer`: the Unix socket's client as the kernel gave it (nil over TCP): a `path` is that
    /// client's file or nothing.
    func apply(_ request: Request, access: ClientAccess = .owner, peer: PeerCredentials? = nil) async throws
        -> Response
    {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maximumBodySize)
        } catch {
            throw APIError(.contentTooLarge, "a change batch is at most \(Self.maximumBodySize) bytes of JSON")
        }
        let batch: API.ChangeBatch
        do {
            batch = try API.ChangeBatch.decode(json: Data(buffer: body))
            try batch.validate()
        } catch let error as API.ChangeBatch.Malformed {
            throw APIError(.badRequest, error.description)
        } catch let error as API.ChangeBatch.Invalid {
            throw APIError(.badRequest, error.description)
        }
        if let refusal = try refusal(of: batch, access: access, peer: peer) { throw APIError(.forbidden, refusal) }
        let files = try await BatchFiles.prepare(batch, access: access, peer: peer, library: library, uploads: uploads)
        let applier = ChangeBatchApplier(library: library, sniffer: sniffer, files: files.files)
        let token: PHPersistentChangeToken
        do {
            token = try await library.performChangesReturningToken { try applier.apply(batch) }
        } catch let failure as ChangeBatchApplier.Failure {
            files.failed(uploads)
            var error = APIError.refusedChange(
                failure.error, where: "changes[\(failure.index)] (\(failure.operation)): ")
            if failure.operation == "createAsset" { error.body.error.message = Self.plainMessage(failure) }
            throw error
        } catch let error as PHPhotosError {
            files.failed(uploads)
            var answer = APIError.refusedChange(error, where: "")
            if files.isEmpty == false,
                answer.body.error.message.contains(library.importDirectory.standardizedFileURL.path)
            {
                answer.body.error.message = "the new assets' files cannot be placed (PhotoKit \(error.code.rawValue))"
            }
            throw answer
        } catch {
            files.failed(uploads)
            throw error
        }
        files.committed()
        return try APIServer.json(API.ChangeBatchResult(created: applier.created, token: token.token))
    }

    /// A `createAsset` failure said without the paths it names (the staging folder's, with the
    /// daemon's process id; the upload's): what is wrong with the file, by PhotoKit's code.
    static func plainMessage(_ failure: ChangeBatchApplier.Failure) -> String {
        let what =
            switch failure.error.code {
            case .invalidResource: "the file is not a photo, video or audio file the library can read"
            case .missingResource: "the file is gone"
            case .notEnoughSpace: "the library's disk is full"
            case .accessRestricted, .accessUserDenied: "the file cannot be taken"
            default: "the file cannot be added"
            }
        return "changes[\(failure.index)] (createAsset): \(what)"
    }
}

/// The files a batch's `createAsset`s take, made ready before its change block: uploads claimed,
/// callers' files checked and copied into the uploads folder. The block moves each into place;
/// after the commit the callers' moved files are removed, after a failure the copies are.
final class BatchFiles {
    /// The file each `createAsset` takes, by its position in the batch, and its original name.
    private(set) var files: [Int: (path: String, originalFilename: String?)] = [:]
    private var callers: [CallerFile] = []
    private var copies: [String] = []
    private var claimed: [String: Uploads.Entry] = [:]

    var isEmpty: Bool { files.isEmpty }

    static func prepare(
        _ batch: API.ChangeBatch, access: ClientAccess, peer: PeerCredentials?, library: PHPhotoLibrary,
        uploads: Uploads
    ) async throws -> BatchFiles {
        let prepared = BatchFiles()
        var wanted: [(index: Int, id: String)] = []
        for (index, operation) in batch.changes.enumerated() {
            if case .createAsset(let fields) = operation, let id = fields.upload { wanted.append((index, id)) }
        }
        guard Set(wanted.map(\.id)).count == wanted.count else {
            throw APIError(.badRequest, "createAsset: an upload serves one asset; this batch names one twice")
        }
        prepared.claimed = try uploads.claim(wanted.map(\.id), for: access)
        for (index, id) in wanted {
            let entry = prepared.claimed[id]!
            prepared.files[index] = (entry.path, entry.filename)
        }
        do {
            for (index, operation) in batch.changes.enumerated() {
                guard case .createAsset(let fields) = operation, let path = fields.path else { continue }
                // ``ChangeBatchRoutes/refusal(of:access:peer:)`` let no path through without a peer.
                guard let peer else { throw CallerFile.refusal }
                let caller = try CallerFile(path: path, peer: peer, move: fields.move ?? false, library: library)
                let copy = try uploads.makeFile()
                prepared.copies.append(copy)
                // A copy of a large file blocks: not on the event loops.
                try await NIOThreadPool.singleton.runIfActive { try caller.copy(to: copy) }
                prepared.callers.append(caller)
                prepared.files[index] = (copy, caller.name)
            }
        } catch {
            prepared.failed(uploads)
            throw error
        }
        return prepared
    }

    /// The batch failed: the copies go, the uploads wait again for another batch.
    func failed(_ uploads: Uploads) {
        for copy in copies { unlink(copy) }
        uploads.restore(claimed)
    }

    /// The batch committed: the callers' moved files go (each only if still the file checked).
    func committed() {
        for caller in callers { caller.removeMovedName() }
    }
}

extension ChangeBatchRoutes {
    /// Why a client of this level may not make this batch, or nil when it may. Checked before
    /// anything is applied: a batch is refused whole.
    ///
    /// - add-only: `createAsset`, `createAlbum` outside any folder, and `addToAlbum` of new assets
    ///   (`$ref`) to new albums. PhotoKit's add-only access, which reads nothing, so it names no
    ///   existing object.
    /// - limited: `createAsset`; edits, deletions and album membership of the assets it sees
    ///   (or new ones); renaming, deleting and ordering its own albums. No new albums or folders,
    ///   no folder edits: what it made there it could never see.
    /// - read-only never gets here (``AccessMiddleware``); read-write may do anything.
    ///
    /// At every level, a `createAsset` with a server-side `path` needs a read-write client on the
    /// Unix socket (`peer` known); every other client sends the bytes (`upload`).
    func refusal(of batch: API.ChangeBatch, access: ClientAccess, peer: PeerCredentials? = nil) throws -> String? {
        func isNew(_ value: String) -> Bool { value.hasPrefix("$") }
        for (index, operation) in batch.changes.enumerated() {
            if case .createAsset(let fields) = operation, fields.path != nil, access.level != .readWrite || peer == nil
            {
                return "changes[\(index)] (createAsset): a server-side path is taken only from a read-write client on "
                    + "the Unix socket; send the file's bytes to POST /v1/uploads and give createAsset its upload"
            }
        }
        switch access.level {
        case .readWrite: return nil
        case .readOnly: return "a read-only client cannot change the library"
        case .addOnly:
            for (index, operation) in batch.changes.enumerated() {
                let allowed: Bool =
                    switch operation {
                    case .createAsset: true
                    case .createAlbum(let fields): fields.folder == nil
                    case .addToAlbum(let fields): isNew(fields.album) && fields.assets.allSatisfy(isNew)
                    default: false
                    }
                if !allowed {
                    return "changes[\(index)] (\(operation.name)): an add-only client creates assets and albums "
                        + "and adds new assets to new albums; it cannot name existing objects"
                }
            }
            return nil
        case .limited:
            var visible: Set<String>?
            func sees(_ assets: [String]) throws -> Bool {
                let existing = assets.filter { !isNew($0) }
                if existing.isEmpty { return true }
                if visible == nil { visible = try library.database.assetIdentifiers(inAlbums: access.albums) }
                return existing.allSatisfy(visible!.contains)
            }
            let albums = Set(access.albums)
            for (index, operation) in batch.changes.enumerated() {
                let allowed: Bool =
                    switch operation {
                    case .createAsset: true
                    case .editAsset(let fields): try sees([fields.asset])
                    case .deleteAssets(let fields): try sees(fields.assets)
                    case .renameAlbum(let fields): albums.contains(fields.album)
                    case .deleteAlbums(let fields): fields.albums.allSatisfy(albums.contains)
                    case .addToAlbum(let fields), .removeFromAlbum(let fields):
                        try albums.contains(fields.album) && sees(fields.assets)
                    case .moveInAlbum(let fields): albums.contains(fields.album)
                    case .createAlbum, .createFolder, .renameFolder, .deleteFolders, .addToFolder, .removeFromFolder:
                        false
                    }
                if !allowed {
                    return "changes[\(index)] (\(operation.name)): a limited client changes only the assets and albums "
                        + "it was given"
                }
            }
            return nil
        }
    }
}

/// Makes one batch's change requests, inside its change block (on the library's change queue):
/// each operation in order, each object it names found first (or the block throws, and nothing
/// of the batch is committed). The library applies the requests as it applies any block's:
/// creations, then edits in the order they were made, then deletions.
final class ChangeBatchApplier {
    /// An operation that cannot be made: which one, and PhotoKit's error.
    struct Failure: Error {
        let index: Int
        let operation: String
        let error: PHPhotosError
    }

    let library: PHPhotoLibrary
    let sniffer: MediaSniffer?
    /// The file each `createAsset` takes (``BatchFiles``), by position: the daemon's own copy or upload.
    let files: [Int: (path: String, originalFilename: String?)]
    /// The identifiers of the objects the batch creates, under their ref or their operation's index.
    private(set) var created: [String: String] = [:]

    // Requests by placeholder name, for the objects this batch creates.
    private var newAssets: [String: PHAssetChangeRequest] = [:]
    private var newAlbums: [String: PHAssetCollectionChangeRequest] = [:]
    private var newFolders: [String: PHCollectionListChangeRequest] = [:]
    // One edit request per existing object, by local identifier: its edits apply in batch order.
    private var assetEdits: [String: PHAssetChangeRequest] = [:]
    private var albumEdits: [String: PHAssetCollectionChangeRequest] = [:]
    private var folderEdits: [String: PHCollectionListChangeRequest] = [:]

    init(library: PHPhotoLibrary, sniffer: MediaSniffer?, files: [Int: (path: String, originalFilename: String?)]) {
        self.library = library
        self.sniffer = sniffer
        self.files = files
    }

    /// Makes every operation's requests; a batch already ``API/ChangeBatch/validate()``d.
    func apply(_ batch: API.ChangeBatch) throws {
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
            if let value = fields.creationDate { request.creationDate = value }
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
