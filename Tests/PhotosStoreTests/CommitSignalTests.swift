import Dispatch
import Foundation
import Glibc
import PhotosCore
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

/// Counts a signal's handler calls.
final class Wakeups: Sendable {
    private let count = Mutex(0)

    func record() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }

    /// Whether a call comes after the `previous`-th within `seconds`.
    func arrive(after previous: Int, seconds: Double = 1) async throws -> Bool {
        do {
            try await waitUntil("a call after the first \(previous)", timeout: .seconds(seconds)) { value > previous }
        } catch is WaitFailed {
            return false
        }
        return true
    }

    /// Waits until no call has come for `quiet` (the settle checks after the last event are done);
    /// records an issue if calls keep coming for `windows` such spans.
    ///
    /// It counts spans, not seconds: when the whole suite runs, other tests can hold the cooperative
    /// threads for seconds, and a span that overran is simply followed by another. (A quiet span is
    /// the absence of an event: only time can show it, so this sleeps.)
    func settle(quiet: Duration = .milliseconds(300), windows: Int = 15) async throws {
        var last = value
        for _ in 0..<windows {
            try await Task.sleep(for: quiet)
            if value == last { return }
            last = value
        }
        Issue.record("the signal never went quiet: \(value) calls")
    }
}

@Suite struct CommitSignalTests {
    /// The settle reads of 10 and 100 ms only: the tests that wait for quiet would otherwise wait
    /// through the later ones (1 and 5 s), which ``theLaterSettleReadsCome`` checks.
    static let quick: [DispatchTimeInterval] = [.milliseconds(10), .milliseconds(100)]

