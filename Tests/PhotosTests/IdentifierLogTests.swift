import Foundation
import PhotosIngest
import PhotosSidecars
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Photos that have neither a sidecar nor a place in a user album keep their identifiers through a
/// rebuild: each root with `write = "sidecars"` keeps `.photosd-identifiers`, which `photos scan`
/// brings up to date after its commits and `photos rebuild` reads back. End to end with the real
/// `photos` binary.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct IdentifierLogTests {
    /// Photos of the corpus, and where they go under the root: nested folders, one at the top.
    static let layout: [(source: String, destination: String)] = [
        ("Phone/DCIM/Camera/20201027_132333.jpg", "2020/October/20201027_132333.jpg"),
        ("Phone/DCIM/Camera/IMG_20201017_174824.jpg", "2020/October/IMG_20201017_174824.jpg"),
        ("Phone/DCIM/Camera/20180530_212539.jpg", "2018/20180530_212539.jpg"),
        ("Phone/DCIM/Camera/IMG_20190512_171353.jpg", "2019/May/Trip/IMG_20190512_171353.jpg"),
        ("Phone/DCIM/Camera/PXL_20231101_151117000.jpg", "PXL_20231101_151117000.jpg"),
    ]

    /// A root (write = "sidecars") holding ``layout``, a `none` root with one photo, and a config naming both.
    struct Setup {
        let directory: TemporaryDirectory
        let root: String
        let readOnlyRoot: String
        let config: String
        let library: String
        var log: String { IdentifierLog.path(inRoot: root) }

        init(_ name: String, write: String = "sidecars") throws {
            directory = try TemporaryDirectory(prefix: name)
            root = directory.path("Pictures").path
            readOnlyRoot = directory.path("Mirror").path
            library = directory.path("library.sqlite").path
            config = directory.path("config.toml").path
            for (source, destination) in IdentifierLogTests.layout {
                let to = root + "/" + destination
                try FileManager.default.createDirectory(
                    atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: try #require(Corpus.file(source)).path, toPath: to)
            }
            try FileManager.default.createDirectory(atPath: readOnlyRoot, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: try #require(Corpus.file("Phone/DCIM/Camera/PANO_20200524_115521.jpg")).path,
                toPath: readOnlyRoot + "/PANO_20200524_115521.jpg")
            try Data(
                """
                roots = [{ path = "\(root)", write = "\(write)" }, { path = "\(readOnlyRoot)", write = "none" }]
                library = "\(library)"

                """.utf8
            ).write(to: URL(fileURLWithPath: config))
        }

        func photos(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let config = self.config
            return try await offPool { try BuiltProducts.run("photos", arguments + ["--config", config]) }
        }

        func scan() async throws -> (status: Int32, stdout: String, stderr: String) {
            try await photos(["scan", root, readOnlyRoot])
        }

        func loseTheDatabase() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: library + suffix) }
        }

        func lines() throws -> [String] {
            String(decoding: try #require(FileManager.default.contents(atPath: log)), as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    @Test func everyIdentifierComesBackFromTheLogAfterARebuildEvenOfAPhotoMovedBetweenScans() async throws {
        let setup = try Setup("photos-idlog")
        let first = try await setup.scan()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: setup.log), "the sidecars root has its log")
        #expect(
            !FileManager.default.fileExists(atPath: IdentifierLog.path(inRoot: setup.readOnlyRoot)),
            "a root that may not be written gets no log")
        let written = try setup.lines()
        #expect(written.first == IdentifierLog.header.dropLast().description)
        #expect(written.count == Self.layout.count + 3, "header, one entry per photo, checkpoint, end: \(written)")

        // Renamed into another folder between scans: the next scan keeps the asset and logs its path.
        try FileManager.default.moveItem(
            atPath: setup.root + "/2018/20180530_212539.jpg", toPath: setup.root + "/2019/May/Trip/Moved.jpg")
        let second = try await setup.scan()
        #expect(second.status == 0, "\(second.stderr)")
        let appended = try setup.lines()
        #expect(appended.count == written.count + 2, "one entry and one checkpoint appended: \(appended)")
        #expect(appended[appended.count - 3].contains("\"path\":\"2019/May/Trip/Moved.jpg\""), "\(appended)")
        // A scan that changed nothing writes nothing.
        let unchanged = try await setup.scan()
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(try setup.lines() == appended)

        let before = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        #expect(before.count == Self.layout.count + 1)
        for file in before.keys where file.hasPrefix(setup.root + "/") {
            #expect(!FileManager.default.fileExists(atPath: file + ".xmp"), "no sidecar names \(file)")
        }
        setup.loseTheDatabase()

        let rebuilt = try await setup.photos(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(
            rebuilt.stdout.contains("\(Self.layout.count) identifiers came back from the roots' identifier logs"),
            "\(rebuilt.stdout)")
        let after = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        #expect(Set(after.keys) == Set(before.keys))
        for (file, fields) in before {
            // The `none` root keeps nothing on disk: its photo's identifier is new, the rest is the same.
            let keepsIdentifier = file.hasPrefix(setup.root + "/")
            for (key, value) in fields where key != "localIdentifier" || keepsIdentifier {
                #expect(after[file]?[key] == value, "\(file) \(key): \(after[file]?[key] ?? "absent") != \(value)")
            }
        }
        // The rebuilt library took the log over: written whole under its own name, the same mapping.
        let taken = try #require(try IdentifierLog.read(setup.log))
        #expect(taken.checkpoint?.library == (try LibraryDatabase(path: setup.library).libraryIdentifier()))
        #expect(taken.identifiers.count == Self.layout.count)
    }

    /// A photo moved by `photos mv`, with no scan after it, keeps its identifier through a rebuild:
    /// the change itself brings the log up to date.
    @Test func aPhotoMovedByTheLibraryKeepsItsIdentifierThroughARebuild() async throws {
        let setup = try Setup("photos-idlog-mv", write: "files")
        #expect(try await setup.scan().status == 0)
        let from = setup.root + "/2018/20180530_212539.jpg"
        let identifier = try #require(
            try RebuildTests.assets(LibraryDatabase(path: setup.library))[from]?["localIdentifier"])
        let moved = try await setup.photos(["mv", from, setup.root + "/2019/May/Trip"])
        #expect(moved.status == 0, "\(moved.stderr)")
        let to = setup.root + "/2019/May/Trip/20180530_212539.jpg"
        #expect(FileManager.default.fileExists(atPath: to))
        let log = try #require(try IdentifierLog.read(setup.log))
        #expect(log.identifiers["2019/May/Trip/20180530_212539.jpg"] == identifier, "\(log.identifiers)")

        setup.loseTheDatabase()
        let rebuilt = try await setup.photos(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(try RebuildTests.assets(LibraryDatabase(path: setup.library))[to]?["localIdentifier"] == identifier)
    }

    /// A favorite photo copied with its sidecar into a folder the scan reads first: the copy is a
    /// new asset, but its sidecar names the original's identifier. The rebuild gives each its own,
    /// as the log names them: it had given the original's identifier, and its albums, to the copy.
    @Test func aPhotoCopiedWithItsSidecarKeepsItsOwnIdentifierThroughARebuild() async throws {
        let setup = try Setup("photos-idlog-copy")
        #expect(try await setup.scan().status == 0)
        let original = setup.root + "/2020/October/20201027_132333.jpg"
        let favorite = try await setup.photos(["favorite", original])
        #expect(favorite.status == 0, "\(favorite.stderr)")
        #expect(FileManager.default.fileExists(atPath: original + ".xmp"), "the favorite wrote its sidecar")
        let copy = setup.root + "/0000 Copies/20201027_132333.jpg"
        try FileManager.default.createDirectory(
            atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for suffix in ["", ".xmp"] {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: copy + suffix)
        }
        #expect(try await setup.scan().status == 0)
        let before = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        let (originalIdentifier, copyIdentifier) = (
            try #require(before[original]?["localIdentifier"]), try #require(before[copy]?["localIdentifier"])
        )
        #expect(originalIdentifier != copyIdentifier)
        setup.loseTheDatabase()

        let rebuilt = try await setup.photos(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let after = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        #expect(after[original]?["localIdentifier"] == originalIdentifier)
        #expect(after[copy]?["localIdentifier"] == copyIdentifier)

        // A second copy, made since the last scan (the log has never seen it): a new identifier.
        let another = setup.root + "/0000 Copies/again.jpg"
        for suffix in ["", ".xmp"] {
            try FileManager.default.copyItem(atPath: original + suffix, toPath: another + suffix)
        }
        setup.loseTheDatabase()
        #expect(try await setup.photos(["rebuild"]).status == 0)
        let again = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        #expect(again[original]?["localIdentifier"] == originalIdentifier)
        #expect(again[another]?["localIdentifier"].map { $0 != originalIdentifier && $0 != copyIdentifier } == true)
    }

    /// `photos scan` into a library it makes (the old one lost, and no `rebuild` typed) takes the
    /// logged identifiers back before it brings the logs up to date, so the logs keep them.
    @Test func aScanIntoANewLibraryTakesTheLoggedIdentifiersBackRatherThanWritingOverThem() async throws {
        let setup = try Setup("photos-idlog-scan")
        let first = try await setup.scan()
        #expect(first.status == 0, "\(first.stderr)")
        let before = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        setup.loseTheDatabase()

        let again = try await setup.scan()
        #expect(again.status == 0, "\(again.stderr)")
        let after = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        #expect(Set(after.keys) == Set(before.keys))
        for (file, fields) in before where file.hasPrefix(setup.root + "/") {
            #expect(after[file]?["localIdentifier"] == fields["localIdentifier"], "\(file)")
        }
        // The log now names the new library, with the same mapping.
        let log = try #require(try IdentifierLog.read(setup.log))
        #expect(log.checkpoint?.library == (try LibraryDatabase(path: setup.library).libraryIdentifier()))
        let logged = Set(log.identifiers.values)
        for (file, fields) in before where file.hasPrefix(setup.root + "/") {
            #expect(logged.contains(fields["localIdentifier"] ?? ""), "\(file) is logged under its old identifier")
        }
    }

    /// A stop in the middle of an append leaves the log's last line cut: the next catch-up ends it and
    /// appends after it, and a rebuild reads every whole line.
    @Test func anIdentifierLogCutMidLineByAStopStillRebuildsEveryIdentifier() async throws {
        let setup = try Setup("photos-idlog-cut")
        #expect(try await setup.scan().status == 0)
        try FileManager.default.moveItem(
            atPath: setup.root + "/PXL_20231101_151117000.jpg", toPath: setup.root + "/2020/PXL.jpg")
        #expect(try await setup.scan().status == 0)
        // The stop: the last append's checkpoint is cut halfway.
        var data = try #require(FileManager.default.contents(atPath: setup.log))
        data.removeLast(20)
        try data.write(to: URL(fileURLWithPath: setup.log))
        #expect(try IdentifierLog.read(setup.log)?.identifiers["2020/PXL.jpg"] != nil, "the entry before it counts")
        // The next catch-up reads again from the last whole checkpoint and appends after the cut line.
        try FileManager.default.moveItem(
            atPath: setup.root + "/2018/20180530_212539.jpg", toPath: setup.root + "/2018/Renamed.jpg")
        let third = try await setup.scan()
        #expect(third.status == 0, "\(third.stderr)")
        let contents = try #require(try IdentifierLog.read(setup.log))
        #expect(contents.identifiers["2018/Renamed.jpg"] != nil && contents.identifiers["2020/PXL.jpg"] != nil)
        // Cut again, this time inside the entry of the last move (its checkpoint gone whole): the
        // photo's older entry names a path where nothing is, so only that photo is new after the
        // rebuild, and every other identifier comes back.
        let before = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        setup.loseTheDatabase()
        var lines = try setup.lines().dropLast()
        #expect(lines.removeLast().contains("\"checkpoint\""))
        #expect(try #require(lines.last).contains("2018/Renamed.jpg"))
        try Data((lines.joined(separator: "\n").dropLast(12)).utf8).write(to: URL(fileURLWithPath: setup.log))
        let rebuilt = try await setup.photos(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let after = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        let renamed = setup.root + "/2018/Renamed.jpg"
        #expect(after[renamed] != nil && after[renamed]?["localIdentifier"] != before[renamed]?["localIdentifier"])
        for (file, fields) in before where file.hasPrefix(setup.root + "/") && file != renamed {
            #expect(after[file]?["localIdentifier"] == fields["localIdentifier"], "\(file)")
        }
    }

    /// A file of the log's name that another program wrote keeps its bytes through scans and a
    /// rebuild, and the command names it.
    @Test func aFileOfTheLogsNameThatIsNotOneKeepsItsBytes() async throws {
        let setup = try Setup("photos-idlog-foreign")
        let foreign = Data("{\"mine\": true}\nsomething else\n".utf8)
        try foreign.write(to: URL(fileURLWithPath: setup.log))
        let scanned = try await setup.scan()
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(scanned.stderr.contains(setup.log), "\(scanned.stderr)")
        #expect(FileManager.default.contents(atPath: setup.log) == foreign)
        setup.loseTheDatabase()
        let rebuilt = try await setup.photos(["rebuild"])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains(setup.log), "\(rebuilt.stderr)")
        #expect(FileManager.default.contents(atPath: setup.log) == foreign)
    }

    /// A log grown far past its root's photos is written again whole at the next catch-up, with the
    /// same mapping; a rebuild from it gives every identifier back.
    @Test func aCompactedLogKeepsTheMapping() async throws {
        let setup = try Setup("photos-idlog-compact")
        #expect(try await setup.scan().status == 0)
        // 1,500 entries of photos long gone, and a checkpoint that counts them.
        var lines = try setup.lines().dropLast()  // the empty string after the last newline
        let checkpointLine = try #require(lines.last)
        let database = try LibraryDatabase(path: setup.library)
        let token = try #require(try IdentifierLog.tail(setup.log)?.checkpoint?.token)
        for index in 0..<1500 {
            lines.append("{\"id\":\"\(UUID().uuidString)/L0/001\",\"path\":\"gone/\(index).jpg\"}")
        }
        lines.append(
            IdentifierLog.line(
                .init(library: try database.libraryIdentifier(), token: token, lines: lines.count + 1)
            ).description.trimmingCharacters(in: .newlines))
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: setup.log))
        #expect(checkpointLine.contains("\"checkpoint\""))
        try FileManager.default.moveItem(
            atPath: setup.root + "/2020/October/20201027_132333.jpg", toPath: setup.root + "/2020/Compacted.jpg")
        #expect(try await setup.scan().status == 0)
        let compacted = try setup.lines()
        #expect(compacted.count == Self.layout.count + 3, "written whole: \(compacted.count) lines")
        let before = try RebuildTests.assets(database)
        let mapping = try #require(try IdentifierLog.read(setup.log)).identifiers
        for (file, fields) in before where file.hasPrefix(setup.root + "/") {
            #expect(mapping[String(file.dropFirst(setup.root.count + 1))] == fields["localIdentifier"], "\(file)")
        }
        setup.loseTheDatabase()
        #expect(try await setup.photos(["rebuild"]).status == 0)
        let after = try RebuildTests.assets(LibraryDatabase(path: setup.library))
        for (file, fields) in before where file.hasPrefix(setup.root + "/") {
            #expect(after[file]?["localIdentifier"] == fields["localIdentifier"], "\(file)")
        }
    }
}
