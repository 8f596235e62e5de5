import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

/// Records what it is told.
final class Recorder: PHPhotoLibraryChangeObserver, @unchecked Sendable {
    let changes = Mutex<[PHChange]>([])
    var onChange: (@Sendable (PHChange) -> Void)?

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        changes.withLock { $0.append(changeInstance) }
        onChange?(changeInstance)
    }

    func waitFor(_ count: Int) async throws {
        try await waitUntil("\(count) changes (got \(changes.withLock { $0.count }))") {
            changes.withLock { $0.count } >= count
        }
    }
}

@Suite struct ChangeObserverTests {
    @Test func anObserverGetsObjectAndFetchResultDetails() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let favorites = PHAsset.fetchAssets(
            with: fixture.options { $0.predicate = NSPredicate(format: "favorite == YES") })
        let videos = PHAsset.fetchAssets(with: .video, options: fixture.options())
        let trip: PHAssetCollection = fixture.collection("Trip")
        let live = fixture.asset("live.heic")
        let recorder = Recorder()
        library.register(recorder)
        try library.performChangesAndWait { PHAssetChangeRequest(for: live).isFavorite = true }
        try await recorder.waitFor(1)
        let change = try #require(recorder.changes.withLock { $0.first })

        let asset = try #require(change.changeDetails(for: live))
        #expect(asset.objectAfterChanges?.isFavorite == true && !asset.objectWasDeleted && !asset.assetContentChanged)
        let details = try #require(change.changeDetails(for: favorites))
        #expect(details.insertedObjects == [live] && details.removedIndexes!.isEmpty)
        #expect(details.fetchResultAfterChanges.count == favorites.count + 1)
        #expect(change.changeDetails(for: videos) == nil, "a result the change does not touch gets no details")
        #expect(change.changeDetails(for: trip) == nil, "an asset's change is not a change of its album")
        library.unregisterChangeObserver(recorder)
    }

    @Test func editsThatCannotMoveAssetsKeepTheSnapshotOrder() async throws {
        let fixture = try LibraryFixture()
        let all = PHAsset.fetchAssets(with: fixture.options())
        let recorder = Recorder()
        fixture.library.register(recorder)
        let live = fixture.asset("live.heic")
        let secret = fixture.asset("secret.jpg")
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: live).isFavorite = true
            PHAssetChangeRequest(for: live).location = CLLocation(latitude: 1, longitude: 2)
        }
        try await recorder.waitFor(1)
        let favorite = try #require(recorder.changes.withLock { $0[0] }.changeDetails(for: all))
        #expect(favorite.removedIndexes!.isEmpty && favorite.insertedIndexes!.isEmpty && !favorite.hasMoves)
        #expect(favorite.changedIndexes == IndexSet([all.index(of: live)]))
        #expect(favorite.changedObjects.first?.isFavorite == true, "the changed object as it is now")

        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: secret).isHidden = false }
        try await recorder.waitFor(2)
        let unhidden = try #require(
            recorder.changes.withLock { $0[1] }.changeDetails(for: favorite.fetchResultAfterChanges))
        #expect(
            unhidden.insertedObjects.map(\.localIdentifier) == [secret.localIdentifier],
            "hiding filters the default fetch")
        #expect(unhidden.changedIndexes!.isEmpty)
    }

    @Test func aResultKeptFromEarlierChangesGetsThemAllAtOnce() async throws {
        let fixture = try LibraryFixture()
        let all = PHAsset.fetchAssets(with: fixture.options())
        let recorder = Recorder()
        fixture.library.register(recorder)
        let live = fixture.asset("live.heic")
        let secret = fixture.asset("secret.jpg")
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: live).isFavorite = true }
        try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: secret).isHidden = false }
        try await recorder.waitFor(2)
        let changes = recorder.changes.withLock { $0 }
        // An observer slower than the commits: the first change's details bring the result up to
        // the library as it is, so nothing is missed or told twice.
        let both = try #require(changes[0].changeDetails(for: all))
        #expect(both.insertedObjects.map(\.localIdentifier) == [secret.localIdentifier])
        #expect(both.changedObjects.map(\.localIdentifier) == [live.localIdentifier])
        #expect(both.fetchResultAfterChanges.count == all.count + 1)
        #expect(changes[1].changeDetails(for: both.fetchResultAfterChanges) == nil, "already current")
    }

    @Test func albumChangesAreObjectChangesOfTheAlbum() async throws {
        let fixture = try LibraryFixture()
        let trip: PHAssetCollection = fixture.collection("Trip")
        let inTrip = PHAsset.fetchAssets(in: trip, options: fixture.options())
        let recorder = Recorder()
        fixture.library.register(recorder)
        try fixture.library.performChangesAndWait { PHAssetCollectionChangeRequest(for: trip)!.title = "Holiday" }
        try await recorder.waitFor(1)
        let change = try #require(recorder.changes.withLock { $0.first })
        #expect(change.changeDetails(for: trip)?.objectAfterChanges?.localizedTitle == "Holiday")
        #expect(change.changeDetails(for: fixture.asset("beach.jpg")) == nil)
        #expect(change.changeDetails(for: inTrip) == nil, "renaming an album does not change its assets")
    }

    @Test func reorderingTheTopLevelIsAChangeObserversAndPersistentChangesSee() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Third")
        }
        let topLevel = PHCollection.fetchTopLevelUserCollections(with: fixture.options())
        #expect(topLevel.map(\.localizedTitle) == ["Trip", "2020", "Third"])
        let token = library.currentChangeToken
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        try library.performChangesAndWait {
            PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: topLevel)!
                .moveChildCollections(at: IndexSet([0]), to: 2)
        }
        try await recorder.waitFor(1)
        let change = try #require(recorder.changes.withLock { $0.first })
        let details = try #require(change.changeDetails(for: topLevel))
        #expect(details.fetchResultAfterChanges.map(\.localizedTitle) == ["2020", "Third", "Trip"])
        var moves: [[Int]] = []
        details.enumerateMoves { moves.append([$0, $1]) }
        #expect(moves == [[0, 2]])
        #expect(details.removedIndexes!.isEmpty && details.insertedIndexes!.isEmpty)
        #expect(details.changedIndexes!.isEmpty, "a collection that moved did not change")
        #expect(library.currentChangeToken != token)
        let persistent = Array(try library.fetchPersistentChanges(since: token))
        #expect(persistent.count == 1)
        let albums = try #require(try persistent.first?.changeDetails(for: .assetCollection))
        #expect(albums.updatedLocalIdentifiers == [fixture.collections["Trip"]!])
        #expect(albums.changedProperties[fixture.collections["Trip"]!] == ["position"])
    }

    @Test func removingFromTheTopLevelLeavesItAsItIsAndRecordsNothing() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let token = library.currentChangeToken
        try library.performChangesAndWait {
            let topLevel = PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: nil)!
            topLevel.removeChildCollections(at: IndexSet([0]))
            topLevel.removeChildCollections([fixture.collection("2020") as PHCollectionList] as NSArray)
        }
        #expect(
            PHCollection.fetchTopLevelUserCollections(with: fixture.options()).map(\.localizedTitle) == [
                "Trip", "2020",
            ])
        #expect(library.currentChangeToken == token)
    }

    @Test func aChangeOfOneLibraryHasNoDetailsForAnothersResultsOrObjects() async throws {
        let first = try LibraryFixture()
        let second = try LibraryFixture()
        let fromFirst = PHAsset.fetchAssets(with: first.options())
        let fromSecond = PHAsset.fetchAssets(with: second.options())
        // Another PHPhotoLibrary on the second library's file is that library.
        let again = try PHPhotoLibrary(url: second.libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = again
        let fromAgain = PHAsset.fetchAssets(with: options)
        // One identifier in both (a library copied, then changed apart), inserted in each: the
        // first library's insertion is a change its own observers are told of.
        let shared = "SHARED/L0/001"
        for fixture in [first, second] {
            try fixture.library.database.write {
                try $0.insertAsset(AssetRecord(localIdentifier: shared, mediaType: .image))
            }
        }
        let sharedInFirst = first.asset(identifier: shared)
        let recorder = Recorder()
        second.library.register(recorder)
        defer { second.library.unregisterChangeObserver(recorder) }
        try second.library.performChangesAndWait {
            PHAssetChangeRequest(for: second.asset(identifier: shared)).isFavorite = true
        }
        try await recorder.waitFor(1)
        let change = try #require(recorder.changes.withLock { $0.last })
        #expect(change.changeDetails(for: fromSecond)?.insertedObjects.map(\.localIdentifier) == [shared])
        #expect(change.changeDetails(for: fromAgain)?.insertedObjects.map(\.localIdentifier) == [shared])
        #expect(change.changeDetails(for: fromFirst) == nil, "the first library's insertion is not this change")
        #expect(change.changeDetails(for: second.asset(identifier: shared))?.objectAfterChanges?.isFavorite == true)
        #expect(change.changeDetails(for: sharedInFirst) == nil, "the first library's asset did not change")
    }

    @Test func wantsIncrementalChangeDetailsFalseGivesOnlyTheNewResult() async throws {
        let fixture = try LibraryFixture()
        let all = PHAsset.fetchAssets(with: fixture.options { $0.wantsIncrementalChangeDetails = false })
        let recorder = Recorder()
        fixture.library.register(recorder)
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([fixture.asset("pano.jpg")] as NSArray)
        }
        try await recorder.waitFor(1)
        let details = try #require(recorder.changes.withLock { $0.first }?.changeDetails(for: all))
        #expect(!details.hasIncrementalChanges && details.removedIndexes == nil)
        #expect(details.fetchResultAfterChanges.count == all.count - 1)
    }

    @Test func rapidCommitsArriveOncePerCommitInOrder() async throws {
        let fixture = try LibraryFixture()
        let recorder = Recorder()
        fixture.library.register(recorder)
        let before = try fixture.library.database.currentToken()
        for round in 0..<25 {
            fixture.library.performChanges(
                {
                    PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isHidden = round % 2 == 0
                }, completionHandler: nil)
        }
        try await recorder.waitFor(25)
        let tokens = recorder.changes.withLock { $0.map(\.entry.token) }
        #expect(tokens == Array((before + 1)...(before + 25)))
    }

    @Test func commitsMadeThroughAnotherConnectionReachTheObserver() async throws {
        let fixture = try LibraryFixture()
        let recorder = Recorder()
        fixture.library.register(recorder)
        defer { fixture.library.unregisterChangeObserver(recorder) }
        // Another connection to the file, as another process would have: no `kick`, only the file's
        // change wakes the observer queue.
        let other = try LibraryDatabase(path: fixture.libraryURL.path)
        try other.write { try $0.insertAsset(AssetRecord(localIdentifier: "OTHER/L0/001", mediaType: .image)) }
        try other.write { try $0.insertAsset(AssetRecord(localIdentifier: "OTHER/L0/002", mediaType: .video)) }
        try await recorder.waitFor(2)
        let inserted = recorder.changes.withLock { $0.map(\.entry.asset.inserted) }
        #expect(inserted == [["OTHER/L0/001"], ["OTHER/L0/002"]], "once per commit, in order")
    }

    @Test func theLogIsFollowedOnlyWhileSomeoneObserves() async throws {
        let fixture = try LibraryFixture()
        let directory = fixture.libraryURL.deletingLastPathComponent()
        let before = try InotifyWatches.count(on: directory)
        let first = Recorder()
        let second = Recorder()
        fixture.library.register(first)
        fixture.library.register(second)
        // One follower for the library, however many observers: one watch on its directory.
        try await waitUntil("one more inotify watch on the library's directory") {
            try InotifyWatches.count(on: directory) == before + 1
        }
        #expect(try InotifyWatches.count(on: directory) == before + 1)
        fixture.library.unregisterChangeObserver(first)
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = true
        }
        try await second.waitFor(1)
        #expect(try InotifyWatches.count(on: directory) == before + 1, "still followed for the other one")
        #expect(first.changes.withLock { $0.count } == 0, "an unregistered observer is told nothing")
        fixture.library.unregisterChangeObserver(second)
        // The last one gone: the follower is cancelled and its watch closed.
        try await waitUntil("the library's directory watch to go") { try InotifyWatches.count(on: directory) == before }
        #expect(try InotifyWatches.count(on: directory) == before)
    }

    @Test func anInMemoryLibrarysObserversHearItsCommits() async throws {
        // No file, so no commit signal: the library's own commits must wake its follower.
        let library = try PHPhotoLibrary(inMemoryWith: .init())
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        var album = ""
        try library.performChangesAndWait {
            album =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        try await recorder.waitFor(1)
        #expect(recorder.changes.withLock { $0.map(\.entry.assetCollection.inserted) } == [[album]])
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func anotherProcessesCommitsReachTheObserver() async throws {
        let fixture = try LibraryFixture()
        let recorder = Recorder()
        fixture.library.register(recorder)
        // `photos scan` is another process writing the same library file.
        let scan = try fixture.scanInAnotherProcess(corpusFile: "Camera/1997/Ricoh/RIMG0001.JPG")
        #expect(scan.status == 0, "\(scan.stderr)")
        try await recorder.waitFor(1)
        let inserted = recorder.changes.withLock { $0.flatMap(\.entry.asset.inserted) }
        #expect(inserted.count == 1)
    }
}
