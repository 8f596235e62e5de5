import Foundation
import Hummingbird
import Photos
import PhotosCore
import PhotosLinux
import PhotosMetadata
import PhotosStore
import PhotosWire

/// `GET /v1/assets`, `/v1/albums`, `/v1/folders` and each object by identifier: PhotoKit's fetches,
/// answered as listings of the asset and collection JSON, a page at a time.
struct FetchRoutes: Sendable {
    let library: PHPhotoLibrary
    let cursors: ListingCursors

    /// Objects per page unless `pageSize` says otherwise, and the most it may say.
    static let defaultPageSize = 1000
    static let maximumPageSize = 10_000

    func add(to router: Router<APIContext>) {
        // A listing's fetch and its first page's rows are read in one transaction: one snapshot, and
        // one transaction opened instead of two.
        let database = library.database
        router.get("/v1/assets") { request, context in
            try database.withinOneRead {
                try self.assets(Query(request.uri.query), lines: Self.wantsLines(request), access: context.access)
            }
        }
        router.get("/v1/albums") { request, context in
            try database.withinOneRead {
                try self.albums(Query(request.uri.query), lines: Self.wantsLines(request), access: context.access)
            }
        }
        router.get("/v1/folders") { request, context in
            try database.withinOneRead {
                try self.folders(Query(request.uri.query), lines: Self.wantsLines(request), access: context.access)
            }
        }
        let resources = ResourceRoutes(fetches: self)
        let thumbnails = ThumbnailRoutes(fetches: self, manager: PHImageManager())
        let metadata = AssetMetadataRoutes(fetches: self, extractor: MetadataExtractor())
        let asset: @Sendable (Request, APIContext) async throws -> Response = { request, context in
            let path = Self.identifier(context)
            if let identifier = ThumbnailRoutes.thumbnail(in: path) {
                return try await thumbnails.serve(identifier: identifier, request: request, context: context)
            }
            if let (identifier, type) = ResourceRoutes.resource(in: path) {
                return try await resources.serve(identifier: identifier, type: type, request: request, context: context)
            }
            if let identifier = AssetMetadataRoutes.metadata(in: path) {
                return try metadata.serve(identifier: identifier, context: context)
            }
            return try self.asset(path, access: context.access)
        }
        router.get("/v1/assets/**", use: asset)
        // HEAD, which RFC 9110 asks of every resource that answers GET: GET's answer without its
        // body. A resource's file is not read for it (ResourceRoutes looks at the method).
        router.head("/v1/assets/**") { request, context in try await asset(request, context).createHeadResponse() }
        router.get("/v1/albums/**") { _, context in
            try self.collection(Self.identifier(context), list: false, access: context.access)
        }
        router.get("/v1/folders/**") { _, context in
            try self.collection(Self.identifier(context), list: true, access: context.access)
        }
    }

    /// A local identifier from the rest of the path: identifiers hold slashes (`UUID/L0/001`),
    /// given as they are or as `%2F`.
    static func identifier(_ context: APIContext) -> String {
        PercentDecoding.decode(context.parameters.getCatchAll().joined(separator: "/")) ?? ""
    }

    // MARK: Listings

    /// Whether the client asked for the whole listing as JSON Lines (`Accept: application/x-ndjson`).
    static func wantsLines(_ request: Request) -> Bool {
        request.accepts("application/x-ndjson")
    }

    func assets(_ query: Query, lines: Bool = false, access: ClientAccess = .owner) throws -> Response {
        try refuseUnknown(query, FetchRequest.keys["assets"]!)
        if let page = try continued("assets", query, access: access) { return page }
        let result = try fetchAssets(try FetchRequest(query), access: access)
        return try firstPage(
            of: Listing(assets: result, albums: access.namedAlbums), query, lines: lines, access: access)
    }

    func albums(_ query: Query, lines: Bool = false, access: ClientAccess = .owner) throws -> Response {
        try refuseUnknown(query, FetchRequest.keys["albums"]!)
        if let page = try continued("albums", query, access: access) { return page }
        let results = try fetchAlbums(try FetchRequest(query), access: access).map { $0.result }
        return try firstPage(
            of: Listing("albums", collections: results, limited: access.isLimited), query, lines: lines, access: access)
    }

