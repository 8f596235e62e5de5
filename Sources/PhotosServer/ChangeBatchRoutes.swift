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
                // Said without the import folder's paths: the operation when the batch has one
                // creation, and what is wrong with the file.
                let creations = files.files.keys.sorted()
                let place = creations.count == 1 ? "changes[\(creations[0])] (createAsset)" : "createAsset"
                answer.body.error.message = "\(place): \(Self.plainReason(error.code))"
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
        "changes[\(failure.index)] (createAsset): \(plainReason(failure.error.code))"
    }

    /// What is wrong with a new asset's file, by PhotoKit's code, in words.
    static func plainReason(_ code: PHPhotosError.Code) -> String {
        switch code {
        case .invalidResource: "the file is not a photo, video or audio file the library can read"
        case .missingResource: "the file is gone"
        case .notEnoughSpace: "the library's disk is full"
        case .accessRestricted, .accessUserDenied: "the file cannot be taken"
        default: "the file cannot be added (PhotoKit \(code.rawValue))"
        }
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
