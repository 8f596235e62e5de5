import Foundation
import HTTPTypes
import Photos
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `POST /v1/changes` over the fixture library: each operation does what its change request does
/// in process, each error has its status and PhotoKit code, and a batch that fails anywhere leaves
/// the library, and the user's files, as they were.
@Suite struct ChangeBatchRouteTests {
    typealias Operation = API.ChangeOperation

    static func post(_ socket: String, _ body: [UInt8]) async throws -> UnixHTTPClient.Reply {
        try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"], body: body)
        }
    }

    static func post(_ socket: String, _ json: String) async throws -> UnixHTTPClient.Reply {
        try await post(socket, Array(json.utf8))
    }

    static func post(_ socket: String, _ changes: [Operation]) async throws -> UnixHTTPClient.Reply {
        try await post(socket, Array(try WireJSON.makeEncoder().encode(API.ChangeBatch(changes: changes))))
    }

    /// The answer of a batch that committed.
    static func result(_ reply: UnixHTTPClient.Reply) throws -> API.ChangeBatchResult {
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.headers["content-type"] == "application/json")
        return try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(reply.body))
    }

    /// The error of a batch that did not, checked for its status, code and domain.
    @discardableResult
    static func error(_ reply: UnixHTTPClient.Reply, _ status: Int, photos code: Int? = nil) throws -> String {
        #expect(reply.status == status, "\(reply.text)")
        let body = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
        #expect(body.error.code == code ?? status, "\(reply.text)")
        #expect(body.error.domain == (code == nil ? "HTTP" : PHPhotosErrorDomain))
        return body.error.message
    }

    static func album(_ fixture: LibraryFixture, _ identifier: String) throws -> PHAssetCollection {
        try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: fixture.options())
                .firstObject)
    }

    // MARK: Operations

    @Test func anAlbumInANewFolderWithPlaceholdersAnswersTheirIdentifiersAndTheCommitsToken() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let beach = try #require(fixture.assets["beach.jpg"])
            let pano = try #require(fixture.assets["pano.jpg"])
            let before = try fixture.library.database.currentToken()
            let reply = try await Self.post(
                socket,
                [
                    .createFolder(.init(title: "2024", ref: "year")),
                    .createAlbum(.init(title: "Best", ref: "best", folder: "$year")),
                    .addToAlbum(.init(album: "$best", assets: [pano, beach])),
                    .createAlbum(.init(title: "Unnamed")),
                ])
            let result = try Self.result(reply)
            #expect(Set(result.created.keys) == ["year", "best", "3"])
            #expect(result.token == before + 1, "one batch, one commit")
            #expect(result.token == (try fixture.library.database.currentToken()))
            let album = try Self.album(fixture, try #require(result.created["best"]))
            #expect(album.localizedTitle == "Best")
            #expect(fixture.names(PHAsset.fetchAssets(in: album, options: nil)) == ["pano.jpg", "beach.jpg"])
            let folder = PHCollectionList.fetchCollectionLists(
                withLocalIdentifiers: [try #require(result.created["year"])], options: fixture.options()
            ).firstObject
            #expect(folder?.localizedTitle == "2024")
            let children = PHCollection.fetchCollections(in: try #require(folder), options: nil)
            #expect(children.map(\.localIdentifier) == [result.created["best"]])
            // The change log's entry for that token holds exactly what the batch made.
            let entry = try #require(try fixture.library.database.changes(after: before).first)
            #expect(entry.token == result.token)
            #expect(Set(entry.assetCollection.inserted) == [result.created["best"]!, result.created["3"]!])
            #expect(entry.collectionList.inserted == [result.created["year"]!])
        }
    }

    @Test func assetEditsAreThoseOfPHAssetChangeRequest() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let beach = try #require(fixture.assets["beach.jpg"])
            let secret = try #require(fixture.assets["secret.jpg"])
            let date = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z
            _ = try Self.result(
                try await Self.post(
                    socket,
                    #"""
                    {"changes": [
                      {"op": "editAsset", "asset": "\#(beach)", "isFavorite": false, "creationDate": "2024-05-01T12:00:00+02:00",
                       "location": {"latitude": 59.33, "longitude": 18.07, "altitude": 12}},
                      {"op": "editAsset", "asset": "\#(secret)", "isHidden": false, "location": null, "rating": 4}
                    ]}
                    """#))
            let edited = fixture.asset(identifier: beach)
            #expect(!edited.isFavorite)
            #expect(edited.rating == .unset && fixture.asset(identifier: secret).rating == .four)
            #expect(edited.creationDate == date)
            #expect(edited.creationDateUTCOffset == 7200, "the offset given: the photo's local day")
            #expect(edited.location?.coordinate == CLLocationCoordinate2D(latitude: 59.33, longitude: 18.07))
            #expect(edited.location?.altitude == 12)
            let shown = fixture.asset(identifier: secret)
            #expect(!shown.isHidden)
            #expect(shown.location == nil)
            // Clearing a date: null, as PHAssetChangeRequest's creationDate = nil.
            _ = try Self.result(
                try await Self.post(socket, [.editAsset(.init(asset: beach, creationDate: .some(nil)))]))
            #expect(fixture.asset(identifier: beach).creationDate == nil)
        }
    }

    @Test func albumsAreRenamedEditedReorderedAndDeleted() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let trip = try #require(fixture.collections["Trip"])
            let winter = try #require(fixture.collections["Winter"])
            let (beach, pano, movie, screen) = (
                fixture.assets["beach.jpg"]!, fixture.assets["pano.jpg"]!, fixture.assets["movie.mov"]!,
                fixture.assets["screen.png"]!
            )
            _ = try Self.result(
                try await Self.post(
                    socket,
                    [
                        .renameAlbum(.init(album: trip, title: "Voyage")),
                        // beach is in it already: kept where it is
                        .addToAlbum(.init(album: trip, assets: [screen, beach])),
                        .removeFromAlbum(.init(album: trip, assets: [pano])),
                        // beach, movie, screen → movie, screen, beach
                        .moveInAlbum(.init(album: trip, from: [0], to: 2)),
                        .deleteAlbums(.init(albums: [winter])),
                    ]))
            let album = try Self.album(fixture, trip)
            #expect(album.localizedTitle == "Voyage")
            #expect(PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier) == [movie, screen, beach])
            #expect(
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [winter], options: fixture.options())
                    .count == 0)
            // The album's assets stay in the library.
            #expect(
                PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets["sunset.heic"]!], options: fixture.options())
                    .count == 1)
        }
    }

    @Test func foldersAreRenamedFilledEmptiedAndDeleted() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let folder = try #require(fixture.collections["2020"])
            let trip = try #require(fixture.collections["Trip"])
            let winter = try #require(fixture.collections["Winter"])
            let result = try Self.result(
                try await Self.post(
                    socket,
                    [
                        .renameFolder(.init(folder: folder, title: "Twenty")),
                        .createFolder(.init(title: "Inner", ref: "inner", folder: folder)),
                        .addToFolder(.init(folder: folder, collections: [trip])),
                        .removeFromFolder(.init(folder: folder, collections: [winter])),
                    ]))
            let list = try #require(
                PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: fixture.options())
                    .firstObject)
            #expect(list.localizedTitle == "Twenty")
            let children = PHCollection.fetchCollections(in: list, options: nil).map(\.localIdentifier)
            #expect(Set(children) == [try #require(result.created["inner"]), trip])
            // Taken out of the folder: at the top level, still there.
            let top = PHCollection.fetchTopLevelUserCollections(with: fixture.options()).map(\.localIdentifier)
            #expect(top.contains(winter))

            _ = try Self.result(try await Self.post(socket, [.deleteFolders(.init(folders: [folder]))]))
            #expect(
                PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: fixture.options()).count
                    == 0)
            #expect(
                PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: fixture.options()).count
                    == 0,
                "a folder goes with what is in it")
            #expect(
                PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets["beach.jpg"]!], options: fixture.options())
                    .count == 1)
        }
    }

    @Test func deletedAssetsLeaveTheLibrary() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let movie = try #require(fixture.assets["movie.mov"])
            let secret = try #require(fixture.assets["secret.jpg"])
            _ = try Self.result(try await Self.post(socket, [.deleteAssets(.init(assets: [movie, secret]))]))
            let options = fixture.options { $0.includeHiddenAssets = true }
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: [movie, secret], options: options).count == 0)
        }
    }

    // MARK: Files

    /// A copy of a corpus file in a directory of the test's: the corpus itself is never moved.
    static func userFile(_ corpusPath: String, in directory: TemporaryDirectory, as name: String) throws -> URL {
        let source = try #require(Corpus.file(corpusPath))
        let copy = directory.path("user/\(name)")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
        return copy
    }

    /// Every regular file under the library's import folder.
    static func importedFiles(_ library: PHPhotoLibrary) -> [String] {
        let root = library.importDirectory.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var info = stat()
            return lstat(root + "/" + path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func filesAreCopiedUnlessMovedAndTheirTypeIsTheirContents() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let photo = try Self.userFile(
                "Camera/2008/Death Valley/FurnaceCreekInn.jpg", in: fixture.directory, as: "inn.jpg")
            let video = try Self.userFile("Videos/misc/small_video.mp4", in: fixture.directory, as: "clip.mp4")
            let moved = try Self.userFile(
                "Camera/2008/Death Valley/FurnaceCreekInn.jpg", in: fixture.directory, as: "take.jpg")
            let bytes = try Data(contentsOf: photo)
            let result = try Self.result(
                try await Self.post(
                    socket,
                    [
                        .createAsset(.init(path: photo.path, ref: "copy")),
                        .createAsset(.init(path: video.path, ref: "clip")),
                        .createAsset(.init(path: moved.path, move: true, ref: "taken")),
                        .editAsset(.init(asset: "$taken", isFavorite: true)),
                    ]))
            // Copied: the user's file stays, byte for byte; moved: it is gone, its bytes in the library.
            #expect(try Data(contentsOf: photo) == bytes)
            #expect(try Data(contentsOf: video).count > 0)
            #expect(!FileManager.default.fileExists(atPath: moved.path))
            let options = fixture.options()
            let assets = PHAsset.fetchAssets(
                withLocalIdentifiers: ["copy", "clip", "taken"].compactMap { result.created[$0] }, options: options)
            #expect(assets.count == 3)
            let byIdentifier = Dictionary(uniqueKeysWithValues: assets.map { ($0.localIdentifier, $0) })
            #expect(byIdentifier[result.created["copy"]!]?.mediaType == .image)
            #expect(byIdentifier[result.created["clip"]!]?.mediaType == .video, "sniffed: no type was given")
            #expect(byIdentifier[result.created["taken"]!]?.isFavorite == true, "a placeholder can be edited")
            let imported = Self.importedFiles(fixture.library)
            #expect(imported.count == 3, "\(imported)")
            for path in imported where path.hasSuffix(".jpg") {
                #expect(try Data(contentsOf: fixture.library.importDirectory.appendingPathComponent(path)) == bytes)
            }
            // The asset says the library placed its files, which a deletion erases; a watched
            // folder's photo is the user's, which goes to the Trash.
            let beach = try #require(fixture.assets["beach.jpg"])
            for (identifier, placed) in [
                (result.created["copy"]!, true), (result.created["taken"]!, true), (beach, false),
            ] {
                let reply = try await APIServerTests.get(socket, "/v1/assets/\(identifier)")
                #expect(
                    try JSONDecoder().decode(AssetDescription.self, from: Data(reply.body)).isLibraryOwned == placed)
            }
            // And a predicate chooses them by it.
            let owned = PHAsset.fetchAssets(
                with: fixture.options { $0.predicate = NSPredicate(format: "isLibraryOwned == YES") })
            #expect(
                Set(owned.map(\.localIdentifier)) == Set(["copy", "clip", "taken"].compactMap { result.created[$0] }))
        }
    }

    // MARK: Errors

    @Test(arguments: [
        (#"{"changes": ["#, "not valid JSON"),
        (#"{"changes": [{"op": "paint"}]}"#, "unknown op 'paint'"),
        (#"{"changes": [{"op": "createAlbum", "title": "T", "colour": "red"}]}"#, "unknown field colour"),
        (#"{"changes": [{"op": "createAlbum"}]}"#, "changes[0].title: missing"),
        (#"{"changes": [], "dryRun": true}"#, "unknown field dryRun"),
        (#"{"changes": [{"op": "addToAlbum", "album": "$nope", "assets": ["A"]}]}"#, "no earlier operation"),
        (#"{"changes": [{"op": "createAsset", "path": "relative.jpg"}]}"#, "path must be absolute"),
    ])
    func malformedBatchesAre400(json: String, mention: String) async throws {
        try await APIServerTests.withServer { socket, fixture in
            let before = try fixture.library.database.currentToken()
            let message = try Self.error(try await Self.post(socket, json), 400)
            #expect(message.contains(mention), "\(message)")
            #expect(try fixture.library.database.currentToken() == before)
        }
    }

    @Test func unknownIdentifiersAre404With3201NamingTheOperation() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let trip = try #require(fixture.collections["Trip"])
            let folder = try #require(fixture.collections["2020"])
            let cases: [([Operation], String)] = [
                (
                    [.addToAlbum(.init(album: trip, assets: [fixture.assets["beach.jpg"]!, "nope/L0/001"]))],
                    "changes[0] (addToAlbum): no asset nope/L0/001"
                ),
                ([.editAsset(.init(asset: "gone/L0/001", isFavorite: true))], "no asset gone/L0/001"),
                ([.renameAlbum(.init(album: "nope", title: "x"))], "no album nope"),
                // A folder is not an album, nor an album a folder.
                ([.renameAlbum(.init(album: folder, title: "x"))], "no album"),
                ([.addToFolder(.init(folder: trip, collections: [folder]))], "no folder"),
                ([.deleteFolders(.init(folders: ["nope"]))], "no folder nope"),
                (
                    [.createAlbum(.init(title: "T")), .deleteAssets(.init(assets: ["a", "b"]))],
                    "changes[1] (deleteAssets): no assets a, b"
                ),
            ]
            for (changes, mention) in cases {
                let message = try Self.error(try await Self.post(socket, changes), 404, photos: 3201)
                #expect(message.contains(mention), "\(message)")
            }
        }
    }

    @Test func changesTheLibraryRefusesAre409With3300() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let smart = try #require(
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: fixture.options())
                    .firstObject)
            let folder = try #require(fixture.collections["2020"])
            // Refused as the request is made (PhotoKit's init? is nil) ...
            let message = try Self.error(
                try await Self.post(socket, [.renameAlbum(.init(album: smart.localIdentifier, title: "Mine"))]), 409,
                photos: 3300)
            #expect(message.contains("cannot be edited"))
            // ... and as the block commits.
            let inside = try Self.error(
                try await Self.post(socket, [.addToFolder(.init(folder: folder, collections: [folder]))]), 409,
                photos: 3300)
            #expect(inside.contains("inside itself"))
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func pathsThatAreNoRegularFileAreOne403AndFilesThatAreNotMediaAre422() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let document = try Self.userFile("Bad/document.pdf", in: fixture.directory, as: "document.pdf")
            let notMedia = try Self.error(
                try await Self.post(socket, [.createAsset(.init(path: document.path, move: true))]), 422, photos: 3302)
            // Said without the import folder's paths, naming the operation and what is wrong.
            #expect(
                notMedia
                    == "changes[0] (createAsset): the file is not a photo, video or audio file the library can read")
            // Not there, a directory, a FIFO (never opened: it would wait for a writer): one answer,
            // which tells none of them apart.
            let fifo = fixture.directory.path("user/pipe.jpg").path
            #expect(mkfifo(fifo, 0o600) == 0)
            var messages: Set<String> = []
            for path in [fixture.directory.path("user/none.jpg").path, fixture.directory.path("user").path, fifo] {
                messages.insert(
                    try Self.error(try await Self.post(socket, [.createAsset(.init(path: path))]), 403, photos: 3310))
            }
            #expect(messages.count == 1, "\(messages)")
            #expect(FileManager.default.fileExists(atPath: document.path), "a refused move leaves the file")
            #expect(Self.importedFiles(fixture.library) == [])
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aBatchWhoseLastOperationFailsLeavesTheLibraryAndTheFilesAsTheyWere() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let library = fixture.library
            let (beach, movie) = (fixture.assets["beach.jpg"]!, fixture.assets["movie.mov"]!)
            let (trip, folder) = (fixture.collections["Trip"]!, fixture.collections["2020"]!)
            let source = try Self.userFile(
                "Camera/2008/Death Valley/FurnaceCreekInn.jpg", in: fixture.directory, as: "mine.jpg")
            let bytes = try Data(contentsOf: source)
            func state() throws -> [String] {
                let albums = PHAssetCollection.fetchAssetCollections(
                    with: .album, subtype: .any, options: fixture.options())
                return [
                    "token \(try library.database.currentToken())",
                    "albums \(albums.map { "\($0.localizedTitle ?? "")=\(PHAsset.fetchAssets(in: $0, options: nil).count)" })",
                    "assets \(PHAsset.fetchAssets(with: fixture.options { $0.includeHiddenAssets = true }).count)",
                    "beach \(fixture.asset(identifier: beach).isFavorite)",
                ]
            }
            let before = try state()
            let work: [Operation] = [
                .createAsset(.init(path: source.path, move: true, ref: "mine")),
                .createAlbum(.init(title: "Never", ref: "never")),
                .addToAlbum(.init(album: "$never", assets: ["$mine", beach])),
                .editAsset(.init(asset: beach, isFavorite: false)),
                .renameAlbum(.init(album: trip, title: "Renamed")),
                .deleteAssets(.init(assets: [movie])),
            ]
            // Last operation refused while the batch is made (404), then while it commits (409).
            try Self.error(
                try await Self.post(socket, work + [.removeFromAlbum(.init(album: trip, assets: ["nope"]))]), 404,
                photos: 3201)
            #expect(try state() == before)
            try Self.error(
                try await Self.post(socket, work + [.addToFolder(.init(folder: folder, collections: [folder]))]), 409,
                photos: 3300)
            #expect(try state() == before)
            #expect(try Data(contentsOf: source) == bytes, "the file to move is where it was, byte for byte")
            #expect(Self.importedFiles(library) == [])
        }
    }

    @Test func aBodyOverOneMiBIs413() async throws {
        try await APIServerTests.withServer { socket, _ in
            var body = Array(#"{"changes": [], "pad": ""#.utf8)
            body += [UInt8](repeating: UInt8(ascii: "x"), count: ChangeBatchRoutes.maximumBodySize)
            body += Array(#""}"#.utf8)
            try Self.error(try await Self.post(socket, body), 413)
        }
    }

    @Test func aBatchThatChangesNothingAnswersTheCurrentToken() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let result = try Self.result(try await Self.post(socket, #"{"changes": []}"#))
            #expect(result.created == [:])
            #expect(result.token == (try fixture.library.database.currentToken()))
        }
    }

    @Test func aLockedLibraryIs503With3301AndAppliesNothing() async throws {
        let fixture = try LibraryFixture()
        var configuration = PHPhotoLibrary.Configuration()
        configuration.busyTimeout = 0.2
        let library = try PHPhotoLibrary(url: fixture.libraryURL, configuration: configuration)
        try await APIServerTests.withServer(library: library, socket: fixture.directory.path("api.sock").path) {
            socket in
            let lock = try HeldWriteLock(path: fixture.libraryURL.path)
            let reply = try await Self.post(socket, [.createAlbum(.init(title: "Blocked"))])
            lock.release()
            try Self.error(reply, 503, photos: 3301)
            let albums = PHAssetCollection.fetchAssetCollections(
                with: .album, subtype: .any, options: fixture.options())
            #expect(!albums.map(\.localizedTitle).contains("Blocked"))
        }
    }

    @Test(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
    func aFullDiskIs507With3305AndTheFileStays() async throws {
        let fixture = try LibraryFixture()
        let disk = try SmallFileSystem(megabytes: 2)
        var configuration = PHPhotoLibrary.Configuration()
        configuration.importDirectory = disk.url.appendingPathComponent("Imports")
        let library = try PHPhotoLibrary(url: fixture.libraryURL, configuration: configuration)
        try await APIServerTests.withServer(library: library, socket: fixture.directory.path("api.sock").path) {
            socket in
            let source = try Self.userFile(
                "Camera/2008/Death Valley/FurnaceCreekInn.jpg", in: fixture.directory, as: "big.jpg")
            let bytes = try Data(contentsOf: source)
            try disk.fill()
            try Self.error(
                try await Self.post(socket, [.createAsset(.init(path: source.path, move: true))]), 507, photos: 3305)
            #expect(try Data(contentsOf: source) == bytes)
        }
    }

    @Test(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
    func aMoveFromAReadOnlyPlaceIs403With3310AndTheFileStays() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let disk = try SmallFileSystem(megabytes: 4)
            let source = disk.url.appendingPathComponent("card.jpg")
            let bytes = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
            try bytes.write(to: source)
            try disk.makeReadOnly()
            let before = try fixture.library.database.currentToken()
            try Self.error(
                try await Self.post(socket, [.createAsset(.init(path: source.path, move: true))]), 403, photos: 3310)
            #expect(try fixture.library.database.currentToken() == before)
            #expect(try Data(contentsOf: source) == bytes)
            #expect(Self.importedFiles(fixture.library) == [])
            // Copied, the same file is welcome.
            _ = try Self.result(try await Self.post(socket, [.createAsset(.init(path: source.path))]))
        }
    }

    @Test func aDamagedLibraryIs503NotTheClientsError() async throws {
        let fixture = try LibraryFixture()
        let path = fixture.directory.path("damaged.sqlite").path
        try DamagedLibrary.copyWithDamagedAssets(of: fixture.library.database, to: path)
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        try await APIServerTests.withServer(library: library, socket: fixture.directory.path("api.sock").path) {
            socket in
            let beach = try #require(fixture.assets["beach.jpg"])
            // The asset table cannot be read: not a 404 (it may well exist), not a 422 (3302 is
            // about the library's pages here, not a file of the client's).
            let reply = try await Self.post(socket, [.editAsset(.init(asset: beach, isFavorite: false))])
            #expect(reply.status == 503, "\(reply.text)")
            #expect(try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body)).error.code == 3302)
        }
    }

    @Test(arguments: [
        ("PUT", "/v1/changes", "GET, HEAD, POST"), ("DELETE", "/v1/changes", "GET, HEAD, POST"),
        ("GET", "/v1/queries", "POST"), ("POST", "/v1/health", "GET, HEAD"),
        ("DELETE", "/v1/assets/A/L0/001", "GET, HEAD"),
        ("PATCH", "/v1/albums", "GET, HEAD"), ("TRACE", "/v1/status", "GET, HEAD"),
        ("QUERY", "/v1/assets", "GET, HEAD"),
        ("PUT", "/v1/folders/F/L0/020", "GET, HEAD"),
    ])
    func aKnownPathAskedWithAnotherMethodIs405WithAllow(method: String, target: String, allow: String) async throws {
        try await APIServerTests.withServer { socket, _ in
            let reply = try await offPool { try UnixHTTPClient.request(socket, method, target) }
            #expect(reply.headers["allow"] == allow)
            try Self.error(reply, 405)
        }
    }
}
