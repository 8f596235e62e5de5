import Foundation
import PhotosWatcher
import Testing

/// Directories appearing, moving and disappearing under a root keep the watches true.
@Suite(.timeLimit(.minutes(5)))
struct DirectoryTrackingTests {
    @Test func deepMkdirThenImmediateWriteIsNotMissed() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        // Repeated: the race between the new directories and the watches on them differs each time.
        let trees = 20
        for tree in 0..<trees {
            try makeDirectories(root("t\(tree)/a/b/c"))
            try writeFile(root("t\(tree)/a/b/c/x.jpg"))
        }

        for tree in 0..<trees {
            let file = root("t\(tree)/a/b/c/x.jpg")
            #expect(await recorder.waitUntil { $0.contains { $0.path == file } }, "no event for \(file)")
        }
        #expect(await eventually { monitor.watchCount == 1 + 4 * trees })

        // The deepest directory is really watched: a later write there is reported as it happens.
        try writeFile(root("t0/a/b/c/later.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: root("t0/a/b/c/later.jpg"), kind: .closedWrite)))
    }

    @Test func directoryCreatedThenRenamedReportsUnderItsNewPath() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        try makeDirectories(root("draft/raw"))
        try writeFile(root("draft/raw/1.jpg"))
        // Created, or found by the scan of the new directory if it was written before the watch.
        #expect(await recorder.waitUntil { $0.contains { $0.path == root("draft/raw/1.jpg") } })
        #expect(await eventually { monitor.watchCount == 3 })
        try move(root("draft"), root("Holiday"))
        try writeFile(root("Holiday/2.jpg"))
        try writeFile(root("Holiday/raw/3.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: root("Holiday/2.jpg"), kind: .closedWrite)))
        #expect(await recorder.waitFor(FileEvent(path: root("Holiday/raw/3.jpg"), kind: .closedWrite)))
        let events = recorder.events
        let rename = try #require(events.firstIndex { $0.path == root("draft") && $0.kind != .created })
        #expect(!events[(rename + 1)...].contains { $0.path.hasPrefix(root("draft/")) }, "\(events)")
        #expect(monitor.watchCount == 3)
    }

    @Test func directoryRenamedBeforeItsWatchIsAddedIsStillWatched() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        for index in 0..<10 {
            try makeDirectories(root("new\(index)/sub"))
            try move(root("new\(index)"), root("named\(index)"))
        }
        for index in 0..<10 {
            try writeFile(root("named\(index)/sub/x.jpg"))
        }

        for index in 0..<10 {
            // Written before the watch on `sub` was added, x.jpg is found by the scan (created, no
            // closedWrite); after it, the kernel reports it.
            let file = root("named\(index)/sub/x.jpg")
            #expect(await recorder.waitUntil { $0.contains { $0.path == file } }, "no event for \(file)")
        }
        #expect(await eventually { monitor.watchCount == 21 })
        #expect(!recorder.events.contains { $0.path.hasPrefix(root("new")) && !$0.isDirectory })
        try writeFile(root("named9/sub/later.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: root("named9/sub/later.jpg"), kind: .closedWrite)))
    }

    @Test func removedSubtreeReportsDeletionsAndDropsItsWatches() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root("s/t/u"))
        for path in ["s/1.jpg", "s/t/2.jpg", "s/t/u/3.jpg"] { try writeFile(root(path)) }
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        #expect(monitor.watchCount == 4)
        let recorder = EventRecorder(monitor.events)

        try FileManager.default.removeItem(atPath: root("s"))

        #expect(await recorder.waitFor(FileEvent(path: root("s"), kind: .deleted, isDirectory: true)))
        for path in ["s/1.jpg", "s/t/2.jpg", "s/t/u/3.jpg"] {
            #expect(recorder.events.contains(FileEvent(path: root(path), kind: .deleted)), "\(path)")
        }
        for path in ["s/t", "s/t/u"] {
            #expect(recorder.events.contains(FileEvent(path: root(path), kind: .deleted, isDirectory: true)))
        }
        #expect(await eventually { monitor.watchCount == 1 })
        #expect(monitor.roots == [root.path])
    }

    @Test func directoryMovedInIsWatchedAndItsContentsReported() async throws {
        let root = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try makeDirectories(outside("trip/day1"))
        try writeFile(outside("trip/day1/p.jpg"))
        try writeFile(outside("trip/.hidden.jpg"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        try move(outside("trip"), root("trip"))

        #expect(await recorder.waitFor(FileEvent(path: root("trip/day1/p.jpg"), kind: .created)))
        guard case .movedTo? = recorder.events.kinds(at: root("trip")).first else {
            Issue.record("no movedTo for the directory: \(recorder.events)")
            return
        }
        #expect(recorder.events.contains(FileEvent(path: root("trip/day1"), kind: .created, isDirectory: true)))
        #expect(recorder.events.contains(FileEvent(path: root("trip/.hidden.jpg"), kind: .created)))
        #expect(await eventually { monitor.watchCount == 3 })
        try writeFile(root("trip/day1/q.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: root("trip/day1/q.jpg"), kind: .closedWrite)))
    }

    @Test func directoryMovedOutStopsBeingWatched() async throws {
        let root = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try makeDirectories(root("album/sub"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        #expect(monitor.watchCount == 3)
        let recorder = EventRecorder(monitor.events)

        try move(root("album"), outside("album"))
        #expect(await eventually { monitor.watchCount == 1 })
        try writeFile(outside("album/sub/gone.jpg"))
        try writeFile(root("marker.jpg"))

        // Events arrive in order: once the later marker is in, the file outside would be too.
        #expect(await recorder.waitFor(FileEvent(path: root("marker.jpg"), kind: .closedWrite)))
        #expect(!recorder.events.contains { $0.path.hasSuffix("gone.jpg") }, "\(recorder.events)")
        guard case .movedFrom? = recorder.events.kinds(at: root("album")).first else {
            Issue.record("no movedFrom for the directory: \(recorder.events)")
            return
        }
    }

    @Test func dotDirectoriesAreNotWatched() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root(".git/objects"))
        try makeDirectories(root("album"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        #expect(monitor.watchCount == 2)
        let recorder = EventRecorder(monitor.events)

        try makeDirectories(root(".thumbnails/large"))
        try writeFile(root(".git/objects/blob"))
        try writeFile(root("album/marker.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: root("album/marker.jpg"), kind: .closedWrite)))
        #expect(recorder.events.contains(FileEvent(path: root(".thumbnails"), kind: .created, isDirectory: true)))
        #expect(
            !recorder.events.contains { $0.path.hasPrefix(root(".git/")) || $0.path.hasPrefix(root(".thumbnails/")) })
        #expect(monitor.watchCount == 2)
    }

    @Test func deletedRootIsReportedAndForgotten() async throws {
        let parent = try TemporaryDirectory()
        try makeDirectories(parent("root/sub"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(parent("root"))
        let recorder = EventRecorder(monitor.events)

        try FileManager.default.removeItem(atPath: parent("root"))

        #expect(await recorder.waitFor(FileEvent(path: parent("root"), kind: .watchRemoved, isDirectory: true)))
        #expect(await eventually { monitor.watchCount == 0 })
        #expect(monitor.roots.isEmpty)
    }

    @Test func movedRootIsReportedAndForgotten() async throws {
        let parent = try TemporaryDirectory()
        try makeDirectories(parent("root/sub"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(parent("root"))
        let recorder = EventRecorder(monitor.events)

        try move(parent("root"), parent("elsewhere"))
        try writeFile(parent("elsewhere/sub/x.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: parent("root"), kind: .watchRemoved, isDirectory: true)))
        #expect(await eventually { monitor.watchCount == 0 })
        #expect(!recorder.events.contains { $0.path.hasSuffix("x.jpg") })
    }
}