    let directory: TemporaryDirectory
    let path: String
    let queue = DispatchQueue(label: "commit-signal-tests")

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-signal")
        path = directory.path("library.sqlite").path
    }

    func insertAsset(_ database: LibraryDatabase) throws {
        let record = AssetRecord(localIdentifier: UUID().uuidString + "/L0/001", mediaType: .image)
        try database.write { try $0.insertAsset(record) }
    }

    /// How many inotify watches of this process are on `directory`.
    func inotifyWatches(on directory: URL) throws -> Int { try InotifyWatches.count(on: directory) }

    @Test func anotherConnectionsCommitFiresTheSignal() async throws {
        let database = try LibraryDatabase(path: path)
        let wakeups = Wakeups()
        let signal = CommitSignal(path: database.path, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        defer { signal.cancel() }
        #expect(signal.mechanism == .inotify, "\(signal.fallbackReason ?? "")")
        #expect(signal.fallbackReason == nil)
        let writer = try LibraryDatabase(path: path)
        try await wakeups.settle()
        let before = wakeups.value
        try insertAsset(writer)
        #expect(try await wakeups.arrive(after: before), "within a second")
        #expect(try database.currentToken() == 1)
    }

    /// With the default delays, reads come about 1 and 5 s after the burst's settle reads, for a
    /// commit published late; then nothing while nobody writes. Gaps between the handler's calls,
    /// as its queue saw them: a loaded machine delays a timer, never makes it early.
    @Test func theLaterSettleReadsCome() async throws {
        let database = try LibraryDatabase(path: path)
        let times = Mutex<[ContinuousClock.Instant]>([])
        let signal = CommitSignal(path: database.path, queue: queue) { times.withLock { $0.append(.now) } }
        defer { signal.cancel() }
        try insertAsset(try LibraryDatabase(path: path))
        // Kept: the timing of the settle reads against the clock is what is tested.
        try await Task.sleep(for: .seconds(7))
        let calls = times.withLock { $0 }
        let gaps = zip(calls, calls.dropFirst()).map { ($1 - $0) / .milliseconds(1) }
        #expect(gaps.contains { (800...2_500).contains($0) }, "the read a second later: \(gaps)")
        #expect(gaps.contains { (3_800...7_000).contains($0) }, "the read five seconds after that: \(gaps)")
        #expect(calls.last.map { ContinuousClock.now - $0 > .milliseconds(300) } ?? false, "then quiet")
    }

    @Test func nothingFiresWhileNobodyWrites() async throws {
        let database = try LibraryDatabase(path: path)
        let wakeups = Wakeups()
        let signal = CommitSignal(path: database.path, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        defer { signal.cancel() }
        try insertAsset(try LibraryDatabase(path: path))
        #expect(try await wakeups.arrive(after: 0))
        // The settle checks end 110 ms after the last event; a timer or a busy loop never settles.
        try await wakeups.settle()
        let settled = wakeups.value
        try await Task.sleep(for: .milliseconds(300))  // Kept: a quiet period, proving that nothing comes.
        #expect(wakeups.value == settled, "no busy loop: nothing was written")
    }

    @Test func readingTheLogDoesNotWakeTheSignal() async throws {
        let database = try LibraryDatabase(path: path)
        try insertAsset(database)
        let wakeups = Wakeups()
        let signal = CommitSignal(path: database.path, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        defer { signal.cancel() }
        _ = try database.currentToken()
        try await wakeups.settle()
        let before = wakeups.value
        for _ in 0..<20 {
            _ = try database.currentToken()
            _ = try database.changes(after: 0)
        }
        try await Task.sleep(for: .milliseconds(300))  // Kept: a quiet period, proving that nothing comes.
        #expect(wakeups.value == before, "readers touch only the -shm file, so observers do not wake themselves")
    }

    @Test func survivesTheWALFileBeingDeletedAndMadeAgain() async throws {
        let wal = path + "-wal"
        do { _ = try LibraryDatabase(path: path) }
        let wakeups = Wakeups()
        let signal = CommitSignal(path: path, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        defer { signal.cancel() }
        try #require(signal.mechanism == .inotify, "\(signal.fallbackReason ?? "")")
        do {
            let writer = try LibraryDatabase(path: path)
            try insertAsset(writer)
            #expect(try await wakeups.arrive(after: 0))
        }
        // Closing every connection checkpoints the WAL file into the library and deletes it.
        try await waitUntil("the WAL file to go") { !FileManager.default.fileExists(atPath: wal) }
        try #require(!FileManager.default.fileExists(atPath: wal), "the last connection removed the WAL file")

        let writer = try LibraryDatabase(path: path)
        try #require(FileManager.default.fileExists(atPath: wal), "opening made a new WAL file")
        try await wakeups.settle()
        let before = wakeups.value
        try insertAsset(writer)
        #expect(try await wakeups.arrive(after: before), "the new WAL file is watched too")
        #expect(try writer.currentToken() == 2)
    }

    @Test func cancellingStopsTheHandlerAndReleasesTheWatch() async throws {
        let writer = try LibraryDatabase(path: path)
        let wakeups = Wakeups()
        let signal = CommitSignal(path: path, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        #expect(try inotifyWatches(on: directory.url) == 1)
        signal.cancel()
        signal.cancel()
        try await waitUntil("the watch to go") { try inotifyWatches(on: directory.url) == 0 }
        #expect(try inotifyWatches(on: directory.url) == 0, "the inotify descriptor is closed")
        let before = wakeups.value
        try insertAsset(writer)
        try await Task.sleep(for: .milliseconds(300))  // Kept: a quiet period, proving that nothing comes.
        #expect(wakeups.value == before)
    }

    @Test func releasingTheSignalReleasesTheWatch() async throws {
        do {
            let signal = CommitSignal(path: path, queue: queue, settleDelays: Self.quick) {}
            #expect(signal.mechanism == .inotify)
            #expect(try inotifyWatches(on: directory.url) == 1)
        }
        try await waitUntil("the watch to go") { try inotifyWatches(on: directory.url) == 0 }
        #expect(try inotifyWatches(on: directory.url) == 0)
    }

    @Test func withoutAFileToWatchATimerStandsIn() async throws {
        let memory = try LibraryDatabase()
        let unwatchable = directory.path("missing/library.sqlite").path
        for signal in [
            CommitSignal(path: memory.path, queue: queue, settleDelays: Self.quick) {},
            CommitSignal(path: unwatchable, queue: queue, settleDelays: Self.quick) {},
        ] {
            #expect(signal.mechanism == .timer)
            #expect(signal.fallbackReason != nil)
            signal.cancel()
        }
        let wakeups = Wakeups()
        let signal = CommitSignal(path: nil, queue: queue, settleDelays: Self.quick) { wakeups.record() }
        // Kept: the timer's rate, counted over a span of the clock, is what is tested.
        try await Task.sleep(for: .milliseconds(200))
        signal.cancel()
        #expect(wakeups.value >= 3, "every 20 ms: \(wakeups.value) calls in 200 ms")
    }

    /// Every follower of one database shares its one signal: one watch on the directory however
    /// many follow, each woken by another connection's commit, and the watch gone with the last.
    @Test func followersOfOneDatabaseShareOneWatch() async throws {
        let database = try LibraryDatabase(path: path)
        let writer = try LibraryDatabase(path: path)
        #expect(database.commitSignalMechanism == nil, "nothing follows yet")
        let (first, second) = (Wakeups(), Wakeups())
        var followers = [database.followCommits { first.record() }, database.followCommits { second.record() }]
        #expect(database.commitSignalMechanism == .inotify)
        #expect(try inotifyWatches(on: directory.url) == 1, "one watch for both followers")
        try insertAsset(writer)
        #expect(try await first.arrive(after: 0))
        #expect(try await second.arrive(after: 0))
        followers[0].cancel()
        try await first.settle()
        try await second.settle()
        let (firstCount, secondCount) = (first.value, second.value)
        #expect(try inotifyWatches(on: directory.url) == 1, "still followed for the second")
        try insertAsset(writer)
        #expect(try await second.arrive(after: secondCount))
        #expect(first.value == firstCount, "a cancelled follower is not called")
        followers.removeAll()
        #expect(database.commitSignalMechanism == nil)
        try await waitUntil("the watch to go") { try inotifyWatches(on: directory.url) == 0 }
        #expect(try inotifyWatches(on: directory.url) == 0, "the last follower gone, the descriptor is closed")
    }

    /// Change feeds of one database follow through its shared signal: two feeds, one watch.
    @Test func changeFeedsOfOneDatabaseShareOneWatch() async throws {
        let database = try LibraryDatabase(path: path)
        let writer = try LibraryDatabase(path: path)
        let start = try database.currentToken()
        let feeds = (0..<3).map { _ in
            Task { () throws -> Int64? in
                var iterator = database.changeFeed(after: start).makeAsyncIterator()
                return try await iterator.next()?.token
            }
        }
        try await waitUntil("one watch for the feeds") { try inotifyWatches(on: directory.url) == 1 }
        #expect(try inotifyWatches(on: directory.url) == 1)
        try insertAsset(writer)
        for feed in feeds { #expect(try await feed.value == start + 1) }
        try await waitUntil("the watch to go") { try inotifyWatches(on: directory.url) == 0 }
        #expect(try inotifyWatches(on: directory.url) == 0)
    }
}
