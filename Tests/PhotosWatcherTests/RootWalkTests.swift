import Dispatch
import Foundation
import PhotosCore
import Synchronization
import Testing

@testable import PhotosWatcher

/// `startRoot` watches a root at once and its directories on a thread of their own: a directory
/// is reported watched only once it is (a file written there is then an event), a wait for one the
/// walk has not reached lasts until it does, and the walk ends with the tree watched as `addRoot`
/// watches it.
@Suite(.timeLimit(.minutes(5)))
struct RootWalkTests {
    /// root/a/b/c, root/d, root/.hidden/x.
    static func tree() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory()
        for directory in ["a/b/c", "d", ".hidden/x"] {
            try FileManager.default.createDirectory(
                atPath: root.path + "/" + directory, withIntermediateDirectories: true)
        }
        return root
    }

    @Test func aWaitForADirectoryLastsUntilTheWalkHasWatchedIt() async throws {
        let root = try Self.tree()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        let recorder = EventRecorder(monitor.events)
        // The walk stops before listing a (whose subdirectory b is then not watched) until released.
        let release = DispatchSemaphore(value: 0)
        monitor.beforeListing.withLock {
            $0 = { directory in if directory.hasSuffix("/a") { release.wait() } }
        }
        let walk = try monitor.startRoot(root.path)

        // a was watched with the root's listing: written there, a file is an event.
        walk.waitUntilWatched(root.path + "/a")
        let early = root.path + "/a/early.jpg"
        FileManager.default.createFile(atPath: early, contents: Data([1]))
        #expect(await recorder.waitFor(FileEvent(path: early, kind: .closedWrite)))

        let reached = Mutex(false)
        let waiter = Task.detached {
            walk.waitUntilWatched(root.path + "/a/b")
            reached.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(!reached.withLock { $0 }, "b is not watched while the walk waits before listing a")
        #expect(!walk.hasEnded)
        release.signal()
        await waiter.value
        walk.waitUntilEnded()
        #expect(walk.hasEnded)
        #expect(monitor.watchCount == 5, "root, a, b, c and d; not .hidden")

        let late = root.path + "/a/b/c/late.jpg"
        FileManager.default.createFile(atPath: late, contents: Data([2]))
        #expect(await recorder.waitFor(FileEvent(path: late, kind: .closedWrite)))
    }

    @Test func anEndedWalkRunsWhatWaitsForItsEndAndWaitsForNothing() throws {
        let root = try Self.tree()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        let ended = Mutex(0)
        let walk = try monitor.startRoot(root.path)
        walk.whenEnded { ended.withLock { $0 += 1 } }
        walk.waitUntilEnded()
        // Run on the walk's thread as it ended, or here at once when it had.
        #expect(ended.withLock { $0 } == 1)
        walk.whenEnded { ended.withLock { $0 += 1 } }
        #expect(ended.withLock { $0 } == 2)
        walk.waitUntilWatched(root.path + "/.hidden")  // never watched: returns, the walk has ended
        #expect(monitor.watchCount == 5)

        // A root inside one watched already is covered: its walk has ended before it starts.
        #expect(try monitor.startRoot(root.path + "/a").hasEnded)
        #expect(monitor.watchCount == 5)
    }
}
