import Foundation
import PhotosCore
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// The change feed: the log after a token, then each new commit of any connection, in order.
@Suite struct ChangeFeedTests {
    private func insert(_ database: LibraryDatabase, _ name: String) throws -> Int64 {
        try database.write { try $0.insertAsset(AssetRecord(localIdentifier: name + "/L0/001", mediaType: .image)) }
            .token!
    }

    @Test func itGivesTheLogAfterATokenThenEachNewCommitOfAnotherConnection() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite").path
        let writer = try LibraryDatabase(path: path)
        let first = try insert(writer, "a")
        let second = try insert(writer, "b")

        // Another connection follows from the first token: it gets "b" from the log, then "c" and "d"
        // committed by the writer while it waits.
        let reader = try LibraryDatabase(path: path)
        let seen = Mutex<[LibraryChange]>([])
        let follower = Task {
            for try await entry in reader.changeFeed(after: first) {
                let count = seen.withLock {
                    $0.append(entry)
                    return $0.count
                }
                if count == 3 { return }
            }
        }
        try await waitUntil("the entry from the log", timeout: Self.bound) { seen.withLock { $0.count } == 1 }
        let third = try insert(writer, "c")
        let fourth = try insert(writer, "d")
        try await follower.value
        let entries = seen.withLock { $0 }
        #expect(entries.map(\.token) == [second, third, fourth])
        #expect(entries.map(\.asset.inserted) == [["b/L0/001"], ["c/L0/001"], ["d/L0/001"]])
    }

    /// A token past the newest (another library's, or this one's before it was made again) is
    /// refused as an expired one is: followed, it would skip every change up to it without a word.
    @Test func aTokenPastTheNewestExpiresInsteadOfWaitingForItsNumber() async throws {
        let database = try LibraryDatabase()
        let newest = try insert(database, "a")
        #expect(try database.changes(after: newest).isEmpty)
        let error = #expect(throws: StoreError.self) { try database.changes(after: newest + 1) }
        #expect(error?.code == .historyExpired && error?.message.contains("past this library's newest") == true)
        var iterator = database.changeFeed(after: newest + 1000).makeAsyncIterator()
        let followed = await #expect(throws: StoreError.self) { _ = try await iterator.next() }
        #expect(followed?.code == .historyExpired)
    }

    @Test func aTokenOlderThanTheHistoryExpiresInsteadOfSkippingAhead() async throws {
        let database = try LibraryDatabase(historyLimit: 2)
        for name in ["a", "b", "c", "d", "e"] { _ = try insert(database, name) }
        try database.pruneHistory(keeping: 2)
        var iterator = database.changeFeed(after: 1).makeAsyncIterator()
        let error = await #expect(throws: StoreError.self) { _ = try await iterator.next() }
        #expect(error?.code == .historyExpired)
    }

    @Test func cancellingTheTaskEndsAFeedThatIsWaiting() async throws {
        let directory = try TemporaryDirectory()
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let token = try insert(database, "a")
        let follower = Task { () -> Int in
            var count = 0
            for try await _ in database.changeFeed(after: token) { count += 1 }
            return count
        }
        // The feed follows the commit signal before it reads the (empty) log and waits.
        try await waitUntil("the feed to follow the commit signal", timeout: Self.bound) {
            database.commitSignalMechanism != nil
        }
        // Kept: no event marks the wait itself; a moment lets the feed get there from its read.
        try await Task.sleep(for: .milliseconds(50))
        follower.cancel()
        #expect(try await follower.value == 0, "nothing was committed after the token, and the feed ended")
    }

    @Test func stoppingEndsAFeedThatIsWaitingAfterWhatItGaveAndOneMadeLaterAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let first = try insert(database, "a")
        let second = try insert(database, "b")
        let stop = FeedStop()
        let seen = Mutex<[Int64]>([])
        // Not cancelled: the task goes on after its feed ends, as a server's response does.
        let follower = Task { () -> Bool in
            for try await entry in database.changeFeed(after: first, stoppedBy: stop) {
                seen.withLock { $0.append(entry.token) }
            }
            return Task.isCancelled
        }
        try await waitUntil("the entry from the log", timeout: Self.bound) { seen.withLock { $0 } == [second] }
        stop.stop()
        #expect(try await follower.value == false)
        #expect(seen.withLock { $0 } == [second])
        // A feed made with a stopped stop gives nothing, even with entries in the log.
        var late = database.changeFeed(after: 0, stoppedBy: stop).makeAsyncIterator()
        #expect(try await late.next() == nil)
    }

    @Test func pagesOfTheLogComeInOrderWithoutGapsOrRepeats() async throws {
        let database = try LibraryDatabase()
        var tokens: [Int64] = []
        for index in 0..<(ChangeFeed.pageSize * 2 + 7) { tokens.append(try insert(database, "n\(index)")) }
        var seen: [Int64] = []
        for try await entry in database.changeFeed(after: 0) {
            seen.append(entry.token)
            if seen.count == tokens.count { break }
        }
        #expect(seen == tokens)
    }

    /// How long these tests wait for a feed: long, because a full `swift test` on 2 cores kept the
    /// shared pool, where the follower runs, busy for over a minute (CI).
    static let bound: Duration = .seconds(300)
}

