import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosCore
import PhotosLinux
import PhotosWire

/// `GET /v1/assets/{id}/original` and `/v1/assets/{id}/resources/{type}`: a resource's bytes, from
/// the file the library records for it, with `Range` (one range), `ETag`, `Last-Modified`,
/// `If-None-Match` and `If-Modified-Since`; `HEAD` gives the same headers without reading the file.
/// Only files that are resources of the library's assets are served, and only read.
struct ResourceRoutes: Sendable {
    let fetches: FetchRoutes

    /// The asset's identifier and the resource type (nil: the original, its first resource) when
    /// `path` (what follows `/v1/assets/`, decoded) names a resource.
    static func resource(in path: String) -> (identifier: String, type: String?)? {
        if path.hasSuffix("/original") { return (String(path.dropLast("/original".count)), nil) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count >= 3, parts[parts.count - 2] == "resources" {
            return (parts.dropLast(2).joined(separator: "/"), String(parts[parts.count - 1]))
        }
        return nil
    }

    func serve(identifier: String, type: String?, request: Request, context: APIContext) async throws
        -> Response
    {
        // A limited client's 404 for an asset it does not see, as for one that is not there.
        let asset = try fetches.description(ofAsset: identifier, access: context.access)
        guard let resource = type.map({ type in asset.resources.first { $0.type == type } }) ?? asset.resources.first
        else {
            let types = asset.resources.map(\.type).joined(separator: ", ")
            throw APIError(.notFound, "asset \(identifier) has no \(type ?? "") resource (it has: \(types))")
        }
        try fetches.requireHere(resource.path, of: identifier)
        let file = try fetches.open(resource.path, of: identifier)
        let info = file.info
        let size = Int(info.st_size)
        let modified = Date(
            timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1_000_000_000)
        let tag = "\"\(info.st_ino)-\(size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\""
        var headers: HTTPFields = [
            .contentType: resource.mimeType ?? "application/octet-stream",
            .eTag: tag,
            .lastModified: HTTPDate.string(modified),
            .acceptRanges: "bytes",
        ]
        if let match = request.headers[.ifNoneMatch], EntityTag.anyMatches(match, tag) {
            return Response(status: .notModified, headers: headers)
        }
        if request.headers[.ifNoneMatch] == nil, let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse),
            modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return Response(status: .notModified, headers: headers)
        }
        var range: ClosedRange<Int>? = nil
        if let header = request.headers[.range],
            request.headers[.ifRange].map({ $0 == headers[.eTag] || $0 == headers[.lastModified] }) ?? true
        {
            switch Self.byteRange(header, size: size) {
            case .range(let wanted): range = wanted
            case .ignored: break
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(size)"
                throw APIRangeError(headers: headers, size: size)
            }
        }
        let whole = size > 0 ? 0...(size - 1) : nil
        guard let part = range ?? whole else {
            headers[.contentLength] = "0"
            return Response(status: .ok, headers: headers, body: ResponseBody())
        }
        headers[.contentLength] = "\(part.count)"
        if range != nil { headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)" }
        let status: HTTPResponse.Status = range != nil ? .partialContent : .ok
        // HEAD: what GET would send, but not the file (its body is dropped by the route).
        if request.method == .head { return Response(status: status, headers: headers) }
        // Read through the descriptor opened above, named so that FileIO can open it (a path whose
        // name is not UTF-8 has no String FileIO could pass to the kernel); kept open until written.
        let contents = try await FileIO().loadFile(path: file.name, range: part, context: context)
        let body = ResponseBody(contentLength: part.count) { writer in
            defer { withExtendedLifetime(file) {} }
            try await contents.write(writer)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// What a `Range` header asks of a file (RFC 9110 14.1.2, 14.2).
    enum RangeRequest: Equatable {
        /// The range to send (206).
        case range(ClosedRange<Int>)
        /// The whole file (200): a unit other than `bytes`, a range that does not parse, or several
        /// ranges (which this server does not answer as `multipart/byteranges`; RFC 9110 lets it
        /// ignore them).
        case ignored
        /// A valid single range that is not within the file (416).
        case unsatisfiable
    }

    /// What `bytes=a-b`, `bytes=a-` or `bytes=-n` asks of a file of `size` bytes:
    ///
    /// | header (size 10) | answer |
    /// |---|---|
    /// | `bytes=2-4`, `bytes=8-100`, `bytes=-3`, `bytes=-30` | that range, cut to the file |
    /// | `bytes=10-`, `bytes=-0`, any range of an empty file | unsatisfiable |
    /// | `items=0-5`, `bytes=5-2`, `bytes=x-1`, `bytes=0-0,5-9` | ignored |
    static func byteRange(_ header: String, size: Int) -> RangeRequest {
        // Range units are case-insensitive (RFC 9110 14.1).
        guard let equals = header.firstIndex(of: "="), header[..<equals].lowercased() == "bytes" else {
            return .ignored
        }
        let specs = header[header.index(after: equals)...].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else { return .ignored }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let count = position(last) else { return .ignored }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - count)...(size - 1))
        }
        guard let start = position(first) else { return .ignored }
        guard let end = last.isEmpty ? Int.max : position(last), end >= start else { return .ignored }
        guard start < size else { return .unsatisfiable }
        return .range(start...min(end, size - 1))
    }

    /// A range's position or length: digits alone (no sign, no blank); one too large for an `Int`
    /// is past any file's end.
    private static func position(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text) ?? Int.max
    }
}

