import Foundation
import Hummingbird
import NIOPosix
import Photos
import PhotosCore
import PhotosWire

/// Recently Deleted over HTTP: `GET /v1/trash` lists the trashed assets with their files and where
/// each is in the Trash (``API/TrashListing``, the descriptions `photos trash list --json` writes),
/// `POST /v1/trash/restore` brings assets back and `POST /v1/trash/empty` erases them for good
/// (``API/TrashRequest`` in, ``API/TrashResult`` out), each with `dryRun`.
///
/// The listing needs a client that reads the whole library (read-only or read-write: a limited
/// client's albums hold no trashed asset); restoring and emptying need a read-write one
/// (``AccessMiddleware/refusal(_:path:access:)``). The files move on the thread pool, never on an
/// event loop.
struct TrashRoutes: Sendable {
    let library: PHPhotoLibrary

    /// The largest body accepted: a list of identifiers.
    static let maximumBodySize = 1 << 20

    func add(to router: Router<APIContext>) {
        router.get("/v1/trash") { _, _ in
            let assets = try await Self.offLoop { try library.recentlyDeletedDescriptions() }
            return try APIServer.json(API.TrashListing(assets: assets))
        }
        router.post("/v1/trash/restore") { request, _ in
            let body = try await Self.decode(request)
            guard let identifiers = body.identifiers, !identifiers.isEmpty else {
                throw APIError(.badRequest, "identifiers: name at least one asset of Recently Deleted to restore")
            }
            let dryRun = body.dryRun ?? false
            let restore = try await Self.offLoop {
                try library.restoreFromTrash(identifiers, dryRun: dryRun)
            }
            let result = API.TrashResult(dryRun: dryRun, restore: restore)
            // An asset that could not come back is the first failure's error, as before, with what
            // was done all the same: the assets restored are not left unsaid.
            guard let first = restore.failures.first else { return try APIServer.json(result) }
            let error = APIError.refusedChange(first.error, where: "")
            return Response(
                status: error.status, headers: [.contentType: "application/json"],
                body: ResponseBody(
                    byteBuffer: ByteBuffer(
                        bytes: try WireJSON.makeEncoder().encode(
                            API.TrashRestoreFailure(error: error.body.error, result: result)))))
        }
        router.post("/v1/trash/empty") { request, _ in
            let body = try await Self.decode(request)
            let dryRun = body.dryRun ?? false
            let erased = try await Self.offLoop {
                let chosen =
                    try body.identifiers.map { try library.trashedAssets(localIdentifiers: $0) }
                    ?? library.trashedAssetsHere()
                return try library.eraseTrashedAssets(chosen, dryRun: dryRun)
            }
            return try APIServer.json(API.TrashResult(dryRun: dryRun, handled: erased))
        }
    }

    /// The request's ``API/TrashRequest``; an empty body is one with no field.
    static func decode(_ request: Request) async throws -> API.TrashRequest {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumBodySize)
        } catch {
            throw APIError(.contentTooLarge, "a trash request is at most \(maximumBodySize) bytes of JSON")
        }
        guard body.readableBytes > 0 else { return API.TrashRequest(identifiers: nil) }
        do {
            return try JSONDecoder().decode(API.TrashRequest.self, from: Data(buffer: body))
        } catch {
            throw APIError(
                .badRequest,
                "the body is not a trash request ({\"identifiers\": [...], \"dryRun\": false}): "
                    + StrictFields.message(error))
        }
    }

    /// Runs library work that touches files on the thread pool; a PhotoKit error keeps its code.
    static func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await NIOThreadPool.singleton.runIfActive(work)
        } catch let error as PHPhotosError {
            throw APIError.refusedChange(error, where: "")
        }
    }
}
