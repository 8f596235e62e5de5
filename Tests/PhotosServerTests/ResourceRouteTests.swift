import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// `GET` and `HEAD /v1/assets/{id}/original` over a file of ten known bytes: conditional requests
/// (RFC 9110 13.1.2: a list of tags, weak tags, `*`) and ranges (RFC 9110 14: what is served,
/// what is ignored, what is unsatisfiable).
@Suite struct ResourceRouteTests {
    static let bytes = Array("0123456789".utf8)
    let files: FileAssetLibrary
    let target: String

    init() throws {
        let directory = try TemporaryDirectory(prefix: "photos-resource-route")
        let file = directory.path("ten.jpg")
        try Data(Self.bytes).write(to: file)
        files = try FileAssetLibrary(files: [file], directory: directory)
        target = "/v1/assets/\(files.identifiers[file.path]!)/original"
    }

    func withServer(_ body: (_ socket: String) async throws -> Void) async throws {
        try await APIServerTests.withServer(
            library: files.library, socket: files.directory.path("api.sock").path, body)
    }

    static func send(_ socket: String, _ method: String, _ target: String, headers: [String: String] = [:])
        async throws -> UnixHTTPClient.Reply
    {
        try await offPool { try UnixHTTPClient.request(socket, method, target, headers: headers) }
    }

    @Test func anIfNoneMatchListOrWeakTagNamingTheFileIsA304() async throws {
        try await withServer { socket in
            let first = try await APIServerTests.get(socket, target)
            #expect(first.status == 200 && first.body == Self.bytes)
            let tag = try #require(first.headers["etag"])
            for header in [tag, "\"x\", \(tag)", "\(tag), \"x\"", "W/\(tag)", "\"x\",W/\(tag)", "*"] {
                for method in ["GET", "HEAD"] {
                    let reply = try await Self.send(socket, method, target, headers: ["If-None-Match": header])
                    #expect(reply.status == 304 && reply.body.isEmpty, "\(method) If-None-Match: \(header)")
                    #expect(reply.headers["etag"] == tag)
                }
                // A range of a file the client has is not sent either.
                let ranged = try await APIServerTests.get(
                    socket, target, headers: ["If-None-Match": header, "Range": "bytes=0-1"])
                #expect(ranged.status == 304, "If-None-Match: \(header) with a range")
            }
            for header in ["\"x\"", "\"x\", W/\"y\"", "W/\"\(tag)\""] {
                let reply = try await APIServerTests.get(socket, target, headers: ["If-None-Match": header])
                #expect(reply.status == 200 && reply.body == Self.bytes, "If-None-Match: \(header)")
            }
        }
    }

    @Test func headAnswersGETsHeadersWithoutTheBody() async throws {
        try await withServer { socket in
            let get = try await APIServerTests.get(socket, target)
            let head = try await Self.send(socket, "HEAD", target)
            #expect(head.status == 200 && head.body.isEmpty)
            for name in ["content-length", "content-type", "etag", "last-modified", "accept-ranges"] {
                #expect(head.headers[name] != nil && head.headers[name] == get.headers[name], "\(name)")
            }
            #expect(head.headers["content-length"] == "10")
            let part = try await Self.send(socket, "HEAD", target, headers: ["Range": "bytes=2-4"])
            #expect(part.status == 206 && part.body.isEmpty)
            #expect(part.headers["content-length"] == "3" && part.headers["content-range"] == "bytes 2-4/10")
            // An error's status and headers, as GET's, without its body.
            let missing = try await Self.send(socket, "HEAD", "/v1/assets/nope/original")
            #expect(missing.status == 404 && missing.body.isEmpty)
            // The other paths under /v1/assets/ answer HEAD as GET.
            let asset = String(target.dropLast("/original".count))
            let json = try await Self.send(socket, "HEAD", asset)
            #expect(json.status == 200 && json.body.isEmpty && json.headers["content-type"] == "application/json")
        }
    }

    @Test(arguments: [
        // Served as asked.
        ("bytes=2-4", 206, "234"), ("bytes=8-", 206, "89"), ("bytes=-3", 206, "789"), ("bytes=8-100", 206, "89"),
        ("Bytes=0-0", 206, "0"),
        // Ignored: another unit, a range that does not parse, several ranges. The whole file.
        ("items=0-5", 200, "0123456789"), ("bytes=5-2", 200, "0123456789"), ("bytes=x-1", 200, "0123456789"),
        ("bytes=0-0,5-9", 200, "0123456789"), ("bytes=-", 200, "0123456789"), ("bytes=+1-2", 200, "0123456789"),
        // Unsatisfiable: a valid single range outside the file.
        ("bytes=10-", 416, nil), ("bytes=10-20", 416, nil), ("bytes=-0", 416, nil),
        ("bytes=99999999999999999999999-", 416, nil),
    ])
    func rangesServedIgnoredOrUnsatisfiable(header: String, status: Int, body: String?) async throws {
        try await withServer { socket in
            let reply = try await APIServerTests.get(socket, target, headers: ["Range": header])
            #expect(reply.status == status, "Range: \(header): \(reply.text)")
            if let body { #expect(reply.text == body, "Range: \(header)") }
            if status == 416 { #expect(reply.headers["content-range"] == "bytes */10") }
            if status == 200 { #expect(reply.headers["content-range"] == nil) }
        }
    }
}
