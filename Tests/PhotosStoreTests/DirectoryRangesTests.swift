import Foundation
import PhotosCore
import PhotosStore
import PhotosTestSupport
import Testing

/// `DirectoryRanges`: a directory's own files, found with the index on paths, never what lies under
/// the subdirectories it names, whatever bytes the names hold around "/" in sort order.
@Suite struct DirectoryRangesTests {
    /// Names whose bytes sort just below and above "/" (0x2F): "-" and "." below it, "0" above it,
    /// a name that is another's prefix, non-ASCII, and a byte that is not UTF-8 (as PathBytes keeps it).
    static let names = ["b", "b-x", "b.jpg", "b0", "b!", "bb", "é", "é.jpg", PathBytes.string([0x62, 0xFF]), "a"]

    /// A random tree of paths under /r, up to three levels deep, from the names above.
    static func paths(_ random: inout SplitMix64) -> [String] {
        var paths = Set<String>()
        for _ in 0..<300 {
            var path = "/r"
            for _ in 0...Int(random.next() % 3) { path += "/" + names[Int(random.next() % UInt64(names.count))] }
            paths.insert(path)
        }
        return Array(paths)
    }

    /// Stores a photo resource at each path; returns the asset id of each path.
    static func store(_ paths: [String], in database: LibraryDatabase) throws -> [String: Int64] {
        try database.write { transaction in
            var ids: [String: Int64] = [:]
            for (index, path) in paths.enumerated() {
                var asset = AssetRecord(localIdentifier: "\(index)/L0/001", mediaType: .image)
                asset.creationDate = Double(paths.count - index)
                let resource = ResourceRecord(
                    assetId: 0, type: PHAssetResourceType.photo.rawValue, path: path, uniformTypeIdentifier: nil,
                    mimeType: nil, fileSize: 1, originalFilename: PathName.name(of: path))
                ids[path] = try transaction.insertAsset(asset, resources: [resource])
            }
            return ids
        }.value
    }

    @Test func aDirectorysRowsAreItsOwnAndThoseUnderSubdirectoriesItDoesNotName() throws {
        var random = SplitMix64(seed: 15)
        for round in 0..<8 {
            let database = try LibraryDatabase()
            let paths = Self.paths(&random)
            let ids = try Self.store(paths, in: database)
            // Every directory of the tree, and for each a random half of its subdirectories named.
            let directories = Set(
                ["/r"]
                    + paths.flatMap { path in
                        var parents: [String] = []
                        var directory = PathName.directory(of: path)
                        while directory.count >= 2 {
                            parents.append(directory)
                            directory = PathName.directory(of: directory)
                        }
                        return parents
                    })
            for directory in directories.sorted() {
                let subdirectories = directories.filter { PathName.directory(of: $0) == directory && $0 != directory }
                    .filter { _ in random.next() % 2 == 0 }
                let ranges = DirectoryRanges(directory: directory, subdirectories: subdirectories)
                // The oracle: below the directory, and not under a named subdirectory.
                let expected = paths.filter { path in
                    path.utf8.starts(with: (directory + "/").utf8)
                        && !subdirectories.contains { path.utf8.starts(with: ($0 + "/").utf8) }
                }
                let rows = try database.scanReader { try $0.rows(in: ranges) }
                #expect(
                    Set(rows.stored.map(\.path)) == Set(expected),
                    "round \(round): \(directory) naming \(subdirectories)")
                #expect(rows.stored.count == expected.count, "no row twice")
                #expect(paths.allSatisfy { ranges.contains($0) == expected.contains($0) })

                // An album's members: only the files directly in it, oldest first.
                let direct = expected.filter { PathName.directory(of: $0) == directory }
                let members = try database.write { try $0.primaryAssets(in: ranges) }.value
                let oldestFirst = direct.sorted { paths.firstIndex(of: $0)! > paths.firstIndex(of: $1)! }
                #expect(members == oldestFirst.map { ids[$0]! }, "\(directory)")
                let holds = try database.scanReader { try $0.holdsMedia(in: ranges) }
                #expect(holds == !direct.isEmpty, "\(directory)")
            }
        }
    }
}
