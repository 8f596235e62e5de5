import Foundation
import Hummingbird
import Photos
import PhotosCore
import PhotosWire

/// `GET /v1/assets`, `/v1/albums`, `/v1/folders` and each object by identifier: PhotoKit's fetches,
/// answered as listings of DESIGN's asset and collection JSON, a page at a time.
struct FetchRoutes: Sendable {
    let library: PHPhotoLibrary
    let cursors: ListingCursors

    /// Objects per page unless `pageSize` says otherwise, and the most it may say.
    static let defaultPageSize = 1000
    static let maximumPageSize = 10_000

    func add(to router: Router<BasicRequestContext>) {
        router.get("/v1/assets") { request, _ in try self.assets(Query(request.uri.query), lines: Self.wantsLines(request)) }
        router.get("/v1/albums") { request, _ in try self.albums(Query(request.uri.query), lines: Self.wantsLines(request)) }
        router.get("/v1/folders") { request, _ in
            try self.folders(Query(request.uri.query), lines: Self.wantsLines(request))
        }
        let resources = ResourceRoutes(fetches: self)
        router.get("/v1/assets/**") { request, context in
            let path = Self.identifier(context)
            if let (identifier, type) = ResourceRoutes.resource(in: path) {
                return try await resources.serve(identifier: identifier, type: type, request: request, context: context)
            }
            return try self.asset(path)
        }
        router.get("/v1/albums/**") { _, context in try self.collection(Self.identifier(context), list: false) }
        router.get("/v1/folders/**") { _, context in try self.collection(Self.identifier(context), list: true) }
    }

    /// A local identifier from the rest of the path: identifiers hold slashes (`UUID/L0/001`),
    /// given as they are or as `%2F`.
    static func identifier(_ context: BasicRequestContext) -> String {
        context.parameters.getCatchAll().joined(separator: "/").removingPercentEncoding ?? ""
    }

    // MARK: Listings

    /// Whether the client asked for the whole listing as JSON Lines (`Accept: application/x-ndjson`).
    static func wantsLines(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/x-ndjson") ?? false
    }