/// A feed wakes for commits of its own database at once: an in-memory library has no file for a
/// commit signal to watch, so nothing else could wake it.
@Suite struct LocalCommitTests {
    @Test func aFeedOfAnInMemoryLibraryGetsItsCommits() async throws {
        let database = try LibraryDatabase()
        let seen = Mutex<[String]>([])
        let follower = Task {
            for try await entry in database.changeFeed(after: 0) {
                if seen.withLock({
                    $0.append(contentsOf: entry.asset.inserted)
                    return $0.count
                }) == 2 {
                    return
                }
            }
        }
        try database.write { try $0.insertAsset(AssetRecord(localIdentifier: "a/L0/001", mediaType: .image)) }
        // The second commit comes once the feed has delivered the first, so the feed is waiting.
        // A liveness bound, not a timing: on CI's two cores other suites' blocking tests can hold
        // the shared pool for tens of seconds (a 10 s bound once failed after 55 s there).
        defer { follower.cancel() }
        try await waitUntil("the feed to wake", timeout: ChangeFeedTests.bound) { !seen.withLock { $0.isEmpty } }
        try database.write { try $0.insertAsset(AssetRecord(localIdentifier: "b/L0/001", mediaType: .image)) }
        try await waitUntil("the feed to wake again", timeout: ChangeFeedTests.bound) {
            seen.withLock { $0.count } == 2
        }
        try await follower.value
        #expect(seen.withLock { $0 } == ["a/L0/001", "b/L0/001"])
    }

    /// The entry a commit hands its feeds is the log's entry, and a feed that took it without
    /// reading still finds, without waiting, every entry committed after it.
    @Test func aHandedOverEntryIsTheLogsAndWhatFollowsItIsStillFound() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("library.sqlite").path
        let database = try LibraryDatabase(path: path)
        let start = try database.currentToken()
        let follower = Task {
            var iterator = database.changeFeed(after: start).makeAsyncIterator()
            let taken = try await iterator.next()
            #expect(taken == (try database.changes(after: start)).first)
            #expect(taken?.asset.inserted == ["a/L0/001"])

            // Committed after the handed-over entry, by this database and by another connection.
            let second = try database.write {
                try $0.insertAsset(AssetRecord(localIdentifier: "b/L0/001", mediaType: .image))
            }.token!
            #expect(try iterator.nextCommitted()?.token == second)
            #expect(try iterator.nextCommitted() == nil, "nothing else was committed")
            let other = try LibraryDatabase(path: path)
            let third = try other.write {
                try $0.insertAsset(AssetRecord(localIdentifier: "c/L0/001", mediaType: .image))
            }.token!
            // Another process's commit is known once its commit signal came (a few milliseconds).
            var found: LibraryChange?
            try await waitUntil("another connection's commit to be found") {
                found = try iterator.nextCommitted()
                return found != nil
            }
            #expect(found?.token == third)
            #expect(found?.asset.inserted == ["c/L0/001"])
        }
        // Once the feed waits (it read an empty log first), the commit wakes it with its entry. It
        // follows the commit signal before that read; no event marks the wait itself, so a moment
        // (kept) lets it get there.
        try await waitUntil("the feed to follow the commit signal", timeout: ChangeFeedTests.bound) {
            database.commitSignalMechanism != nil
        }
        try await Task.sleep(for: .milliseconds(50))
        try database.write { try $0.insertAsset(AssetRecord(localIdentifier: "a/L0/001", mediaType: .image)) }
        try await follower.value
    }
}
