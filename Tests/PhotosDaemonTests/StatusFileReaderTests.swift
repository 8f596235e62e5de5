import Foundation
import PhotosDaemon
import PhotosTestSupport
import PhotosWire
import Synchronization
import Testing

/// The API reads photosd's status file for each `GET /v1/health`: ``StatusFileReader`` decodes it
/// again only when photosd has written another one, and never answers from a file that is gone.
@Suite struct StatusFileReaderTests {
    let directory: TemporaryDirectory
    let path: String
    let decodes = Decodes()
    let reader: StatusFileReader<DaemonStatus>

    init() throws {
        directory = try TemporaryDirectory(prefix: "status-file")
        path = directory.path("photosd.status.json").path
        let decodes = decodes
        reader = StatusFileReader(path: path) { path in
            decodes.count.withLock { $0 += 1 }
            return try DaemonStatus.read(from: path)
        }
    }

    /// How many times the file was decoded.
    final class Decodes: Sendable {
        let count = Mutex(0)
    }

    func status(roots: [String]) -> DaemonStatus {
        DaemonStatus.waitingForLibrary(
            startedAt: 1_800_000_000, roots: roots,
            library: DaemonStatus.Library(state: "serving", reason: nil, consecutiveFailures: 0, retryAt: nil))
    }

    @Test func theSameFileIsDecodedOnceAndEachWriteAgain() throws {
        #expect(try reader.value() == nil)
        try status(roots: ["/a"]).write(to: path)
        for _ in 0..<5 { #expect(try reader.value()?.roots.map(\.path) == ["/a"]) }
        #expect(decodes.count.withLock { $0 } == 1)

        // photosd writes the same status again: another file, so read again, and still right.
        try status(roots: ["/a"]).write(to: path)
        #expect(try reader.value()?.roots.map(\.path) == ["/a"])
        #expect(decodes.count.withLock { $0 } == 2)
        try status(roots: ["/b", "/c"]).write(to: path)
        #expect(try reader.value()?.roots.map(\.path) == ["/b", "/c"])
        #expect(decodes.count.withLock { $0 } == 3)
    }

    @Test func aFileChangedInPlaceOrRemovedIsNotAnsweredFromTheOldOne() throws {
        try status(roots: ["/a"]).write(to: path)
        #expect(try reader.value()?.roots.count == 1)
        // Written in place (another program, an editor): same inode, another size and time.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("not a status".utf8))
        try handle.close()
        #expect(throws: (any Error).self) { try reader.value() }
        try FileManager.default.removeItem(atPath: path)
        #expect(try reader.value() == nil)
    }
}
