import Foundation
import Glibc
import Testing

// Only the process type: the target has a TemporaryDirectory of its own.
import class PhotosTestSupport.TestProcess

@testable import PhotosWatcher

/// What the kernel does at the edges: its own event queue overflowing, and file systems
/// unmounted under a root. Both are caused for real.
// Generous bounds: the waits end as soon as the event comes, and a full test run keeps the shared
// pool busy (the 21,000 events of the overflow are read by one of its tasks).
@Suite(.timeLimit(.minutes(3)))
struct KernelEdgeTests {
    @Test func kernelQueueOverflowRewatchesTheTreeAndAsksForARecrawl() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        // While the reader thread waits for the state lock, the kernel's queue (max_queued_events,
        // 16384 here) fills: 7,000 files make 21,000 events. The directory made last is lost with them.
        let limit =
            Int(
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        try #require(limit <= 100_000, "max_queued_events is too large to overflow in a test")
        try monitor.core.state.withLock { _ in
            for index in 0..<(limit / 3 + 1_600) { try writeFile(root("\(index).jpg"), [1]) }
            try makeDirectories(root("made-during-overflow/inner"))
        }

        #expect(
            await recorder.waitFor(
                FileEvent(path: root.path, kind: .overflow, isDirectory: true), timeout: .seconds(60)))
        #expect(await eventually(timeout: .seconds(60)) { monitor.watchCount == 3 })
        // The 21,000 events the reader passed on wait in the monitor's buffer (4,096) for this
        // test's reader; under a full test run it may be behind, and an event meeting a full buffer
        // is dropped for an overflow, by design. Write once it has caught up.
        #expect(await recorder.waitUntilQuiet())
        try writeFile(root("made-during-overflow/inner/x.jpg"))
        #expect(
            await recorder.waitFor(
                FileEvent(path: root("made-during-overflow/inner/x.jpg"), kind: .closedWrite), timeout: .seconds(60)))
    }

    /// Whether this process may mount a tmpfs (root in a container that allows it).
    static let canMount: Bool = {
        guard getuid() == 0, let directory = try? TemporaryDirectory() else { return false }
        guard run("/bin/mount", "-t", "tmpfs", "photos-watcher-test", directory.path) else { return false }
        return run("/bin/umount", directory.path)
    }()

    @discardableResult
    static func run(_ arguments: String...) -> Bool {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    @Test(.enabled(if: canMount, "needs permission to mount a tmpfs"))
    func unmountedRootIsReportedOnceAndForgotten() async throws {
        let mountPoint = try TemporaryDirectory()
        try #require(Self.run("/bin/mount", "-t", "tmpfs", "photos-watcher-test", mountPoint.path))
        try makeDirectories(mountPoint("album"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(mountPoint.path)
        #expect(monitor.watchCount == 2)
        let recorder = EventRecorder(monitor.events)

        try #require(Self.run("/bin/umount", mountPoint.path))

        #expect(await recorder.waitFor(FileEvent(path: mountPoint.path, kind: .rootUnmounted, isDirectory: true)))
        #expect(await eventually { monitor.watchCount == 0 })
        #expect(monitor.roots.isEmpty)
        #expect(!recorder.events.contains { $0.kind == .watchRemoved })
        #expect(recorder.events.filter { $0.kind == .rootUnmounted }.count == 1)
    }

    @Test(.enabled(if: canMount, "needs permission to mount a tmpfs"))
    func fileSystemUnmountedInsideARootIsReportedAtItsMountPoint() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root("card"))
        try #require(Self.run("/bin/mount", "-t", "tmpfs", "photos-watcher-test", root("card")))
        try makeDirectories(root("card/DCIM"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        #expect(monitor.watchCount == 3)
        let recorder = EventRecorder(monitor.events)

        try #require(Self.run("/bin/umount", root("card")))

        // Reported once, for the mount point; the empty directory underneath is watched in its place.
        #expect(await recorder.waitFor(FileEvent(path: root("card"), kind: .watchRemoved, isDirectory: true)))
        #expect(recorder.events.filter { $0.kind == .watchRemoved }.count == 1, "\(recorder.events)")
        #expect(await eventually { monitor.watchCount == 2 })
        #expect(monitor.roots == [root.path])
        try writeFile(root("card/after.jpg"))
        #expect(await recorder.waitFor(FileEvent(path: root("card/after.jpg"), kind: .closedWrite)))
    }
}
