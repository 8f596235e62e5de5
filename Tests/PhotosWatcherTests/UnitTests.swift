import Foundation
import Glibc
import PhotosLinux
import Testing

@testable import PhotosWatcher

/// The pure parts: parsing the kernel's bytes, the watch table, the budget's arithmetic, and the
/// syscall wrappers' error codes.
@Suite struct UnitTests {
    /// Builds what `read` returns: the 16-byte header, then the name padded with NULs to `padTo`.
    static func record(wd: Int32, mask: Int32, cookie: UInt32 = 0, name: String?, padTo: Int = 16) -> [UInt8] {
        var name = Array((name ?? "").utf8)
        if !name.isEmpty {
            name.append(0)
            while name.count % padTo != 0 { name.append(0) }
        }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: wd) { bytes += $0 }
        withUnsafeBytes(of: UInt32(bitPattern: mask)) { bytes += $0 }
        withUnsafeBytes(of: cookie) { bytes += $0 }
        withUnsafeBytes(of: UInt32(name.count)) { bytes += $0 }
        return bytes + name
    }

    @Test func parserReadsNamesAfterTheHeaderAndSkipsThePadding() {
        let bytes =
            Self.record(wd: 1, mask: IN_CREATE, name: "IMG_0001.jpg")
            + Self.record(wd: 2, mask: IN_MOVED_FROM | IN_ISDIR, cookie: 77, name: "a-rather-long-directory-name")
            + Self.record(wd: 1, mask: IN_DELETE_SELF, name: nil)
            + Self.record(wd: -1, mask: IN_Q_OVERFLOW, name: nil)
            + Self.record(wd: 3, mask: IN_CLOSE_WRITE, name: "été.jpg", padTo: 4)
        let events = bytes.withUnsafeBytes { InotifyEventParser.parse($0) }
        #expect(
            events == [
                RawInotifyEvent(wd: 1, mask: UInt32(IN_CREATE), cookie: 0, name: "IMG_0001.jpg"),
                RawInotifyEvent(
                    wd: 2, mask: UInt32(IN_MOVED_FROM | IN_ISDIR), cookie: 77, name: "a-rather-long-directory-name"),
                RawInotifyEvent(wd: 1, mask: UInt32(IN_DELETE_SELF), cookie: 0, name: nil),
                RawInotifyEvent(wd: -1, mask: UInt32(IN_Q_OVERFLOW), cookie: 0, name: nil),
                RawInotifyEvent(wd: 3, mask: UInt32(IN_CLOSE_WRITE), cookie: 0, name: "été.jpg"),
            ])
        #expect(events[1].has(IN_ISDIR))
        #expect(!events[0].has(IN_ISDIR))
    }

    @Test func parserStopsAtATruncatedEvent() {
        let whole = Self.record(wd: 1, mask: IN_CREATE, name: "a.jpg")
        let bytes = whole + Self.record(wd: 1, mask: IN_CREATE, name: "b.jpg").dropLast(3)
        let events = bytes.withUnsafeBytes { InotifyEventParser.parse($0) }
        #expect(events.map(\.name) == ["a.jpg"])
    }

    @Test func watchTableRenamesADirectoryAndItsDescendantsOnly() {
        var table = WatchTable()
        table.insert(1, path: "/r", root: "/r")
        table.insert(2, path: "/r/a", root: "/r")
        table.insert(3, path: "/r/a/b", root: "/r")
        table.insert(4, path: "/r/ab", root: "/r")
        table.moveSubtree(from: "/r/a", to: "/r/z", root: "/r")
        #expect(table[2]?.path == "/r/z")
        #expect(table[3]?.path == "/r/z/b")
        #expect(table[4]?.path == "/r/ab")
        #expect(table.descriptor(for: "/r/z/b") == 3)
        #expect(table.descriptor(for: "/r/a") == nil)
        #expect(Set(table.subtree(of: "/r/z")) == [2, 3])
    }

    @Test func watchTableKeepsAPathTakenOverByAnotherDescriptor() {
        var table = WatchTable()
        table.insert(1, path: "/r/a", root: "/r")
        table.insert(2, path: "/r/a", root: "/r")  // a directory renamed over the first
        table.remove(1)
        #expect(table.descriptor(for: "/r/a") == 2)
    }

    @Test(arguments: [
        ("/a/b", "/a", true), ("/a", "/a", true), ("/ab", "/a", false), ("/a/b", "/", true), ("/a", "/a/b", false),
    ])
    func pathContainment(path: String, directory: String, within: Bool) {
        #expect(path.isWithin(directory) == within)
    }

    @Test(arguments: [
        ("/a/./b//c/", "/a/b/c"), ("x/../y", "/cwd/y"), ("/..", "/"), ("rel", "/cwd/rel"), ("/", "/"),
    ])
    func pathNormalization(path: String, normalized: String) {
        #expect(path.normalizedPath(relativeTo: "/cwd") == normalized)
    }

    @Test(arguments: [(100, 100), (1000, 500), (8192, 819), (192_536, 19_253)])
    func reserveIsTenPercentAndAtLeast500(limit: Int, reserve: Int) {
        #expect(WatchBudget.defaultReserve(forLimit: limit) == reserve)
    }

    @Test func systemBudgetReadsTheKernelLimit() throws {
        let text = try String(contentsOfFile: "/proc/sys/fs/inotify/max_user_watches", encoding: .utf8)
        let budget = WatchBudget.system()
        #expect(budget.limit == Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(budget.available == budget.limit - budget.reserve - budget.heldByThisProcess)
        #expect(WatchBudget(limit: 10, reserve: 4, heldByThisProcess: 9).available == 0)
    }

    @Test func heldWatchesAreCountedFromProc() throws {
        let root = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root("a/b"), withIntermediateDirectories: true)
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        #expect(monitor.watchCount == 3)
        #expect(WatchBudget.watchesHeldByThisProcess() >= 3)
    }

    @Test func addWatchErrorsHaveDistinctCodes() throws {
        let root = try TemporaryDirectory()
        try writeFile(root("file"))
        let fd = try Inotify.initialize()
        defer { Syscall.close(fd) }
        #expect(throws: WatchError.self) {
            try Inotify.addWatch(fd: fd, path: root("missing"), mask: Inotify.directoryMask)
        }
        do {
            _ = try Inotify.addWatch(fd: fd, path: root("missing"), mask: Inotify.directoryMask)
        } catch {
            #expect(error.code == .notFound)
            #expect(error.path == root("missing"))
            #expect((error.cause as? SystemCallError)?.errno == ENOENT)
        }
        do {
            _ = try Inotify.addWatch(fd: fd, path: root("file"), mask: Inotify.directoryMask)
            Issue.record("a file was watched as a directory")
        } catch {
            #expect(error.code == .notADirectory)
        }
        let wd = try Inotify.addWatch(fd: fd, path: root.path, mask: Inotify.directoryMask)
        #expect(try Inotify.addWatch(fd: fd, path: root.path, mask: Inotify.directoryMask) == wd)
        Inotify.removeWatch(fd: fd, wd: wd)
        Inotify.removeWatch(fd: fd, wd: wd)  // already gone: not an error
    }

    @Test func descriptionsReadWell() {
        #expect(FileEvent(path: "/p/a.jpg", kind: .movedTo(cookie: 7)).description == "movedTo(7) /p/a.jpg")
        #expect(FileEvent(path: "/p/d", kind: .created, isDirectory: true).description == "created /p/d (directory)")
        let error = WatchError(
            code: .watchLimitReached, message: "no watch left", path: "/p",
            cause: SystemCallError(call: "inotify_add_watch", errno: ENOSPC))
        #expect(
            error.description
                == "watchLimitReached: no watch left (/p) [inotify_add_watch: No space left on device (errno 28)]")
    }
}
