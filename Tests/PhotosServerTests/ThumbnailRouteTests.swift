import Foundation
import Photos
import PhotosImaging
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `GET /v1/assets/{id}/thumbnail` over corpus files: sizes, modes, formats, ETags, a movie's poster
/// frame, and the errors for bad requests and bad files.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ThumbnailRouteTests {
    static let photo = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!  // 640x480
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!  // 320x568 upright
    static let truncated = Corpus.file("Bad/truncated.jpg")!

    let files: FileAssetLibrary
    let renderer = ImageRenderer()

    init() throws {
        let directory = try TemporaryDirectory(prefix: "photos-thumbnail-route")
        files = try FileAssetLibrary(
            files: [Self.photo, Self.truncated, directory.path("gone.jpg")], videos: [Self.movie], directory: directory)
    }

    func withServer(_ body: (_ socket: String) async throws -> Void) async throws {
        try await APIServerTests.withServer(
            library: files.library, socket: files.directory.path("api.sock").path, body)
    }

    func target(_ file: URL, _ query: String = "") -> String {
        "/v1/assets/\(files.identifiers[file.path]!)/thumbnail\(query)"
    }

    @Test func sizesModesAndFormats() async throws {
        try await withServer { socket in
            let plain = try await APIServerTests.get(socket, target(Self.photo))
            #expect(plain.status == 200, "\(plain.text)")
            #expect(plain.headers["content-type"] == "image/jpeg")
            #expect(plain.headers["content-length"] == "\(plain.body.count)")
            let header = try renderer.header(of: plain.body)
            #expect(header.loader.hasPrefix("jpegload") && header.size == PixelSize(width: 256, height: 192))

            let filled = try await APIServerTests.get(socket, target(Self.photo, "?size=100x100&mode=fill&format=webp"))
            #expect(filled.headers["content-type"] == "image/webp")
            let webp = try renderer.header(of: filled.body)
            #expect(webp.loader.hasPrefix("webpload") && webp.size == PixelSize(width: 133, height: 100))

            let png = try await APIServerTests.get(socket, target(Self.photo, "?size=32&format=png"))
            #expect(try renderer.header(of: png.body).size == PixelSize(width: 32, height: 24))
        }
    }

    @Test func theETagAnswersA304WithoutTheImage() async throws {
        try await withServer { socket in
            let first = try await APIServerTests.get(socket, target(Self.photo, "?size=64"))
            let tag = try #require(first.headers["etag"])
            #expect(first.headers["cache-control"] == "private, no-cache")
            let again = try await APIServerTests.get(
                socket, target(Self.photo, "?size=64"), headers: ["If-None-Match": tag])
            #expect(again.status == 304 && again.body.isEmpty)
            // Another request of the same file is another tag.
            let other = try await APIServerTests.get(socket, target(Self.photo, "?size=65"))
            #expect(other.headers["etag"] != tag)
            let stale = try await APIServerTests.get(
                socket, target(Self.photo, "?size=65"), headers: ["If-None-Match": tag])
            #expect(stale.status == 200)
        }
    }

    /// RFC 9110 13.1.2: `If-None-Match` lists tags and compares them weakly, and `*` names any
    /// picture there is; `HEAD` answers GET's headers without the image.
    @Test func anIfNoneMatchListWeakTagOrStarIsA304AndHEADGivesGETsHeaders() async throws {
        try await withServer { socket in
            let target = target(Self.photo, "?size=64")
            let first = try await APIServerTests.get(socket, target)
            let tag = try #require(first.headers["etag"])
            for header in ["\"x\", \(tag)", "\(tag), \"x\"", "W/\(tag)", "*"] {
                let reply = try await APIServerTests.get(socket, target, headers: ["If-None-Match": header])
                #expect(reply.status == 304 && reply.body.isEmpty, "If-None-Match: \(header)")
            }
            let head = try await offPool { try UnixHTTPClient.request(socket, "HEAD", target) }
            #expect(head.status == 200 && head.body.isEmpty)
            for name in ["content-type", "content-length", "etag", "cache-control"] {
                #expect(head.headers[name] != nil && head.headers[name] == first.headers[name], "\(name)")
            }
            let unchanged = try await offPool {
                try UnixHTTPClient.request(socket, "HEAD", target, headers: ["If-None-Match": tag])
            }
            #expect(unchanged.status == 304)
        }
    }

    /// A RAW+JPEG pair whose chosen original is its RAW: the thumbnail is the RAW's (1224x816, not
    /// the JPEG's 640x480), and once the choice goes back to the JPEG the old ETag is stale.
    @Test func aPairsThumbnailAndETagFollowItsChosenOriginal() async throws {
        let raw = try #require(Corpus.file("Camera/RAW/canon_eos_6d.dng"))
        var identifier = ""
        try files.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: Self.photo, options: nil)
            request.addResource(with: .alternatePhoto, fileURL: raw, options: nil)
            request.originalResourceChoice = .raw
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        try await withServer { socket in
            let target = "/v1/assets/\(identifier)/thumbnail?size=2000"
            let first = try await APIServerTests.get(socket, target)
            #expect(try renderer.header(of: first.body).size == PixelSize(width: 1224, height: 816))
            let tag = try #require(first.headers["etag"])
            let options = PHFetchOptions()
            options.photoLibrary = files.library
            let pair = try #require(
                PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: options).firstObject)
            try files.library.performChangesAndWait {
                PHAssetChangeRequest(for: pair).revertAssetContent(to: .compressed)
            }
            let after = try await APIServerTests.get(socket, target, headers: ["If-None-Match": tag])
            #expect(after.status == 200 && after.headers["etag"] != tag)
            #expect(try renderer.header(of: after.body).size == PixelSize(width: 640, height: 480))
        }
    }

    @Test func aMovieGivesItsPosterFrame() async throws {
        try await withServer { socket in
            let reply = try await APIServerTests.get(socket, target(Self.movie, "?size=64"))
            #expect(reply.status == 200)
            #expect(try renderer.header(of: reply.body).size == PixelSize(width: 36, height: 64))
        }
    }

    @Test(arguments: ["?size=0", "?size=5000", "?size=12x", "?size=abc", "?mode=crop", "?format=gif", "?colour=red"])
    func badRequestsAre400s(query: String) async throws {
        try await withServer { socket in
            let reply = try await APIServerTests.get(socket, target(Self.photo, query))
            #expect(reply.status == 400, "\(query): \(reply.text)")
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
            #expect(!error.error.message.isEmpty)
        }
    }

    @Test func badFilesSayWhy() async throws {
        try await withServer { socket in
            let gone = try await APIServerTests.get(socket, target(files.directory.path("gone.jpg")))
            #expect(gone.status == 404)
            #expect(try JSONDecoder().decode(API.ErrorBody.self, from: Data(gone.body)).error.code == 3303)
            let cut = try await APIServerTests.get(socket, target(Self.truncated))
            #expect(cut.status == 422)
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(cut.body)).error
            #expect(error.code == 3302 && error.message.contains("truncated.jpg"), "\(error.message)")
            let nobody = try await APIServerTests.get(socket, "/v1/assets/nope/thumbnail")
            #expect(nobody.status == 404)
        }
    }
}
