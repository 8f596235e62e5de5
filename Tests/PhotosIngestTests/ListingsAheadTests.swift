import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosIngest

/// A whole-root scan's directories are listed ahead of it on another thread: the listings come in
/// the scan's order and are what listing each directory on the scan's thread gives, the lister
/// stays within its limit however slow the scan, and a scan that stops early stops it.
@Suite struct ListingsAheadTests {
    /// 40 directories of 0 to 6 files each (every fifth with a subdirectory), and one listed that
    /// does not exist.
    private func tree() throws -> (TemporaryDirectory, [String]) {
        let root = try TemporaryDirectory(prefix: "listings-ahead")
        var directories: [String] = []
        for index in 0..<40 {
            let directory = root.path("d\(index)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if index % 5 == 0 {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
            }
            for file in 0..<(index % 7) {
                try Data([UInt8(file)]).write(to: directory.appendingPathComponent("IMG_\(file).jpg"))
            }
            directories.append(directory.path)
        }
        directories.insert(root.path("gone").path, at: 17)
        return (root, directories)
    }

    @Test(arguments: [1, 3, 1024])
    func theListingsAreTheDirectoriesOwnInTheirOrder(limit: Int) throws {
        let (root, directories) = try tree()
        defer { _ = root }
        let crawler = Crawler()
        let listings = ListingsAhead(directories, crawler: crawler, limit: limit)
        defer { listings.stop() }
        for directory in directories {
            let ahead = try listings.next().get()
            let here = try crawler.crawlFiles(in: directory).get().map(\.path)
            #expect(ahead.files.map(\.path) == here, "\(directory)")
            let subdirectory = directory + "/sub"
            #expect(
                ahead.subdirectories == (FileManager.default.fileExists(atPath: subdirectory) ? [subdirectory] : []),
                "\(directory)")
        }
    }

    @Test func theListerStaysWithinItsLimitOfTheScan() async throws {
        let (root, directories) = try tree()
        defer { _ = root }
        let listings = ListingsAhead(directories, crawler: Crawler(), limit: 5)
        defer { listings.stop() }
        for _ in 0..<3 {
            _ = listings.next()
            try await waitUntil("the lister 5 files ahead") { listings.filesListedAhead >= 5 }
            // Time for it to run further, were it to.
            try await Task.sleep(for: .milliseconds(50))
            // It lists while fewer than 5 files wait: at most 4, and a directory of at most 6.
            #expect(listings.filesListedAhead <= 4 + 6)
        }
    }

    @Test func aScanThatStopsStopsTheLister() async throws {
        let (root, directories) = try tree()
        defer { _ = root }
        let listed = Mutex(0)
        let crawler = Crawler { path in
            listed.withLock { $0 += 1 }
            return Crawler.readDirectory(path)
        }
        let listings = ListingsAhead(directories, crawler: crawler, limit: 1)
        _ = listings.next()
        _ = listings.next()
        listings.stop()
        try await Task.sleep(for: .milliseconds(50))
        let afterStop = listed.withLock { $0 }
        #expect(afterStop < directories.count)
        try await Task.sleep(for: .milliseconds(50))
        #expect(listed.withLock { $0 } == afterStop)
    }
}
