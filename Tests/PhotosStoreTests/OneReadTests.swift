import Foundation
import PhotosCore
import PhotosLinux
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// ``LibraryDatabase/withinOneRead(_:)``: the reads a block makes on its thread share one read
/// transaction (an API listing's fetch and its page's rows), and only those.
@Suite struct OneReadTests {
    let directory: TemporaryDirectory
    let database: LibraryDatabase

    init() throws {
        directory = try TemporaryDirectory(prefix: "one-read")
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        try addAsset("first")
    }

    func addAsset(_ name: String, to library: LibraryDatabase? = nil) throws {
        try (library ?? database).write { transaction in
            try transaction.insertAsset(AssetRecord(localIdentifier: "\(name)/L0/001", mediaType: .image))
        }
    }

    func assetCount() throws -> Int {
        try database.assetIDs(matching: AssetQuery()).count
    }

    struct Refused: Error, Equatable {}

    final class Count: Sendable {
        let value = Mutex<Int?>(nil)
    }

    @Test func theBlocksReadsSeeOneSnapshotAndOthersDoNot() throws {
        let other = try LibraryDatabase(existingAt: directory.path("library.sqlite").path)
        let (inside, meanwhile) = try database.withinOneRead {
            let before = try assetCount()
            // Another process commits between the block's reads, and this one too.
            try addAsset("second", to: other)
            try addAsset("third")
            // A read on another thread is its own, and sees both.
            let elsewhere = Count()
            let count = { @Sendable in try self.assetCount() }
            try SystemThread(name: "one-read-other") { elsewhere.value.withLock { $0 = try? count() } }.join()
            return (
                [before, try assetCount(), try database.withinOneRead { try assetCount() }],
                elsewhere.value.withLock { $0 }
            )
        }
        #expect(inside == [1, 1, 1])
        #expect(meanwhile == 3)
        #expect(try assetCount() == 3)
    }

    @Test func theBlocksOwnErrorsComeOutAsThrownAndTheNextReadsAreTheirOwn() throws {
        #expect(throws: Refused()) {
            try database.withinOneRead {
                _ = try assetCount()
                throw Refused()
            }
        }
        try addAsset("second")
        #expect(try assetCount() == 2)
        #expect(try database.withinOneRead { try assetCount() } == 2)
    }
}