/// Entity tags as a client lists them in `If-None-Match` (RFC 9110 8.8.3, 13.1.2).
enum EntityTag {
    /// Whether `header` names `tag`: `*` names any; otherwise any listed tag whose opaque part
    /// (`"..."`, with or without `W/`) is `tag`'s, the weak comparison `If-None-Match` asks for.
    /// Tags are split at commas: the server's own tags hold none, so a listed tag that does cannot
    /// match by being cut.
    static func anyMatches(_ header: String, _ tag: String) -> Bool {
        let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { listed in
            let listed = listed.trimmingCharacters(in: .whitespaces)
            return (listed.hasPrefix("W/") ? listed.dropFirst(2) : listed[...]) == opaque
        }
    }
}

/// 416 with the file's size in `Content-Range`, in the API's error shape.
struct APIRangeError: Error, HTTPResponseError {
    let headers: HTTPFields
    let size: Int
    var status: HTTPResponse.Status { .rangeNotSatisfiable }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try APIError(.rangeNotSatisfiable, "the range is not within the file's \(size) bytes")
            .response(from: request, context: context)
        response.headers[.contentRange] = headers[.contentRange]
        return response
    }
}

/// HTTP's date format (RFC 9110's IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
    private static let lock = NSLock()

    static func string(_ date: Date) -> String { lock.withLock { formatter.string(from: date) } }
    static func parse(_ text: String) -> Date? { lock.withLock { formatter.date(from: text) } }
}

/// A resource's file opened for reading by its path's bytes (``PathBytes``: a name that is not
/// UTF-8 is the file it names), with what `fstat` says of it; closed when released. ``name`` names
/// the open file for APIs that take a path (`/proc/self/fd/N`), which opens this file even if it
/// was renamed or replaced since.
final class OpenedFile: Sendable {
    let descriptor: Int32
    let info: stat

    /// Opens `path`: a 404 naming it when it is not there or not a regular file, a 403 when photosd
    /// may not read it. A symbolic link is never followed: one at the file's name, nor, with
    /// `wholePath` (a root's file), one in a directory on the way (``PhotosLinux/Syscall``): a link
    /// swapped in would have the API serve a file that is no asset's.
    init(_ path: String, of identifier: String, wholePath: Bool) throws {
        let descriptor: Int32
        do {
            descriptor = try Syscall.openForReading(path, wholePath: wholePath)
        } catch {
            let code = error.errno
            if code == EACCES || code == EPERM { throw APIError(.forbidden, "photosd cannot read \(path)") }
            if code == ELOOP {
                throw APIError(.notFound, "the file of asset \(identifier) is not at \(path): \(error.reason)")
            }
            throw APIError(.notFound, "the file of asset \(identifier) is not there: \(path) (errno \(code))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw APIError(.notFound, "the file of asset \(identifier) is not a file: \(path)")
        }
        self.descriptor = descriptor
        self.info = info
    }

    /// The open file's name in `/proc/self/fd`.
    var name: String { "/proc/self/fd/\(descriptor)" }

    deinit { close(descriptor) }
}