    func folders(_ query: Query, lines: Bool = false, access: ClientAccess = .owner) throws -> Response {
        try refuseUnknown(query, FetchRequest.keys["folders"]!)
        if let page = try continued("folders", query, access: access) { return page }
        let folders = try fetchFolders(try FetchRequest(query), access: access)
        return try firstPage(of: Listing("folders", collections: [folders]), query, lines: lines, access: access)
    }

    // MARK: Fetches

    // One fetch per kind, for a listing (`GET`) and a live query (`POST /v1/queries`) alike: the
    // same options fetch the same objects, whichever way they came.

    /// The assets a fetch asks for, the one named `in` or all of them.
    ///
    /// A limited client's fetch follows its albums as they gain and lose assets: the one it names
    /// with `in`, else all of them (the bound is part of the fetch, not a list taken at its start).
    func fetchAssets(_ request: FetchRequest, access: ClientAccess = .owner) throws -> PHFetchResult<PHAsset> {
        let albums = try assetRestriction(access, album: request.in)
        let options = try fetchOptions(request, schema: .asset, only: nil)
        options.restrictedToAlbums = albums
        options.includeHiddenAssets = request.includeHidden ?? false
        options.includeAllBurstAssets = request.includeAllBursts ?? false
        let result: PHFetchResult<PHAsset>
        if let identifier = request.in {
            guard
                let collection = PHAssetCollection.fetchAssetCollections(
                    withLocalIdentifiers: [identifier], options: plainOptions()
                ).firstObject
            else {
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

    /// The albums a fetch asks for: one fetch of the `type` asked, or without one, the regular
    /// albums' fetch and then the smart albums' (each with the options). A limited client fetches
    /// its albums only.
    func fetchAlbums(_ request: FetchRequest, access: ClientAccess = .owner) throws
        -> [(type: PHAssetCollectionType, result: PHFetchResult<PHAssetCollection>)]
    {
        let options = try fetchOptions(
            request, schema: .assetCollection, only: access.isLimited ? Set(access.albums) : nil)
        let types: [PHAssetCollectionType]
        switch request.type {
        case nil: types = [.album, .smartAlbum]
        case "album": types = [.album]
        case "smartAlbum": types = [.smartAlbum]
        case let other?: throw APIError(.badRequest, "type must be album or smartAlbum, not '\(other)'")
        }
        var results: [(type: PHAssetCollectionType, result: PHFetchResult<PHAssetCollection>)] = []
        for type in types {
            results.append((type, PHAssetCollection.fetchAssetCollections(with: type, subtype: .any, options: options)))
            // After each fetch: the next one's success would clear this one's reason.
            try requireAvailable()
        }
        return results
    }

    /// The folders a fetch asks for. A limited client's is empty: its albums are what it has.
    func fetchFolders(_ request: FetchRequest, access: ClientAccess = .owner) throws
        -> PHFetchResult<PHCollectionList>
    {
        let options = try fetchOptions(request, schema: .collectionList, only: access.isLimited ? [] : nil)
        let result = PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
        try requireAvailable()
        return result
    }

    // MARK: One object

    /// The asset's JSON, written from its rows; a 404 as ``description(ofAsset:access:)`` answers one.
    func asset(_ identifier: String, access: ClientAccess = .owner) throws -> Response {
        if access.isLimited, !(try sees(identifier, access)) {
            throw APIError(.notFound, "no asset \(identifier)")
        }
        var writer = WireJSONWriter()
        let written: Int
        do {
            written = try DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
                .writeAssets(.localIdentifiers([identifier]), as: .element, into: &writer, naming: access.namedAlbums)
        } catch let error as EncodingError {
            throw error
        } catch {
            throw APIError(.serviceUnavailable, "cannot read the library: \(error)")
        }
        guard written > 0 else { throw APIError(.notFound, "no asset \(identifier)") }
        return Self.json(writer.bytes)
    }

    /// Opens an asset's file to read or serve (``OpenedFile``): a root's file with no symbolic link
    /// anywhere on its path, one in the library's own folders (an import, an edit's render, under a
    /// data folder that may be reached through a link) with none at its name.
    func open(_ path: String, of identifier: String) throws -> OpenedFile {
        try OpenedFile(path, of: identifier, wholePath: isRootFile(path))
    }

    /// A 404 (`missingResource`) when a symbolic link is on the way to an asset's file (as ``open(_:of:)``
    /// sees it), for what reads the file by its path afterwards (the renderer, which follows no link
    /// at the name but cannot tell a folder swapped for one). Anything else is left to that reader.
    func refuseLinks(_ path: String, of identifier: String) throws {
        do {
            Syscall.close(try Syscall.openForReading(path, wholePath: isRootFile(path)))
        } catch  where error.errno == ELOOP {
            throw APIError(
                .notFound, photos: .missingResource,
                "the file of asset \(identifier) is not at \(path): \(error.reason)")
        } catch {}
    }

    /// Whether `path` is a root's file (not under the library's own folders), whose path holds no link.
    private func isRootFile(_ path: String) -> Bool {
        !CallerFile.isUnder(path, CallerFile.libraryFolders(library))
    }

    /// Refuses a file another host's disk holds (a library several hosts share) with 421 Misdirected
    /// Request naming that host, whose photosd serves it; a file of this host's is left to the caller.
    func requireHere(_ path: String, of identifier: String) throws {
        guard let holder = library.database.hostHolding(file: path) else { return }
        throw APIError(
            .misdirectedRequest, "the file of asset \(identifier) is on host \(holder): ask its photosd for it")
    }

    /// The asset's JSON description, hidden or not; a 404 for an unknown identifier, and for one a
    /// limited client does not see (as if it were not there).
    func description(ofAsset identifier: String, access: ClientAccess = .owner) throws -> AssetDescription {
        if access.isLimited, !(try sees(identifier, access)) {
            throw APIError(.notFound, "no asset \(identifier)")
        }
        // One read of the asset's row, files and albums: a fetch result first (PhotoKit's
        // `fetchAssets(withLocalIdentifiers:)` with hidden assets and every burst member, which is
        // every live asset) cost two more read transactions for the same answer.
        let found: AssetDescription?
        do {
            found = try DescriptionReader(database: library.database, timeZone: library.configuration.timeZone)
                .assets(.localIdentifiers([identifier])).first
        } catch {
            throw APIError(.serviceUnavailable, "cannot read the library: \(error)")
        }
        guard let found else { throw APIError(.notFound, "no asset \(identifier)") }
        return found.keepingAlbums(access.namedAlbums)
    }

    func collection(_ identifier: String, list: Bool, access: ClientAccess = .owner) throws -> Response {
        if access.isLimited, list || !access.albums.contains(identifier) {
            throw APIError(.notFound, "no \(list ? "folder" : "album") \(identifier)")
        }
        var writer = WireJSONWriter()
        var found = false
        func write(_ page: [CollectionDescription]) {
            for collection in page.prefix(1) {
                writer.append(collection.seen(limited: access.isLimited))
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
    private func continued(_ name: String, _ query: Query, access: ClientAccess) throws -> Response? {
        guard let cursor = query["next"] else { return nil }
        guard query.unknown(["next", "pageSize"]).isEmpty else {
            throw APIError(.badRequest, "next carries the listing's query: give only next (and pageSize)")
        }
        // A cursor is its listing's and its client's: another endpoint, or another client (another
        // level, another token), cannot page it.
        guard let (listing, offset) = cursors.take(cursor, of: name, for: access) else {
            throw APIError(
                .notFound,
                "no \(name) listing at cursor \(cursor) (cursors last \(Int(ListingCursors.lifetime)) s after their page)"
            )
        }
        return try page(of: listing, from: offset, size: try pageSize(query), access: access)
    }

    /// The listing's first page, from `offset` (0 unless given: the window a client that knows
    /// positions, a timeline's, asks for); as JSON Lines, the whole listing from there.
    private func firstPage(of listing: Listing, _ query: Query, lines: Bool, access: ClientAccess) throws -> Response {
        let offset = try query.integer("offset", in: 0...Int.max, default: 0)
        guard lines else { return try page(of: listing, from: offset, size: try pageSize(query), access: access) }
        guard query["pageSize"] == nil else {
            throw APIError(
                .badRequest, "pageSize pages the JSON listing; JSON Lines (application/x-ndjson) are the whole of it")
        }
        return Self.lines(of: listing, from: offset)
    }

    /// The whole listing as JSON Lines, the objects of one page of the snapshot per write: the
    /// response starts at once and memory stays flat however long it is (`photos assets` through
    /// the socket).
    static func lines(of listing: Listing, from start: Int = 0) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/x-ndjson"],
            body: ResponseBody { writer in
                var offset = min(start, listing.count)
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

    /// The page of `size` objects from `start`; past the end, an empty one without a cursor.
    private func page(of listing: Listing, from start: Int, size: Int, access: ClientAccess) throws -> Response {
        let offset = min(start, listing.count)
        let end = min(listing.count, offset + size)
        var writer = WireJSONWriter()
        writer.beginListing(listing.name)
        do {
            try listing.write(offset..<end, .element, &writer)
        } catch {
            throw APIError.from(error)
        }
        writer.endListing(next: end < listing.count ? cursors.keep(listing, at: end, for: access) : nil)
        return Self.json(writer.bytes)
    }

    private func pageSize(_ query: Query) throws -> Int {
        try query.integer("pageSize", in: 1...Self.maximumPageSize, default: Self.defaultPageSize)
    }

    private func refuseUnknown(_ query: Query, _ known: Set<String>) throws {
        let paging: Set = ["next", "pageSize", "offset"]
        let unknown = query.unknown(known.union(paging))
        guard unknown.isEmpty else {
            throw APIError(
                .badRequest,
                "unknown parameter\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                    + "known: \(known.union(paging).sorted().joined(separator: ", "))")
        }
    }

    /// PhotoKit's fetch options from a request's `predicate`, `sort` (`[-]key`: `-` for descending)
    /// and `limit`, checked against the class's keys. `only`: the local identifiers the fetch is
    /// kept to (a limited client's), nil for no bound.
    private func fetchOptions(_ request: FetchRequest, schema: PredicateSchema, only: Set<String>?) throws
        -> PHFetchOptions
    {
        let predicate = request.predicate
        let limit = request.limit ?? 0
        guard limit >= 0 else { throw APIError(.badRequest, "limit must be 0 or more") }
        let options = plainOptions()
        options.fetchLimit = limit
        if let predicate { options.predicate = NSPredicate(format: predicate) }
        options.sortDescriptors = (request.sort ?? []).map { text in
            let (key, ascending) = SortKey.parse(text)
            return NSSortDescriptor(key: key, ascending: ascending)
        }
        do {
            try options.validate(for: schema)
        } catch {
            throw APIError(.badRequest, "invalid predicate or sort: \(error)")
        }
        if let only {
            // The client's predicate parsed alone above, so in parentheses it is one term: nothing
            // it holds can reach past the AND.
            let identifiers = only.sorted()
            options.predicate =
                if let predicate {
                    NSPredicate(format: "(\(predicate)) AND localIdentifier IN %@", argumentArray: [identifiers])
                } else {
                    NSPredicate(format: "localIdentifier IN %@", argumentArray: [identifiers])
                }
            do {
                try options.validate(for: schema)
            } catch {
                throw APIError(.badRequest, "invalid predicate: \(error)")
            }
        }
        return options
    }

    /// The albums a limited client's asset fetch is bounded to (nil: the fetch needs no bound):
    /// its albums, whose members it sees. `album`, the fetch's `in`, must be one of them (else 404,
    /// as if absent), and the bound stays: a smart album's members are not its to see (a token
    /// naming "Recents" would have listed every asset through `?in=`).
    func assetRestriction(_ access: ClientAccess, album: String?) throws -> [String]? {
        guard access.isLimited else { return nil }
        if let album, !access.albums.contains(album) { throw APIError(.notFound, "no album \(album)") }
        return access.albums
    }

    /// Whether the asset is in one of a limited client's albums now.
    func sees(_ asset: String, _ access: ClientAccess) throws -> Bool {
        do {
            return try library.database.asset(asset, isInAlbums: access.albums)
        } catch {
            throw APIError.from(error)
        }
    }

    private func plainOptions() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
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
