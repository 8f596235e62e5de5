import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import PhotosWire
import Synchronization

/// `POST /v1/uploads`: a file's bytes, for a `createAsset` that names no server-side path.
///
/// A client that may create assets but may not name a file on the daemon's machine (every token
/// below read-write, and every TCP client) sends the bytes instead: the body
/// (`application/octet-stream`, any length up to ``maximumSize``) is streamed into a new file in
/// the library's import folder (`.uploads/`, private to the daemon, skipped by scans), and the
/// answer names it: `201 {"upload": ID, "size": BYTES}`. A later batch takes it with
/// `{"op": "createAsset", "upload": ID}`; the library moves that file into place (a link: no
/// second copy), so an upload serves one asset. A body past the bound is a 413, and what was
/// written of it is removed.
///
/// An upload is its client's: another client (another token, another level) cannot name it. One
/// not taken within ``lifetime`` is removed, as is one a batch failed to take after that; at most
/// ``maximumPending`` wait at once (one more is a 429).
final class Uploads: Sendable {
    /// `<import folder>/.uploads`.
    let directory: String
    /// The largest body accepted, in bytes.
    let maximumSize: Int64
    /// How long an upload waits for its batch.
    static let lifetime: TimeInterval = 3600
    /// How many uploads may wait at once, all clients together.
    static let maximumPending = 64
    /// The largest upload when photosd's configuration does not say: 1 GiB.
    static let defaultMaximumSize = APIServer.defaultMaximumUploadSize

    struct Entry: Sendable {
        let path: String
        let owner: ClientAccess
        /// The name given with `?filename=`, kept as the asset's original filename.
        let filename: String?
        let created: Date
    }
    private let pending = Mutex<[String: Entry]>([:])

    init(importDirectory: URL, maximumSize: Int64 = Uploads.defaultMaximumSize) {
        directory = importDirectory.standardizedFileURL.path + "/.uploads"
        self.maximumSize = maximumSize
    }

    func add(to router: Router<APIContext>) {
        router.post("/v1/uploads") { request, context in try await self.receive(request, access: context.access) }
    }

    /// Streams the body into a new upload and answers its identifier.
    func receive(_ request: Request, access: ClientAccess) async throws -> Response {
        let unknown = Query(request.uri.query).unknown(["filename"])
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown parameters \(unknown.joined(separator: ", ")); known: filename")
        }
        let filename = Query(request.uri.query)["filename"]
        if let filename, filename.isEmpty || filename.utf8.count > 255 {
            throw APIError(.badRequest, "filename is 1 to 255 bytes")
        }
        if let length = request.headers[.contentLength].flatMap({ Int64($0) }), length > maximumSize {
            throw StagingFailure.tooLarge(maximumSize)
        }
        sweep()
        guard pending.withLock({ $0.count }) < Self.maximumPending else {
            throw APIError(.tooManyRequests, "\(Self.maximumPending) uploads wait for their batch; try again later")
        }
        let id = UUID().uuidString
        let path = try makeFile(id)
        let output = open(path, O_WRONLY | O_CLOEXEC)
        guard output >= 0 else { throw StagingFailure.writing(errno) }
        var size: Int64 = 0
        do {
            defer { close(output) }
            for try await buffer in request.body {
                size += Int64(buffer.readableBytes)
                guard size <= maximumSize else { throw StagingFailure.tooLarge(maximumSize) }
                try buffer.withUnsafeReadableBytes { bytes in
                    var written = 0
                    while written < bytes.count {
                        let done = Glibc.write(output, bytes.baseAddress! + written, bytes.count - written)
                        if done < 0, errno == EINTR { continue }
                        guard done > 0 else { throw StagingFailure.writing(errno) }
                        written += done
                    }
                }
            }
            guard fsync(output) == 0 else { throw StagingFailure.writing(errno) }
        } catch {
            unlink(path)
            throw error
        }
        pending.withLock { $0[id] = Entry(path: path, owner: access, filename: filename, created: Date()) }
        let answer = try WireJSON.makeEncoder().encode(API.Upload(upload: id, size: size))
        var response = FetchRoutes.json(Array(answer))
        response.status = .created
        return response
    }

    /// Takes the uploads `ids` for a batch of `access`'s: each must be that client's and waiting,
    /// else the same 404 (another client's upload is not this one's to know of). Give them back
    /// with ``restore(_:)`` if the batch fails.
    func claim(_ ids: [String], for access: ClientAccess) throws(APIError) -> [String: Entry] {
        try pending.withLock { pending throws(APIError) in
            var taken: [String: Entry] = [:]
            for id in ids {
                guard let entry = pending[id], entry.owner == access,
                    Date().timeIntervalSince(entry.created) < Self.lifetime
                else {
                    throw APIError(
                        .notFound, "createAsset: no upload \(id) of this client's (an upload serves one asset)")
                }
                taken[id] = entry
            }
            for id in ids { pending[id] = nil }
            return taken
        }
    }

    /// Uploads a failed batch claimed, waiting again (those whose file the batch moved are not).
    func restore(_ entries: [String: Entry]) {
        pending.withLock { pending in
            for (id, entry) in entries where access(entry.path, F_OK) == 0 { pending[id] = entry }
        }
    }

    /// A new empty file of the daemon's in the uploads folder, for a copy of a caller's file.
    func makeFile(_ name: String = UUID().uuidString) throws(APIError) -> String {
        if access(directory, F_OK) != 0 {
            // The import folder as the library makes it, then this one, private to the daemon.
            let imports = (directory as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: imports, withIntermediateDirectories: true)
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else { throw StagingFailure.writing(errno) }
        }
        let path = directory + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StagingFailure.writing(errno) }
        close(descriptor)
        return path
    }

    /// Creates `path` (which must not exist) and fills it with `fill`, then syncs it; removed if
    /// anything fails.
    static func create(_ path: String, _ fill: (Int32) throws -> Void) throws {
        let output = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard output >= 0 else { throw StagingFailure.writing(errno) }
        defer { close(output) }
        do {
            try fill(output)
            guard fsync(output) == 0 else { throw StagingFailure.writing(errno) }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Removes uploads past their lifetime, and files left in the folder by a daemon that stopped
    /// (none of this one's: older than the lifetime).
    func sweep(now: Date = Date()) {
        let expired = pending.withLock { pending in
            let old = pending.filter { now.timeIntervalSince($0.value.created) >= Self.lifetime }
            for id in old.keys { pending[id] = nil }
            return old.values.map(\.path)
        }
        for path in expired { unlink(path) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names {
            var info = stat()
            let path = directory + "/" + name
            if lstat(path, &info) == 0, now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > Self.lifetime * 2 {
                unlink(path)
            }
        }
    }
}

extension API {
    /// What `POST /v1/uploads` answers: the upload's identifier, for `createAsset`'s `upload`, and
    /// how many bytes it holds.
    struct Upload: Codable, Sendable {
        var upload: String
        var size: Int64
    }
}
