import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosCore
import PhotosImaging
import PhotosWire

/// `GET /v1/assets/{id}/thumbnail?size=256&mode=fill&format=webp`: the asset's picture (a video's
/// poster frame) scaled into a box, through `PHImageManager`, so the disk cache (and photosd's
/// thumbnails made ahead) serve it. `ETag` names the file as it is now and the request; a client
/// that sends it back (in an `If-None-Match` list, weak or not, or `*`) gets 304 without a decode.
/// `HEAD` gives GET's headers, its `Content-Length` the image's (made, or read from the cache, as for
/// GET), without the image.
struct ThumbnailRoutes: Sendable {
    let fetches: FetchRoutes
    let manager: PHImageManager

    /// The largest box side served: beyond it, the original is the better request.
    static let largestSide = 4096

    /// The asset's identifier when `path` (what follows `/v1/assets/`, decoded) names its thumbnail.
    static func thumbnail(in path: String) -> String? {
        path.hasSuffix("/thumbnail") ? String(path.dropLast("/thumbnail".count)) : nil
    }

    /// What a request asks for.
    struct Wanted: Equatable {
        var box = PixelSize(width: 256, height: 256)
        var fill = false
        var format = ImageFormat.jpeg

        init(_ query: Query) throws {
            let unknown = query.unknown(["size", "mode", "format"])
            guard unknown.isEmpty else {
                throw APIError(
                    .badRequest,
                    "unknown parameter\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")); "
                        + "known: format, mode, size")
            }
            if let size = query["size"] {
                let sides = size.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(sides.count), let width = sides[0], let height = sides.last ?? nil,
                    (1...largestSide).contains(width), (1...largestSide).contains(height)
                else {
                    throw APIError(
                        .badRequest, "size wants SIDE or WIDTHxHEIGHT, 1 to \(largestSide) each, got \(size)")
                }
                box = PixelSize(width: width, height: height)
            }
            switch query["mode"] {
            case nil, "fit": fill = false
            case "fill": fill = true
            case let mode?: throw APIError(.badRequest, "mode is fit or fill, got \(mode)")
            }
            if let format = query["format"] {
                guard let known = ImageFormat(rawValue: format) else {
                    throw APIError(.badRequest, "format is jpeg, png or webp, got \(format)")
                }
                self.format = known
            }
        }

        /// The ETag of this request of the file at `path`: the file as it is now, the request, and
        /// the renderer's version.
        func tag(ofFileAt path: String) -> String? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return "\"\(info.st_dev)-\(info.st_ino)-\(info.st_size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
                + "-\(box.width)x\(box.height)-\(fill ? "fill" : "fit")-\(format.rawValue)-v\(ImageRenderer.version)\""
        }
    }

    func serve(identifier: String, request: Request, context: APIContext) async throws -> Response {
        let wanted = try Wanted(Query(request.uri.query))
        // A limited client's 404 for an asset it does not see, as for one that is not there.
        let description = try fetches.description(ofAsset: identifier, access: context.access)
        let options = PHFetchOptions()
        options.photoLibrary = fetches.library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject else {
            throw APIError(.notFound, "no asset \(identifier)")
        }
        // The file the manager renders (a RAW+JPEG pair's RAW when that is its chosen original), whose
        // stamp is the ETag's.
        let sources =
            description.mediaType == "video"
            ? PHAssetResourceType.movieSources
            : PHAssetResourceType.pictureSources(edited: true, rawOriginal: asset.originalResourceChoice == .raw)
        guard let file = sources.lazy.compactMap({ type in description.resources.first { $0.type == type.name } }).first
        else {
            throw APIError(.notFound, "asset \(identifier) has no picture to make a thumbnail of")
        }
        try fetches.requireHere(file.path, of: identifier)
        try fetches.refuseLinks(file.path, of: identifier)
        let tag = wanted.tag(ofFileAt: file.path)
        if let tag, let match = request.headers[.ifNoneMatch], EntityTag.anyMatches(match, tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "private, no-cache"])
        }
        let data = try await render(asset, wanted)
        var headers: HTTPFields = [
            .contentType: "image/\(wanted.format.rawValue)", .contentLength: "\(data.count)",
            .cacheControl: "private, no-cache",
        ]
        if let tag { headers[.eTag] = tag }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The image, from the manager's worker threads (never the event loop's).
    private func render(_ asset: PHAsset, _ wanted: Wanted) async throws -> Data {
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        options.encoding = wanted.format
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Data, APIError>, Never>) in
            manager.requestImage(
                for: asset, targetSize: CGSize(width: wanted.box.width, height: wanted.box.height),
                contentMode: wanted.fill ? .aspectFill : .aspectFit, options: options
            ) { image, info in
                if let image { return continuation.resume(returning: .success(image.data)) }
                continuation.resume(returning: .failure(Self.error(info?[PHImageErrorKey] as? PHPhotosError)))
            }
        }
        return try result.get()
    }

    /// The API's error for a picture that could not be made: the file gone (404: the picture is
    /// not there, where a change naming a gone file is 422), else the status of the API's table
    /// (``APIError/status(of:)``): one that cannot be decoded or is too large 422, the library
    /// unavailable 503.
    static func error(_ error: PHPhotosError?) -> APIError {
        guard let error else { return APIError(.internalServerError, "no image and no error") }
        switch error.code {
        case .missingResource: return APIError(.notFound, photos: error.code, error.message)
        case .invalidResource, .limitExceeded, .requestNotSupportedForAsset:
            return APIError(APIError.status(of: error), photos: error.code, error.message)
        default: return APIError.from(error)
        }
    }
}
