/// A fetch's options, one shape whichever way they come: the query string of `GET /v1/assets`,
/// `/v1/albums` and `/v1/folders`, or the JSON body of `POST /v1/queries`. ``FetchRoutes`` fetches
/// with them, so that a listing and a live query of the same options hold the same objects.
///
/// ```
/// GET /v1/assets?predicate=favorite%20%3D%3D%20YES&sort=-creationDate&limit=10
/// POST /v1/queries {"predicate": "favorite == YES", "sort": ["-creationDate"], "limit": 10}
/// ```
struct FetchRequest: Decodable, Sendable {
    /// What a live query fetches: `assets` (nil), `albums` or `folders`; a listing's path says it.
    var of: String?
    /// A PhotoKit predicate format.
    var predicate: String?
    /// Sort keys in order, each `[-]key` (`SortKey.parse`).
    var sort: [String]?
    /// At most this many objects; 0 or nil: all.
    var limit: Int?
    /// Assets: hidden ones too.
    var includeHidden: Bool?
    /// Assets: every burst member, not only representatives.
    var includeAllBursts: Bool?
    /// Assets: only those of this album (a local identifier).
    var `in`: String?
    /// Albums: only `album` or only `smartAlbum`; nil: both.
    var type: String?

    /// The options each kind of fetch takes (a live query's `of` aside).
    static let keys: [String: Set<String>] = [
        "assets": ["predicate", "sort", "limit", "includeHidden", "includeAllBursts", "in"],
        "albums": ["predicate", "sort", "limit", "type"],
        "folders": ["predicate", "sort", "limit"],
    ]
}

extension FetchRequest {
    /// The options of a listing's query string: `sort` repeatable or comma-separated, `limit` a
    /// whole number (else 400), flags `true`/`false`. The listing refuses the parameters its kind
    /// does not take before it reads them.
    init(_ query: Query) throws {
        predicate = query["predicate"]
        sort = query.all("sort")
        let limit: Int = try query.integer("limit", in: 0...Int.max, default: 0)
        self.limit = limit
        includeHidden = try query.flag("includeHidden")
        includeAllBursts = try query.flag("includeAllBursts")
        self.in = query["in"]
        type = query["type"]
    }
}