    func assets(_ query: Query, lines: Bool = false) throws -> Response {
        try refuseUnknown(query, ["predicate", "sort", "limit", "includeHidden", "includeAllBursts", "in"])
        if let page = try continued("assets", query) { return page }
        let options = try fetchOptions(query, schema: .asset)
        options.includeHiddenAssets = try query.flag("includeHidden")
        options.includeAllBurstAssets = try query.flag("includeAllBursts")
        let result: PHFetchResult<PHAsset>
        if let identifier = query["in"] {
            guard let collection = PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [identifier], options: plainOptions()
            ).firstObject else {
                try requireAvailable()
                throw APIError(.notFound, "no album \(identifier)")
            }
            result = PHAsset.fetchAssets(in: collection, options: options)
        } else {
            result = PHAsset.fetchAssets(with: options)
        }
        try requireAvailable()
        return try firstPage(of: Listing(assets: result), query, lines: lines)
    }

    func albums(_ query: Query, lines: Bool = false) throws -> Response {
        try refuseUnknown(query, ["predicate", "sort", "limit", "type"])
        if let page = try continued("albums", query) { return page }
        let options = try fetchOptions(query, schema: .assetCollection)
        let types: [PHAssetCollectionType]
        switch query["type"] {
        case nil: types = [.album, .smartAlbum]
        case "album": types = [.album]
        case "smartAlbum": types = [.smartAlbum]
        case let other?: throw APIError(.badRequest, "type must be album or smartAlbum, not '\(other)'")
        }
        var results: [PHFetchResult<PHAssetCollection>] = []
        for type in types {
            results.append(PHAssetCollection.fetchAssetCollections(with: type, subtype: .any, options: options))
            // After each fetch: the next one's success would clear this one's reason.
            try requireAvailable()
        }
        return try firstPage(of: Listing("albums", collections: results), query, lines: lines)
    }

    func folders(_ query: Query, lines: Bool = false) throws -> Response {
        try refuseUnknown(query, ["predicate", "sort", "limit"])
        if let page = try continued("folders", query) { return page }
        let options = try fetchOptions(query, schema: .collectionList)
        let folders = PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
        try requireAvailable()
        return try firstPage(of: Listing("folders", collections: [folders]), query, lines: lines)
    }

    /// The assets a live query's options fetch (``LiveQueryRoutes``), checked as a listing's are.
    func liveAssets(_ posted: LiveQueryRoutes.Request) throws -> PHFetchResult<PHAsset> {
        let options = try fetchOptions(
            predicate: posted.predicate, sort: posted.sort ?? [], limit: posted.limit ?? 0, schema: .asset)
        options.includeHiddenAssets = posted.includeHidden ?? false
        options.includeAllBurstAssets = posted.includeAllBursts ?? false
        let result: PHFetchResult<PHAsset>
        if let identifier = posted.in {
            guard let collection = PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [identifier], options: plainOptions()
            ).firstObject else {
                try requireAvailable()
                throw APIError(.notFound, "no album \(identifier)")
            }
            result = PHAsset.fetchAssets(in: collection, options: options)
        } else {
            result = PHAsset.fetchAssets(with: options)
        }
        try requireAvailable()
        return result
    }

    // MARK: One object

    func asset(_ identifier: String) throws -> Response {
        var writer = WireJSONWriter()
        try writer.append(try description(ofAsset: identifier))
        return Self.json(writer.bytes)
    }

    /// The asset's JSON description, hidden or not; a 404 for an unknown identifier.
    func description(ofAsset identifier: String) throws -> AssetDescription {
        let result = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: hiddenIncluded())
        var found: AssetDescription?
        try result.forEachDescriptionPage { page in found = found ?? page.first }
        try requireAvailable()
        guard let found else { throw APIError(.notFound, "no asset \(identifier)") }
        return found
    }

    func collection(_ identifier: String, list: Bool) throws -> Response {
        var writer = WireJSONWriter()
        var found = false
        func write(_ page: [CollectionDescription]) {
            for collection in page.prefix(1) {
                writer.append(collection)
                found = true
            }
        }
        if list {
            try PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [identifier], options: plainOptions())
                .forEachDescriptionPage(write)
        } else {
            try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: plainOptions())
                .forEachDescriptionPage(write)
        }
        try requireAvailable()
        guard found else { throw APIError(.notFound, "no \(list ? "folder" : "album") \(identifier)") }
        return Self.json(writer.bytes)
    }

    // MARK: Pieces

    /// The page after a cursor, or nil when the query has none. The cursor stands for the whole
    /// query: other parameters beside it are refused rather than ignored.
    /// The next page of the `name` listing whose cursor `next` names, if the query has one.
    private func continued(_ name: String, _ query: Query) throws -> Response? {
        guard let cursor = query["next"] else { return nil }
        guard query.unknown(["next", "pageSize"]).isEmpty else {
            throw APIError(.badRequest, "next carries the listing's query: give only next (and pageSize)")
        }
        guard let (listing, offset) = cursors.take(cursor, of: name) else {
            throw APIError(.notFound, "no \(name) listing at cursor \(cursor) (cursors last \(Int(ListingCursors.lifetime)) s after their page)")
        }
        return try page(of: listing, from: offset, size: try pageSize(query))
    }

    private func firstPage(of listing: Listing, _ query: Query, lines: Bool) throws -> Response {
        guard lines else { return try page(of: listing, from: 0, size: try pageSize(query)) }
        guard query["pageSize"] == nil else {
            throw APIError(.badRequest, "pageSize pages the JSON listing; JSON Lines (application/x-ndjson) are the whole of it")
        }
        return Self.lines(of: listing)
    }

    /// The whole listing as JSON Lines, the objects of one page of the snapshot per write: the
    /// response starts at once and memory stays flat however long it is (`photos assets` through
    /// the socket).
    static func lines(of listing: Listing) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                var offset = 0
                var json = WireJSONWriter()
                while offset < listing.count {
                    let end = min(listing.count, offset + defaultPageSize)
                    json.removeAll()
                    try listing.write(offset..<end, .line, &json)
                    try await writer.write(ByteBuffer(bytes: json.bytes))
                    offset = end
                }
                try await writer.finish(nil)
            })
    }

    private func page(of listing: Listing, from offset: Int, size: Int) throws -> Response {
        let end = min(listing.count, offset + size)
        var writer = WireJSONWriter()
        writer.beginListing(listing.name)
        do {
            try listing.write(offset..<end, .element, &writer)
        } catch {
            throw APIError.from(error)
        }
        writer.endListing(next: end < listing.count ? cursors.keep(listing, at: end) : nil)
        return Self.json(writer.bytes)
    }

    private func pageSize(_ query: Query) throws -> Int {
        try query.integer("pageSize", in: 1...Self.maximumPageSize, default: Self.defaultPageSize)
    }

    private func refuseUnknown(_ query: Query, _ known: Set<String>) throws {
        let unknown = query.unknown(known.union(["next", "pageSize"]))
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest, "unknown parameter\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                    + "known: \(known.union(["next", "pageSize"]).sorted().joined(separator: ", "))")
        }
    }

    /// PhotoKit's fetch options from `predicate`, `sort` (`-key` descending; repeatable or
    /// comma-separated) and `limit`, checked against the class's keys.
    private func fetchOptions(_ query: Query, schema: PredicateSchema) throws -> PHFetchOptions {
        try fetchOptions(
            predicate: query["predicate"], sort: query.all("sort"),
            limit: try query.integer("limit", in: 0...Int.max, default: 0), schema: schema)
    }

    private func fetchOptions(predicate: String?, sort: [String], limit: Int, schema: PredicateSchema) throws
        -> PHFetchOptions
    {
        guard limit >= 0 else { throw APIError(.badRequest, "limit must be 0 or more") }
        let options = plainOptions()
        options.fetchLimit = limit
        if let predicate { options.predicate = NSPredicate(format: predicate) }
        options.sortDescriptors = sort.map { key in
            key.hasPrefix("-")
                ? NSSortDescriptor(key: String(key.dropFirst()), ascending: false)
                : NSSortDescriptor(key: key, ascending: true)
        }
        do {
            try options.validate(for: schema)
        } catch {
            throw APIError(.badRequest, "invalid predicate or sort: \(error)")
        }
        return options
    }

    private func plainOptions() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    /// By identifier a hidden asset is still found, as PhotoKit finds it.
    private func hiddenIncluded() -> PHFetchOptions {
        let options = plainOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return options
    }

    /// A library the fetch could not read is a 503, never an empty listing. Offline roots are not
    /// a failure of the library: their assets are listed.
    private func requireAvailable() throws {
        guard let reason = library.unavailabilityReason else { return }
        if let error = reason as? PHPhotosError, error.code == .libraryVolumeOffline,
            let root = error.filePath, root != library.database.path
        {
            return
        }
        throw APIError(.serviceUnavailable, "cannot read the library: \(reason)")
    }

    static func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
