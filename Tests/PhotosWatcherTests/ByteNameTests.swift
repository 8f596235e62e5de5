import Foundation
import Glibc
import PhotosCore
import PhotosLinux
import Testing

@testable import PhotosWatcher

/// File names that are not UTF-8 keep their bytes through the watcher: in the kernel's event
/// records, in directory listings, and in the paths the monitor reports and watches.
@Suite(.timeLimit(.minutes(5)))
struct ByteNameTests {
    /// `café.jpg` in Latin-1, and the name a UTF-8 decoder with replacement would have made of it.
    static let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
    static let replaced = "caf\u{FFFD}.jpg"

    /// Calls `body` with `bytes` as a NUL-terminated C path.
    static func withRaw<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    @Test func eventNameBytesRoundTrip() throws {
        var record: [UInt8] = []
        let name = Self.latin1 + [0, 0, 0, 0]  // NUL-terminated and padded to 12 bytes.
        withUnsafeBytes(of: Int32(3)) { record += $0 }
        withUnsafeBytes(of: UInt32(bitPattern: IN_CREATE)) { record += $0 }
        withUnsafeBytes(of: UInt32(0)) { record += $0 }
        withUnsafeBytes(of: UInt32(name.count)) { record += $0 }
        record += name
        let events = record.withUnsafeBytes { InotifyEventParser.parse($0) }
        let parsed = try #require(events.first?.name)
        #expect(parsed == "caf\u{EFE9}.jpg")
        #expect(PathBytes.bytes(parsed) == Self.latin1)
        #expect(parsed != Self.replaced, "not merged with the name holding U+FFFD")
    }

    @Test func listingsAndEventsKeepTheBytesOfNamesThatAreNotUTF8() async throws {
        let root = try TemporaryDirectory()
        let directoryBytes = Array(root.path.utf8) + Array("/dir".utf8) + [0xFF]
        #expect(Self.withRaw(directoryBytes) { mkdir($0, 0o755) } == 0)
        let monitor = try InotifyMonitor()
        defer { monitor.stop() }
        try monitor.addRoot(root.path)
        let recorder = EventRecorder(monitor.events)
        let directory = PathBytes.string(directoryBytes)
        #expect(await eventually { monitor.watchCount == 2 }, "the directory with a byte name is watched")

        let fileBytes = directoryBytes + [0x2F] + Self.latin1
        let fd = Self.withRaw(fileBytes) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let file = directory + "/caf\u{EFE9}.jpg"
        #expect(await recorder.waitFor(FileEvent(path: file, kind: .closedWrite)))
        #expect(PathBytes.bytes(file) == fileBytes, "the reported path opens the file")

        let entries = DirectoryListing.entries(of: directory)
        #expect(entries.map(\.name) == ["caf\u{EFE9}.jpg"])
        #expect(DirectoryListing.entries(of: root.path).contains { $0.name == "dir\u{EFFF}" && $0.isDirectory })
    }

    /// Names of every length a directory entry can hold, 1 to 255 bytes, one of them not UTF-8:
    /// both readers of `readdir` (the watcher's and the scanner's crawl) give each name exactly,
    /// reading `d_name` in place rather than as a 256-byte field copied past the entry.
    @Test func namesOfEveryLengthAreListedExactly() throws {
        let directory = try TemporaryDirectory()
        var expected: Set<String> = []
        for length in 1...255 {
            var bytes = [UInt8](repeating: UInt8(ascii: "a") + UInt8(length % 26), count: length)
            if length == 200 { bytes[100] = 0xE9 }
            let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + bytes + [0]
            let fd = path.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) {
                    open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                }
            }
            try #require(fd >= 0, "cannot create a name of \(length) bytes")
            close(fd)
            expected.insert(PathBytes.string(bytes))
        }
        let listed = DirectoryListing.entries(of: directory.path)
        #expect(Set(listed.map { $0.name }) == expected && listed.count == 255)
        #expect(listed.allSatisfy { !$0.isDirectory })
    }

    /// A walk that reports nothing lists a directory's subdirectories alone, sorted: not its files,
    /// nor a symbolic link to a directory.
    @Test func aListingOfDirectoriesOnlyLeavesFilesAndLinksOut() throws {
        let directory = try TemporaryDirectory()
        let manager = FileManager.default
        for name in ["b", "a", "c"] {
            try manager.createDirectory(atPath: directory.path + "/" + name, withIntermediateDirectories: false)
        }
        for name in ["x.jpg", "a.jpg", "zz"] {
            manager.createFile(atPath: directory.path + "/" + name, contents: Data())
        }
        try manager.createSymbolicLink(atPath: directory.path + "/link", withDestinationPath: directory.path + "/a")
        let listed = DirectoryListing.entries(of: directory.path, directoriesOnly: true)
        #expect(listed.map(\.name) == ["a", "b", "c"])
        #expect(listed.allSatisfy { $0.isDirectory })
        #expect(DirectoryListing.entries(of: directory.path).count == 7, "the full listing has them all")
    }

    /// A directory of two links holds no directory where the file system counts them (ext4, XFS,
    /// tmpfs): the walk skips listing it. One with a subdirectory, or a file, never is skipped.
    @Test func onlyADirectoryWithNoSubdirectoryIsLeftUnlisted() throws {
        let directory = try TemporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory.path + "/parent/child", withIntermediateDirectories: true)
        manager.createFile(atPath: directory.path + "/parent/child/a.jpg", contents: Data())
        manager.createFile(atPath: directory.path + "/file", contents: Data())
        var devices: [UInt64: Bool] = [:]
        #expect(!DirectoryListing.holdsNoDirectories(directory.path + "/parent", devices: &devices))
        #expect(!DirectoryListing.holdsNoDirectories(directory.path + "/file", devices: &devices))
        #expect(!DirectoryListing.holdsNoDirectories(directory.path + "/missing", devices: &devices))
        let counting = Syscall.linksCountSubdirectories(directory.path)
        #expect(DirectoryListing.holdsNoDirectories(directory.path + "/parent/child", devices: &devices) == counting)
        if !counting {
            FileHandle.standardError.write(
                Data(
                    "⚠️  \(directory.path) is on a file system that does not count subdirectories in links: only the negative cases ran\n"
                        .utf8))
        }
    }
}
