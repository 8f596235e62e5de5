import Foundation
import Photos
import PhotosTestSupport
import Synchronization
import Testing

/// Reads the history from its token each time it is told the history grew, as an SDK 27 app does.
final class HistoryReader: PHPhotoLibraryPersistentChangesObserver, @unchecked Sendable {
    private struct State {
        let start: Int64
        var token: PHPersistentChangeToken
        var calls = 0
        var changes: [PHPersistentChange] = []
        var libraries: [ObjectIdentifier] = []
        var failures: [String] = []
    }

    private let state: Mutex<State>

    init(from token: PHPersistentChangeToken) {
        state = Mutex(State(start: token.token, token: token))
    }

    func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary) {
        state.withLock { state in
            state.calls += 1
            state.libraries.append(ObjectIdentifier(photoLibrary))
            do {
                let changes = Array(try photoLibrary.fetchPersistentChanges(since: state.token))
                state.changes += changes
                state.token = changes.last?.changeToken ?? state.token
                // Told once per commit, each already in the history (a call may find that an
                // earlier one read it, when commits came faster than the calls).
                let read = state.token.token - state.start
                if read < state.calls { state.failures.append("told of \(state.calls) changes, found \(read)") }
            } catch {
                state.failures.append("\(error)")
            }
        }
    }

    var calls: Int { state.withLock { $0.calls } }
    var libraries: [ObjectIdentifier] { state.withLock { $0.libraries } }
    var failures: [String] { state.withLock { $0.failures } }

    /// The identifiers the changes read so far inserted, of one type of object.
    func inserted(_ type: PHObjectType) throws -> [String] {
        try state.withLock { try $0.changes.flatMap { try $0.changeDetails(for: type).insertedLocalIdentifiers } }
    }

    func waitFor(calls count: Int) async throws {
        try await waitUntil("\(count) calls (got \(calls))") { calls >= count }
    }
}

/// Both kinds of observer in one object.
final class BothObserver: PHPhotoLibraryChangeObserver, PHPhotoLibraryPersistentChangesObserver, @unchecked Sendable {
    let changes = Mutex(0)
    let updates = Mutex(0)

    func photoLibraryDidChange(_ changeInstance: PHChange) { changes.withLock { $0 += 1 } }
    func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary) { updates.withLock { $0 += 1 } }
}

/// `PHPhotoLibraryPersistentChangesObserver` (SDK 27): told after every commit, by any process,
/// through the same follower of the change log as the change observers.
@Suite struct PersistentChangesObserverTests {
    @Test func anotherLibraryInstancesCommitIsInTheHistoryWhenTheObserverIsTold() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let reader = HistoryReader(from: library.currentChangeToken)
        library.register(reader)
        defer { library.unregisterPersistentChangesObserver(reader) }

        // Another library object on the same file: its commit reaches this one only through the file.
        let other = try PHPhotoLibrary(url: fixture.libraryURL)
        var album = ""
        try other.performChangesAndWait {
            album =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Elsewhere")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        try await reader.waitFor(calls: 1)
        #expect(try reader.inserted(.assetCollection) == [album])
        #expect(reader.libraries == [ObjectIdentifier(library)], "told with the library it registered with")
        #expect(reader.failures.isEmpty, "\(reader.failures)")
    }

    @Test func eachCommitIsToldOnceInOrder() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let reader = HistoryReader(from: library.currentChangeToken)
        library.register(reader)
        library.register(reader)  // Twice: still one registration.
        defer { library.unregisterPersistentChangesObserver(reader) }
        var albums: [String] = []
        for title in ["One", "Two", "Three"] {
            try library.performChangesAndWait {
                albums.append(
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                        .placeholderForCreatedAssetCollection.localIdentifier)
            }
        }
        try await reader.waitFor(calls: 3)
        // Quiet period: room for a call too many to show; nothing to wait on but time.
        try await Task.sleep(for: .milliseconds(200))
        #expect(reader.calls == 3)
        #expect(try reader.inserted(.assetCollection) == albums)
        #expect(reader.failures.isEmpty, "\(reader.failures)")
    }

    @Test func oneFollowerServesBothKindsAndStopsWithTheLast() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let directory = fixture.libraryURL.deletingLastPathComponent()
        let before = try InotifyWatches.count(on: directory)
        let recorder = Recorder()
        let reader = HistoryReader(from: library.currentChangeToken)
        library.register(recorder)
        library.register(reader)
        try await waitUntil("one more inotify watch on the library's directory") {
            try InotifyWatches.count(on: directory) == before + 1
        }
        #expect(try InotifyWatches.count(on: directory) == before + 1, "one watch for both kinds")

        library.unregisterChangeObserver(recorder)
        try library.performChangesAndWait { PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = false }
        try await reader.waitFor(calls: 1)
        #expect(try InotifyWatches.count(on: directory) == before + 1, "still followed for the reader")
        #expect(recorder.changes.withLock { $0.count } == 0)

        library.unregisterPersistentChangesObserver(reader)
        try await waitUntil("the library's directory watch to go") { try InotifyWatches.count(on: directory) == before }
        #expect(try InotifyWatches.count(on: directory) == before, "the last one gone, nothing follows")
        try library.performChangesAndWait { PHAssetChangeRequest(for: fixture.asset("beach.jpg")).isFavorite = true }
        // Quiet period: the check is that nothing arrives, so only time can show it.
        try await Task.sleep(for: .milliseconds(200))
        #expect(reader.calls == 1, "an unregistered observer is told nothing")
    }

    @Test func anObjectOfBothKindsIsRegisteredForEachOnItsOwn() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let both = BothObserver()
        var favorite = true  // As the fixture has it.
        func commit() throws {
            favorite.toggle()
            let value = favorite
            let beach = fixture.asset("beach.jpg")
            try library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite = value }
        }
        func counts() -> (Int, Int) { (both.changes.withLock { $0 }, both.updates.withLock { $0 }) }
        func waitFor(_ expected: (Int, Int)) async throws {
            try await waitUntil("calls \(expected) (got \(counts()))") { counts() == expected }
            try await Task.sleep(for: .milliseconds(100))  // Quiet period: room for a call too many to show.
            #expect(counts() == expected)
        }

        library.register(both as any PHPhotoLibraryPersistentChangesObserver)
        try commit()
        try await waitFor((0, 1))
        library.register(both as any PHPhotoLibraryChangeObserver)
        try commit()
        try await waitFor((1, 2))
        library.unregisterChangeObserver(both)
        try commit()
        try await waitFor((1, 3))
        library.unregisterPersistentChangesObserver(both)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func anotherProcessesScanIsToldAndRead() async throws {
        let fixture = try LibraryFixture()
        let reader = HistoryReader(from: fixture.library.currentChangeToken)
        fixture.library.register(reader)
        defer { fixture.library.unregisterPersistentChangesObserver(reader) }
        // `photos scan` is another process writing the same library file.
        let scan = try fixture.scanInAnotherProcess(corpusFile: "Camera/1997/Ricoh/RIMG0001.JPG")
        #expect(scan.status == 0, "\(scan.stderr)")
        try await reader.waitFor(calls: 1)
        let inserted = try reader.inserted(.asset)
        #expect(inserted.count == 1)
        let options = fixture.options()
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: inserted, options: options).firstObject?.mediaType == .image)
        #expect(reader.failures.isEmpty, "\(reader.failures)")
    }

}
