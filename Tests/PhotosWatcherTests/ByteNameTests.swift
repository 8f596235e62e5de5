import Foundation
import Glibc
import PhotosCore
import Testing

@testable import PhotosWatcher

/// File names that are not UTF-8 keep their bytes through the watcher: in the kernel's event
/// records, in directory listings, and in the paths the monitor reports and watches.
@Suite(.timeLimit(.minutes(1)))
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
}
