import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite struct ChangeRequestTests {
    let fixture: LibraryFixture
    var library: PHPhotoLibrary { fixture.library }

    init() throws {
        fixture = try LibraryFixture()
    }

    @Test func editingAssetPropertiesCommitsOneChangeLogEntry() throws {
        let before = try library.database.currentToken()
        let beach = fixture.asset("beach.jpg")
        let newDate = Date(timeIntervalSince1970: 1_000_000_000)
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: beach)
            request.isFavorite = false
            request.isHidden = true
            request.creationDate = newDate
            request.location = CLLocation(latitude: 1.5, longitude: -2.25)
        }
        let after = fixture.asset("beach.jpg")
        #expect(!after.isFavorite && after.isHidden)
        #expect(after.creationDate == newDate)
        #expect(after.location?.coordinate == CLLocationCoordinate2D(latitude: 1.5, longitude: -2.25))
        #expect(after.modificationDate! > beach.modificationDate!)
        let entries = try library.database.changes(after: before)
        #expect(entries.count == 1)
        #expect(entries[0].asset.updated == [beach.localIdentifier])
        #expect(
            entries[0].asset.changedProperties[beach.localIdentifier] == [
                "creationDate", "isFavorite", "isHidden", "location",
            ])
    }

    @Test func creatingAnAlbumWithAPlaceholderAndFetchingItAfterwards() throws {
        var placeholder: PHObjectPlaceholder?
        try library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            request.addAssets([fixture.asset("live.heic"), fixture.asset("screen.png")] as NSArray)
            placeholder = request.placeholderForCreatedAssetCollection
        }
        let identifier = try #require(placeholder?.localIdentifier)
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [identifier], options: fixture.options()
            ).firstObject)
        #expect(album.localizedTitle == "Trip", "titles may repeat")
        #expect(
            fixture.names(PHAsset.fetchAssets(in: album, options: fixture.options())) == ["live.heic", "screen.png"])
        #expect(
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: fixture.options())
                .count == 3)
    }

    @Test func placeholdersOfNewAssetsWorkInsideTheBlock() throws {
        let source = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        try #require(FileManager.default.fileExists(atPath: source.path), "needs ../shared/corpus")
        var assetID: String?
        var albumID: String?
        try library.performChangesAndWait {
            let creation = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: source)!
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Imported")
            album.addAssets([creation.placeholderForCreatedAsset!] as NSArray)
            creation.isFavorite = true
            assetID = creation.placeholderForCreatedAsset?.localIdentifier
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let asset = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [assetID!], options: fixture.options()).firstObject)
        #expect(asset.mediaType == .image && asset.isFavorite)
        #expect(asset.pixelWidth == 400 && asset.pixelHeight == 300)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        #expect(resource.type == .photo && resource.originalFilename == "FurnaceCreekInn.jpg")
        #expect(resource.uniformTypeIdentifier == "public.jpeg")
        #expect(resource.fileURL.path.hasPrefix(library.importDirectory.path), "the file is copied into the library")
        #expect(FileManager.default.contentsEqual(atPath: resource.fileURL.path, andPath: source.path))
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID!], options: fixture.options())
                .firstObject)
        #expect(PHAsset.fetchAssets(in: album, options: fixture.options()).firstObject == asset)
        let entry = try #require(try library.database.changes(after: 0).last)
        #expect(entry.asset.inserted == [assetID!] && entry.asset.updated.isEmpty)
        #expect(entry.assetCollection.inserted == [albumID!])
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func videosAndLivePhotosFromFiles() throws {
        let movie = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV"))
        let still = try #require(Corpus.file("Phone/DCIM/100APPLE/IMG_0815.HEIC"))
        var videoID = ""
        var liveID = ""
        try library.performChangesAndWait {
            videoID =
                PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: movie)!
                .placeholderForCreatedAsset!.localIdentifier
            let live = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = "Live.HEIC"
            live.addResource(with: .photo, fileURL: still, options: options)
            live.addResource(with: .pairedVideo, fileURL: movie, options: nil)
            liveID = live.placeholderForCreatedAsset!.localIdentifier
        }
        let video = fixture.asset(identifier: videoID)
        #expect(video.mediaType == .video && video.playbackStyle == .video)
        #expect(video.pixelWidth == 320 && video.pixelHeight == 568, "rotation applied")
        #expect(abs(video.duration - 4.002) < 0.05)
        #expect(video.creationDate == ISO8601DateFormatter().date(from: "2019-07-24T08:25:40Z"))
        let live = fixture.asset(identifier: liveID)
        #expect(live.mediaType == .image && live.mediaSubtypes.contains(.photoLive) && live.playbackStyle == .livePhoto)
        let resources = PHAssetResource.assetResources(for: live)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.map(\.originalFilename) == ["Live.HEIC", "IMG_0420.MOV"])
        #expect(resources.map(\.uniformTypeIdentifier) == ["public.heic", "com.apple.quicktime-movie"])
        #expect(FileManager.default.fileExists(atPath: movie.path), "copying leaves the caller's file alone")
        let liveAlbum = try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumLivePhotos, options: fixture.options()
            ).firstObject)
        #expect(PHAsset.fetchAssets(in: liveAlbum, options: fixture.options()).contains(live))
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: movie, options: nil)
            }
        }
    }

    @Test func aFailingRequestRollsBackTheWholeBlockAndItsCopies() throws {
        let source = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        try #require(FileManager.default.fileExists(atPath: source.path), "needs ../shared/corpus")
        let tokenBefore = try library.database.currentToken()
        let trip: PHAssetCollection = fixture.collection("Trip")
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: source)
                PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = false
                PHAssetCollectionChangeRequest(for: trip)!.removeAssets(at: IndexSet([7]))
            }
        }
        #expect(fixture.asset("beach.jpg").isFavorite, "the edit before the failure is rolled back")
        #expect(PHAsset.fetchAssets(with: fixture.options()).count == 10)
        #expect(try library.database.currentToken() == tokenBefore, "no change-log entry")
        let imported = (try? FileManager.default.contentsOfDirectory(atPath: library.importDirectory.path)) ?? []
        #expect(imported.isEmpty, "the copied file is removed: \(imported)")
    }

    @Test func missingFilesAndWrongKindsAreInvalidResources() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        do {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: missing)
            }
            Issue.record("expected an error")
        } catch let error as PHPhotosError {
            #expect(error.code == .missingResource)
            #expect(error.message.contains("/nonexistent/photo.jpg"))
        }
        let text = try #require(Corpus.file("Bad/notes.txt"))
        try #require(FileManager.default.fileExists(atPath: text.path), "needs ../shared/corpus")
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: text)
            }
        }
        #expect(PHAssetCreationRequest.supportsAssetResourceTypes([1, 9]))
        #expect(!PHAssetCreationRequest.supportsAssetResourceTypes([9]))
    }

    @Test func deletingAssetsRemovesThemAndTheirAlbumMemberships() throws {
        let beach = fixture.asset("beach.jpg")
        try library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(
                PHAsset.fetchAssets(withLocalIdentifiers: [beach.localIdentifier], options: fixture.options()))
        }
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [beach.localIdentifier], options: fixture.options()).isEmpty)
        let trip: PHAssetCollection = fixture.collection("Trip")
        #expect(fixture.names(PHAsset.fetchAssets(in: trip, options: fixture.options())) == ["pano.jpg", "movie.mov"])
        let entry = try #require(try library.database.changes(after: 0).last)
        #expect(entry.asset.deleted == [beach.localIdentifier])
        #expect(entry.assetCollection.updated == [trip.localIdentifier])
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([beach] as NSArray) }
        }
    }

    // MARK: Album index rules

    @Test(arguments: [
        ("insert", ["beach.jpg", "live.heic", "pano.jpg", "screen.png", "movie.mov"]),
        ("removeAt", ["pano.jpg"]),
        ("remove", ["beach.jpg", "movie.mov"]),
        ("replace", ["beach.jpg", "live.heic", "movie.mov"]),
        ("move", ["pano.jpg", "movie.mov", "beach.jpg"]),
        ("moveToFront", ["movie.mov", "beach.jpg", "pano.jpg"]),
        ("add", ["beach.jpg", "pano.jpg", "movie.mov", "screen.png"]),
    ])
    func albumEditsFollowMutableArrayRules(edit: String, expected: [String]) throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let live = fixture.asset("live.heic")
        let screen = fixture.asset("screen.png")
        let pano = fixture.asset("pano.jpg")
        try library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest(
                for: trip, assets: PHAsset.fetchAssets(in: trip, options: fixture.options()))!
            switch edit {
            case "insert": request.insertAssets([live, screen] as NSArray, at: IndexSet([1, 3]))
            case "removeAt": request.removeAssets(at: IndexSet([0, 2]))
            case "remove": request.removeAssets([pano] as NSArray)
            case "replace": request.replaceAssets(at: IndexSet([1]), withAssets: [live] as NSArray)
            case "move": request.moveAssets(at: IndexSet([0]), to: 2)
            case "moveToFront": request.moveAssets(at: IndexSet([2]), to: 0)
            default: request.addAssets([screen, pano] as NSArray)
            }
        }
        #expect(fixture.names(PHAsset.fetchAssets(in: trip, options: fixture.options())) == expected)
    }

    @Test(arguments: [
        "countMismatch", "insertBeyondEnd", "removeOutOfRange", "moveBeyondEnd", "insertDuplicate",
    ])
    func badIndexesFailTheBlockAndChangeNothing(edit: String) throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let live = fixture.asset("live.heic")
        let tokenBefore = try library.database.currentToken()
        do {
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: live).isFavorite = true
                let request = PHAssetCollectionChangeRequest(for: trip)!
                switch edit {
                case "countMismatch": request.insertAssets([live] as NSArray, at: IndexSet([0, 1]))
                case "insertBeyondEnd": request.insertAssets([live] as NSArray, at: IndexSet([4]))
                case "removeOutOfRange": request.removeAssets(at: IndexSet([3]))
                case "moveBeyondEnd": request.moveAssets(at: IndexSet([0]), to: 3)
                case "insertDuplicate": request.insertAssets([fixture.asset("beach.jpg")] as NSArray, at: IndexSet([0]))
                default: request.insertAssets([fixture.asset("beach.jpg")] as NSArray, at: IndexSet([0]))
                }
            }
            Issue.record("\(edit) should fail")
        } catch let error as PHPhotosError {
            #expect([.changeNotSupported, .identifierNotFound].contains(error.code), "\(error)")
        }
        #expect(
            fixture.names(PHAsset.fetchAssets(in: trip, options: fixture.options())) == [
                "beach.jpg", "pano.jpg", "movie.mov",
            ])
        #expect(!fixture.asset("live.heic").isFavorite)
        #expect(try library.database.currentToken() == tokenBefore)
    }

    /// An album of five whose first member is hidden and third a burst frame that does not represent
    /// its burst: the app sees beach, pano and movie.
    private func albumWithMembersTheAppDoesNotSee() throws -> PHAssetCollection {
        var identifier: String?
        try library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mixed")
            let names = ["secret.jpg", "beach.jpg", "burst2.jpg", "pano.jpg", "movie.mov"]
            request.addAssets(names.map { fixture.asset($0) } as NSArray)
            identifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier!], options: fixture.options())
                .firstObject)
    }

    @Test(
        arguments: [
            ("removeAt", ["secret.jpg", "burst2.jpg", "pano.jpg", "movie.mov"]),
            ("insert", ["secret.jpg", "beach.jpg", "burst2.jpg", "live.heic", "pano.jpg", "movie.mov"]),
            ("move", ["secret.jpg", "burst2.jpg", "pano.jpg", "movie.mov", "beach.jpg"]),
            ("replace", ["secret.jpg", "live.heic", "burst2.jpg", "pano.jpg", "movie.mov"]),
        ], [true, false])
    func albumIndexesCountOnlyTheAssetsTheAppSees(edit: (name: String, expected: [String]), givesFetchResult: Bool)
        throws
    {
        let album = try albumWithMembersTheAppDoesNotSee()
        let visible = PHAsset.fetchAssets(in: album, options: fixture.options())
        #expect(fixture.names(visible) == ["beach.jpg", "pano.jpg", "movie.mov"])
        let live = fixture.asset("live.heic")
        try library.performChangesAndWait {
            let request =
                givesFetchResult
                ? PHAssetCollectionChangeRequest(for: album, assets: visible)!
                : PHAssetCollectionChangeRequest(for: album)!
            switch edit.name {
            case "removeAt": request.removeAssets(at: IndexSet([0]))
            case "insert": request.insertAssets([live] as NSArray, at: IndexSet([1]))
            case "move": request.moveAssets(at: IndexSet([0]), to: 2)
            default: request.replaceAssets(at: IndexSet([0]), withAssets: [live] as NSArray)
            }
        }
        let everything = fixture.options {
            $0.includeHiddenAssets = true
            $0.includeAllBurstAssets = true
        }
        #expect(fixture.names(PHAsset.fetchAssets(in: album, options: everything)) == edit.expected)
    }

    @Test func albumIndexesCountHiddenAssetsWhenTheGivenFetchResultShowsThem() throws {
        let album = try albumWithMembersTheAppDoesNotSee()
        let withHidden = PHAsset.fetchAssets(in: album, options: fixture.options { $0.includeHiddenAssets = true })
        #expect(fixture.names(withHidden) == ["secret.jpg", "beach.jpg", "pano.jpg", "movie.mov"])
        try library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album, assets: withHidden)!.removeAssets(at: IndexSet([0, 3]))
        }
        let everything = fixture.options {
            $0.includeHiddenAssets = true
            $0.includeAllBurstAssets = true
        }
        #expect(
            fixture.names(PHAsset.fetchAssets(in: album, options: everything)) == [
                "beach.jpg", "burst2.jpg", "pano.jpg",
            ])
    }

    @Test func anIndexBeyondWhatTheAppSeesFailsTheBlock() throws {
        let album = try albumWithMembersTheAppDoesNotSee()
        let visible = PHAsset.fetchAssets(in: album, options: fixture.options())
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: album, assets: visible)!.removeAssets(at: IndexSet([3]))
            }
        }
        let everything = fixture.options {
            $0.includeHiddenAssets = true
            $0.includeAllBurstAssets = true
        }
        #expect(PHAsset.fetchAssets(in: album, options: everything).count == 5)
    }

    @Test func addingADeletedAssetFailsWithIdentifierNotFound() throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let live = fixture.asset("live.heic")
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([live] as NSArray) }
        do {
            try library.performChangesAndWait {
                PHAssetCollectionChangeRequest(for: trip)!.addAssets([live] as NSArray)
            }
            Issue.record("adding a deleted asset should fail")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound)
            #expect(error.localIdentifiers == [live.localIdentifier])
        }
    }

    @Test func editingADeletedAssetFailsAndCommitsNothing() throws {
        let live = fixture.asset("live.heic")
        let beach = fixture.asset("beach.jpg")
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([live] as NSArray) }
        let tokenBefore = try library.database.currentToken()
        do {
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: beach).isHidden = true
                PHAssetChangeRequest(for: live).isFavorite = true
            }
            Issue.record("editing a deleted asset should fail")
        } catch let error as PHPhotosError {
            #expect(error.code == .identifierNotFound)
            #expect(error.localIdentifiers == [live.localIdentifier])
        }
        #expect(!fixture.asset("beach.jpg").isHidden, "the block's other edit rolled back")
        #expect(try library.database.currentToken() == tokenBefore)
    }

    @Test func renamingAndDeletingUserAlbums() throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        try library.performChangesAndWait { PHAssetCollectionChangeRequest(for: trip)!.title = "Holiday" }
        #expect((fixture.collection("Trip") as PHAssetCollection).localizedTitle == "Holiday")
        try library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections([trip] as NSArray) }
        #expect(
            PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [trip.localIdentifier], options: fixture.options()
            ).isEmpty)
        #expect(PHAsset.fetchAssets(with: fixture.options()).count == 10, "deleting an album keeps its assets")
    }

    @Test func smartAlbumsAreNotEditable() throws {
        let favorites = try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumFavorites, options: fixture.options()
            ).firstObject)
        try library.performChangesAndWait {
            #expect(PHAssetCollectionChangeRequest(for: favorites) == nil)
        }
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([favorites] as NSArray)
            }
        }
        #expect(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumFavorites, options: fixture.options()
            ).count == 1)
    }

    // MARK: Folders

    @Test func foldersTakeChildrenFromTheirOldParent() throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let winter: PHAssetCollection = fixture.collection("Winter")
        let year: PHCollectionList = fixture.collection("2020")
        var newFolder: String?
        try library.performChangesAndWait {
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Travel")
            folder.addChildCollections([trip, winter] as NSArray)
            newFolder = folder.placeholderForCreatedCollectionList.localIdentifier
        }
        let travel = try #require(
            PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [newFolder!], options: fixture.options())
                .firstObject)
        #expect(
            PHCollection.fetchCollections(in: travel, options: fixture.options()).map(\.localizedTitle) == [
                "Trip", "Winter",
            ])
        #expect(PHCollection.fetchCollections(in: year, options: fixture.options()).isEmpty)
        #expect(
            PHCollection.fetchTopLevelUserCollections(with: fixture.options()).map(\.localizedTitle) == [
                "2020", "Travel",
            ])
        try library.performChangesAndWait {
            PHCollectionListChangeRequest(for: travel)!.moveChildCollections(at: IndexSet([1]), to: 0)
        }
        #expect(
            PHCollection.fetchCollections(in: travel, options: fixture.options()).map(\.localizedTitle) == [
                "Winter", "Trip",
            ])
    }

    @Test func aFolderCannotGoInsideItself() throws {
        let year: PHCollectionList = fixture.collection("2020")
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                let inner = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Inner")
                inner.addChildCollections([year] as NSArray)
                PHCollectionListChangeRequest(for: year)!.addChildCollections(
                    [inner.placeholderForCreatedCollectionList!] as NSArray)
            }
        }
        #expect(
            PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: fixture.options()).count == 1)
    }

    @Test func deletingAFolderDeletesWhatIsInIt() throws {
        let year: PHCollectionList = fixture.collection("2020")
        let winter: PHAssetCollection = fixture.collection("Winter")
        try library.performChangesAndWait {
            PHCollectionListChangeRequest.deleteCollectionLists([year] as NSArray)
            PHAssetCollectionChangeRequest.deleteAssetCollections([winter] as NSArray)
        }
        #expect(
            PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [winter.localIdentifier], options: fixture.options()
            ).isEmpty)
        let entry = try #require(try library.database.changes(after: 0).last)
        #expect(entry.collectionList.deleted == [year.localIdentifier])
        #expect(entry.assetCollection.deleted == [winter.localIdentifier])
    }

    @Test func topLevelCollectionsCanBeRearranged() throws {
        try library.performChangesAndWait {
            PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: nil)!
                .moveChildCollections(at: IndexSet([1]), to: 0)
        }
        #expect(
            PHCollection.fetchTopLevelUserCollections(with: fixture.options()).map(\.localizedTitle) == [
                "2020", "Trip",
            ])
    }

    // MARK: Blocks

    @Test func performChangesCallsTheCompletionHandlerInOrder() async throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let outcomes = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<[Bool], any Error>) in
            let collected = OutcomeLog()
            library.performChanges({ PHAssetCollectionChangeRequest(for: trip)!.title = "One" }) { ok, _ in
                collected.append(ok)
            }
            library.performChanges({ PHAssetCollectionChangeRequest(for: trip)!.removeAssets(at: IndexSet([9])) }) {
                ok, error in
                collected.append(ok && error == nil)
            }
            library.performChanges({ PHAssetCollectionChangeRequest(for: trip)!.title = "Three" }) { ok, _ in
                collected.append(ok)
                continuation.resume(returning: collected.values)
            }
        }
        #expect(outcomes == [true, false, true])
        #expect((fixture.collection("Trip") as PHAssetCollection).localizedTitle == "Three")
        try await library.performChanges { PHAssetChangeRequest(for: fixture.asset("pano.jpg")).isHidden = true }
        #expect(fixture.asset("pano.jpg").isHidden)
    }

    @Test func aRequestOutsideAChangeBlockStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let library = try! PHPhotoLibrary(inMemoryWith: .init())
            _ = library
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "stray")
        }
    }

    @Test func anEmptyBlockWritesNothing() throws {
        let before = try library.database.currentToken()
        try library.performChangesAndWait {}
        #expect(try library.database.currentToken() == before)
    }
}

/// Thread-safe log of completion outcomes.
final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool] = []
    func append(_ value: Bool) { lock.withLock { stored.append(value) } }
    var values: [Bool] { lock.withLock { stored } }
}
