import Hummingbird
import PhotosStore
import PhotosWire

/// `GET /v1/rejected`: the files that look like photos or videos but could not be read, each with
/// why (``API/RejectedListing``, the lines `photos rejected --json` writes), by path, a window of
/// them at a time (`offset`, `limit`: 1,000 by default, at most 10,000) and how many in all.
///
/// For read-only and read-write clients: the paths are anywhere under the roots, not in a limited
/// client's albums, and an add-only client reads nothing (``AccessMiddleware/refusal(_:path:access:)``).
struct RejectedRoutes: Sendable {
    let database: LibraryDatabase

    /// The window's size when `limit` is not given, and the largest one asked.
    static let (defaultLimit, maximumLimit) = (1_000, 10_000)

    func add(to router: Router<APIContext>) {
        router.get("/v1/rejected") { request, _ in try self.rejected(Query(request.uri.query)) }
    }

    func rejected(_ query: Query) throws -> Response {
        let unknown = query.unknown(["offset", "limit"])
        guard unknown.isEmpty else {
            throw APIError(.badRequest, "unknown parameters \(unknown.joined(separator: ", ")); known: limit, offset")
        }
        let offset = try query.integer("offset", in: 0...Int.max, default: 0)
        let limit = try query.integer("limit", in: 1...Self.maximumLimit, default: Self.defaultLimit)
        let (files, total) = try database.rejectedFiles(from: offset, first: limit)
        return try APIServer.json(
            API.RejectedListing(files: files.map { API.RejectedFile($0) }, total: total))
    }
}
