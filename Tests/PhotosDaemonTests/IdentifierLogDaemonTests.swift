import Foundation
import Photos
import PhotosSidecars
import PhotosStore
import PhotosTestSupport
import Testing

/// The real `photosd` keeps the identifier log of a root with `write = "sidecars"` as photos arrive
/// and move, and, started on a library that is not there, gives every photo its identifier back
/// from it.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct IdentifierLogDaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-idlog") }

    /// Each photo's path and local identifier, read from the library file.
    func identifiers() throws -> [String: String] {
        let database = try LibraryDatabase(path: library)
        return try database.assetFiles(under: root.path).files.reduce(into: [:]) { $0[$1.path] = $1.localIdentifier }
    }

    @Test func aPhotoMovedWhilePhotosdRanKeepsItsIdentifierWhenPhotosdRebuildsAMissingLibrary() async throws {
        try writeConfig("roots = [{ path = \"\(root.path)\", write = \"sidecars\" }]\nsettle_ms = 0\n")
        try put("Phone/DCIM/Camera/20201027_132333.jpg", at: "2020/October/A.jpg")
        try put("Phone/DCIM/Camera/20180530_212539.jpg", at: "2018/B.jpg")
        try put("Phone/DCIM/Camera/PXL_20231101_151117000.jpg", at: "C.jpg")
        let logPath = IdentifierLog.path(inRoot: root.path)
        let first = try await offPool { [fixture] in try fixture.start(["--config", fixture.config.path]) }
        #expect(try IdentifierLog.read(logPath)?.identifiers.count == 3, "written after the startup scan")

        // Renamed into another folder while photosd runs: the log follows after the scan that sees it.
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("2019/Trip"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: root.appendingPathComponent("2018/B.jpg"), to: root.appendingPathComponent("2019/Trip/Moved.jpg"))
        try await offPool {
            try blockUntil("the move in the identifier log", whileRunning: first.process) {
                try IdentifierLog.read(logPath)?.identifiers["2019/Trip/Moved.jpg"] != nil
            }
        }
        try await offPool { try first.stop() }
        let before = try identifiers()
        #expect(before.count == 3 && before[root.path + "/2019/Trip/Moved.jpg"] != nil)

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: library + suffix) }
        let second = try await offPool { [fixture] in
            try fixture.start(["--config", fixture.config.path, "--log-level", "notice"])
        }
        try await offPool { try second.stop() }
        #expect(try identifiers() == before, "every identifier back, by path")
        #expect(fixture.logText.contains("identifiers brought back"), "\(fixture.logText)")
        #expect(fixture.logText.contains("identifiers=3"), "\(fixture.logText)")
        #expect(try IdentifierLog.read(logPath)?.identifiers.count == 3)
    }
}
