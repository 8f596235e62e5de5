import Foundation
import PhotosWatcher
import Testing

/// Events for files in watched directories, from real inotify in a temporary directory.
@Suite(.timeLimit(.minutes(5)))
struct FileEventTests {
    @Test func writtenFileGivesCreatedThenClosedWriteWithItsAbsolutePath() async throws {
        let root = try TemporaryDirectory()
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        try writeFile(root("IMG_0001.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: root("IMG_0001.jpg"), kind: .closedWrite)))
        let kinds = recorder.events.kinds(at: root("IMG_0001.jpg"))
        #expect(kinds.first == .created)
        #expect(kinds.last == .closedWrite)
        #expect(kinds.contains(.modified))
        #expect(recorder.events.allSatisfy { $0.path.hasPrefix(root.path + "/") && !$0.isDirectory })
    }

    @Test func renameInsideTheTreeGivesMovedFromAndMovedToWithOneCookie() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root("inbox"))
        try makeDirectories(root("2024"))
        try writeFile(root("inbox/a.jpg"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        try move(root("inbox/a.jpg"), root("2024/b.jpg"))

        #expect(await recorder.waitUntil { !$0.kinds(at: root("2024/b.jpg")).isEmpty })
        let from = recorder.events.kinds(at: root("inbox/a.jpg"))
        let to = recorder.events.kinds(at: root("2024/b.jpg"))
        guard case .movedFrom(let fromCookie)? = from.first, case .movedTo(let toCookie)? = to.first else {
            Issue.record("expected a moved pair, got \(from) and \(to)")
            return
        }
        #expect(fromCookie == toCookie)
        #expect(fromCookie != 0)
    }

    @Test func attributeChangeAndDeletionAreReported() async throws {
        let root = try TemporaryDirectory()
        try writeFile(root("a.jpg"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: root("a.jpg"))
        try FileManager.default.removeItem(atPath: root("a.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: root("a.jpg"), kind: .deleted)))
        #expect(recorder.events.kinds(at: root("a.jpg")) == [.attributes, .deleted])
    }

    @Test func relativeAndUntidyRootsReportCleanAbsolutePaths() async throws {
        let root = try TemporaryDirectory()
        try makeDirectories(root("sub"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path + "/sub/.././/")
        #expect(monitor.roots == [root.path])
        let recorder = EventRecorder(monitor.events)

        try writeFile(root("sub/x.jpg"))

        #expect(await recorder.waitFor(FileEvent(path: root("sub/x.jpg"), kind: .closedWrite)))
    }

    @Test func missingOrFileRootIsRefusedWithItsCode() throws {
        let root = try TemporaryDirectory()
        try writeFile(root("file.jpg"))
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }

        #expect { try monitor.addRoot(root("missing")) } throws: { ($0 as? WatchError)?.code == .notFound }
        #expect { try monitor.addRoot(root("file.jpg")) } throws: { ($0 as? WatchError)?.code == .notADirectory }
        #expect(monitor.roots.isEmpty)
        #expect(monitor.watchCount == 0)
    }
}
