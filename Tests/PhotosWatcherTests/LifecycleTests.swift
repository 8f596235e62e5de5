import Foundation
import Testing

@testable import PhotosWatcher

/// Stopping, the watch budget, and a consumer that falls behind.
@Suite(.timeLimit(.minutes(5)))
struct LifecycleTests {
    @Test func stopEndsTheStreamAndLaterRootsAreRefused() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        let started = ContinuousClock.now
        monitor.stop()
        let took = ContinuousClock.now - started
        print("stop() took \(took)")

        #expect(await recorder.waitUntilFinished())
        monitor.stop()  // again: nothing to do
        #expect { try monitor.addRoot(root.path) } throws: { ($0 as? WatchError)?.code == .stopped }
    }

    @Test func aRemovedRootIsNoLongerWatchedAndAnInnerRootIsWatchedAgainOnItsOwn() async throws {
        let outer = try TemporaryDirectory()
        try makeDirectories(outer("inner/deep"))
        try makeDirectories(outer("other"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        let recorder = EventRecorder(monitor.events)
        try monitor.addRoot(outer("inner"))
        try monitor.addRoot(outer.path)  // takes the inner root over
        #expect(monitor.roots == [outer.path] && monitor.watchCount == 4)

        monitor.removeRoot(outer("inner"))  // not a root of its own now: nothing changes
        #expect(monitor.watchCount == 4)
        monitor.removeRoot(outer.path)
        #expect(monitor.roots.isEmpty && monitor.watchCount == 0)
        try writeFile(outer("other/a.jpg"))
        try monitor.addRoot(outer("inner"))
        #expect(monitor.watchCount == 2)
        try writeFile(outer("inner/deep/b.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: outer("inner/deep/b.jpg"), kind: .closedWrite)))
        #expect(recorder.events.allSatisfy { $0.path != outer("other/a.jpg") }, "\(recorder.events)")
    }

    @Test func releasingTheMonitorStopsItAndFinishesTheStream() async throws {
        let root = try TemporaryDirectory()
        var monitor: InotifyMonitor? = try InotifyMonitor()
        try monitor?.addRoot(root.path)
        let recorder = EventRecorder(try #require(monitor?.events))
        weak let handles = monitor?.core.handles

        monitor = nil

        #expect(await recorder.waitUntilFinished())
        // The reader thread has let go too: the descriptors are closed, and the watches with them.
        #expect(handles == nil)
    }

    @Test func budgetOfTwoWatchesReportsTheDirectoriesBeyondIt() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root("a/c"))
        try makeDirectories(root("b"))
        let monitor = try InotifyMonitor(budget: WatchBudget(limit: 2))
        defer { monitor.stop() }
        let recorder = EventRecorder(monitor.events)

        try monitor.addRoot(root.path)

        // Breadth first: the root and `a` fit; `b` and `a/c` do not.
        #expect(monitor.watchCount == 2)
        #expect(monitor.unwatchedDirectories == [root("a/c"), root("b")])
        #expect(await recorder.waitUntil { $0.filter { $0.kind == .budgetExhausted }.count == 2 })
        #expect(Set(recorder.events.filter { $0.kind == .budgetExhausted }.map(\.path)) == [root("a/c"), root("b")])

        // A directory created later does not fit either, and says so.
        try makeDirectories(root("new"))
        #expect(await recorder.waitFor(FileEvent(path: root("new"), kind: .budgetExhausted, isDirectory: true)))
        #expect(monitor.watchCount == 2)
        #expect(monitor.unwatchedDirectories == [root("a/c"), root("b"), root("new")])

        // Removed, it is no longer listed.
        try FileManager.default.removeItem(atPath: root("new"))
        #expect(await eventually { monitor.unwatchedDirectories == [root("a/c"), root("b")] })
    }

    @Test func rootBeyondTheBudgetIsRefused() throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor(budget: WatchBudget(limit: 600, reserve: 600))
        defer { monitor.stop() }
        #expect(monitor.watchLimit == 0)
        #expect { try monitor.addRoot(root.path) } throws: { ($0 as? WatchError)?.code == .watchLimitReached }
    }

    @Test func consumerFallingBehindGetsAnOverflowForTheRootInsteadOfASilentLoss() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor(bufferSize: 8)
        defer { monitor.stop() }
        try monitor.addRoot(root.path)

        // Nobody reads yet: 50 files make 150 events for an 8-event buffer. The monitor's reader
        // thread fills it in its own time (a loaded machine may take seconds): the consumer starts
        // once the root is marked as overflowed, not after a fixed time.
        for index in 0..<50 { try writeFile(root("\(index).jpg")) }
        #expect(
            await eventually(timeout: .seconds(50)) {
                monitor.core.state.withLock { $0.overflowedRoots.contains(root.path) }
            })
        let recorder = EventRecorder(monitor.events)

        #expect(await recorder.waitFor(FileEvent(path: root.path, kind: .overflow, isDirectory: true)))
        #expect(recorder.events.count < 150)
        // Once the overflow is delivered, events flow again.
        try writeFile(root("after.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: root("after.jpg"), kind: .closedWrite)))
    }
}
