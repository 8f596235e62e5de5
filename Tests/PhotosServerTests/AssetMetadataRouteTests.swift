import Foundation
import Photos
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `GET /v1/assets/{id}/metadata` over corpus files: a photo's camera and exposure, a movie's
/// camera, a limited client's view, and the errors for files that are gone or no longer readable.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct AssetMetadataRouteTests {
    static let photo = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!
    static let truncated = Corpus.file("Bad/truncated.jpg")!

    let files: FileAssetLibrary

    init() throws {
        let directory = try TemporaryDirectory(prefix: "photos-metadata-route")
        files = try FileAssetLibrary(
            files: [Self.photo, Self.truncated, directory.path("gone.jpg")], videos: [Self.movie], directory: directory)
    }

    func withServer(_ body: (_ socket: String) async throws -> Void) async throws {
        try await APIServerTests.withServer(
            library: files.library, socket: files.directory.path("api.sock").path, body)
    }

    func target(_ file: URL) -> String {
        "/v1/assets/\(files.identifiers[file.path]!)/metadata"
    }

    @Test func aPhotoAnswersItsCameraAndExposureAsExifToolReadsThem() async throws {
        try await withServer { socket in
            let reply = try await APIServerTests.get(socket, target(Self.photo))
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.headers["content-type"] == "application/json")
            let answer = try JSONDecoder().decode(API.AssetMetadata.self, from: Data(reply.body))
            #expect(answer.localIdentifier == files.identifiers[Self.photo.path])
            #expect(answer.path == Self.photo.path)
            var expected = API.AssetMetadata.Camera()
            (expected.make, expected.model, expected.software) = ("NIKON", "COOLPIX P6000", "Nikon Transfer 1.1 W")
            (expected.exposureTime, expected.exposureTimeText) = (1.0 / 75, "1/75")
            (expected.fNumber, expected.isoSpeed, expected.focalLength, expected.focalLengthIn35mm) = (5.9, 64, 24, 112)
            (expected.flash, expected.flashFired, expected.exposureBias) = (16, false, 0)
            #expect(answer.camera == expected)
            // What the file does not state is absent, not null.
            #expect(!reply.text.contains("lensModel") && !reply.text.contains("null"))
        }
    }

    @Test func aMovieAnswersWhatItsContainerStates() async throws {
        try await withServer { socket in
            let reply = try await APIServerTests.get(socket, target(Self.movie))
            #expect(reply.status == 200, "\(reply.text)")
            let camera = try JSONDecoder().decode(API.AssetMetadata.self, from: Data(reply.body)).camera
            var expected = API.AssetMetadata.Camera()
            (expected.make, expected.model) = ("Apple", "iPhone 6")
            #expect(camera == expected)
        }
    }

    /// A new album titled `title` holding the asset of `file`: the asset and the album's identifier.
    static func album(_ title: String, holding file: URL, in files: FileAssetLibrary) throws -> (
        asset: PHAsset, album: String
    ) {
        let options = PHFetchOptions()
        options.photoLibrary = files.library
        let asset = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [files.identifiers[file.path]!], options: options).firstObject)
        var album = ""
        try files.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
            request.addAssets([asset] as NSArray)
            album = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return (asset, album)
    }

    @Test func aLimitedClientSeesOnlyItsAlbumsAssets() async throws {
        let album = try Self.album("Shared", holding: Self.photo, in: files).album
        let database = files.library.database
        let limited = [
            "Authorization": "Bearer \(try database.createAccessToken(level: .limited, albums: [album]).secret)"
        ]
        try await withServer { socket in
            let seen = try await APIServerTests.get(socket, target(Self.photo), headers: limited)
            #expect(seen.status == 200, "\(seen.text)")
            let unseen = try await APIServerTests.get(socket, target(Self.movie), headers: limited)
            #expect(unseen.status == 404)
            // The same answer as for an asset that is not there.
            let nobody = try await APIServerTests.get(socket, "/v1/assets/nope/metadata", headers: limited)
            #expect(nobody.status == 404)
        }
    }

    /// With a gazetteer: the photo's place by name, and each of its albums' place names.
    @Test func aPhotoNamesItsPlaceAndItsAlbumsPlaces() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-metadata-places")
        let gazetteer = try GazetteerFixture.write(in: directory)
        let placed = try FileAssetLibrary(files: [Self.photo], directory: directory) { configuration in
            configuration.gazetteerPath = gazetteer.gazetteer
            configuration.countryNamesPath = gazetteer.countries
        }
        let (photo, album) = try Self.album("Weekend", holding: Self.photo, in: placed)
        try placed.library.performChangesAndWait {
            PHAssetChangeRequest(for: photo).location = CLLocation(latitude: 45.7597, longitude: 4.8422)
        }
        try await APIServerTests.withServer(library: placed.library, socket: directory.path("api.sock").path) {
            socket in
            let reply = try await APIServerTests.get(socket, "/v1/assets/\(photo.localIdentifier)/metadata")
            #expect(reply.status == 200, "\(reply.text)")
            let answer = try JSONDecoder().decode(API.AssetMetadata.self, from: Data(reply.body))
            #expect(answer.placeNames == ["Lyon"])
            #expect(answer.albumPlaceNames == [album: ["Lyon"]])
            #expect(answer.camera.model == "COOLPIX P6000")
        }
        // Without a gazetteer: neither key, though the photo's file states where it was taken.
        let bare = try FileAssetLibrary(files: [Self.photo]) { $0.gazetteerPath = nil }
        try await APIServerTests.withServer(library: bare.library, socket: bare.directory.path("api.sock").path) {
            socket in
            let reply = try await APIServerTests.get(
                socket, "/v1/assets/\(bare.identifiers[Self.photo.path]!)/metadata")
            #expect(reply.status == 200, "\(reply.text)")
            #expect(!reply.text.contains("placeNames") && !reply.text.contains("albumPlaceNames"), "\(reply.text)")
        }
    }

    @Test func filesThatAreGoneOrUnreadableSayWhy() async throws {
        try await withServer { socket in
            let gonePath = files.directory.path("gone.jpg").path
            let gone = try await APIServerTests.get(socket, target(files.directory.path("gone.jpg")))
            #expect(gone.status == 404)
            #expect(
                try JSONDecoder().decode(API.ErrorBody.self, from: Data(gone.body)).error.message.contains(gonePath))
            // As the thumbnail route answers for a file it cannot decode.
            let cut = try await APIServerTests.get(socket, target(Self.truncated))
            #expect(cut.status == 422)
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(cut.body)).error
            #expect(error.code == 3302 && error.message.contains("truncated.jpg"), "\(error.message)")
            let nobody = try await APIServerTests.get(socket, "/v1/assets/nope/metadata")
            #expect(nobody.status == 404)
        }
    }
}
