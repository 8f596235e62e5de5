import Foundation
import Hummingbird
import Photos
import PhotosWire

/// `GET /v1/days`: the day index of an asset listing, what a timeline lays out before it fetches
/// an asset. It takes the listing's options (`predicate`, `includeHidden`, `includeAllBursts`, `in`)
/// and a sort by creation date only (`-creationDate`, newest first, unless `sort=creationDate`),
/// and answers ``PhotosWire/API/DayIndex``: runs of one day whose `start` and `count` are positions
/// of `GET /v1/assets` with the same options and sort.
///
/// ```
/// GET /v1/days?includeHidden=true  →  {"days": [{"day": "2024-05-03", "count": 12, "start": 0}, ...], "count": 15}
/// GET /v1/assets?includeHidden=true&sort=-creationDate&offset=0&pageSize=12  →  that day's assets
/// ```
struct DayIndexRoutes: Sendable {
    let fetches: FetchRoutes

    /// The options the index takes: the asset listing's, less `limit` (a timeline is the whole listing).
    static let keys: Set<String> = ["predicate", "sort", "includeHidden", "includeAllBursts", "in"]
    /// The sorts a day index is made for: runs of days are runs only in creation date's order.
    static let sorts = ["-creationDate", "creationDate"]

    func add(to router: Router<APIContext>) {
        router.get("/v1/days") { request, context in
            try self.days(Query(request.uri.query), access: context.access)
        }
    }

    func days(_ query: Query, access: ClientAccess = .owner) throws -> Response {
        let unknown = query.unknown(Self.keys)
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest,
                "unknown parameter\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                    + "known: \(Self.keys.sorted().joined(separator: ", "))")
        }
        var request = try FetchRequest(query)
        let sort = request.sort ?? []
        guard sort.isEmpty || (sort.count == 1 && Self.sorts.contains(sort[0])) else {
            throw APIError(
                .badRequest,
                "sort must be one of \(Self.sorts.joined(separator: ", ")), not '\(sort.joined(separator: ","))'")
        }
        request.sort = sort.isEmpty ? [Self.sorts[0]] : sort
        let result = try fetches.fetchAssets(request, access: access)
        let index: API.DayIndex
        do {
            index = try result.creationDays()
        } catch {
            throw APIError.from(error)
        }
        return try APIServer.json(index)
    }
}
