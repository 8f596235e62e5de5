import Foundation
import Glibc
import Photos
import PhotosLinux
import PhotosTestSupport
import Testing

/// What `photos` prints of hostile names (controls, escapes, bytes that are not UTF-8), and what
/// it does with a directory or file it cannot read, on real files with the built binary.
@Suite struct EscapingAndUnreadableTests {
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments)
    }

    func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Writes `content` to the file whose path is `bytes`, with `open` (Foundation would re-encode).
    static func write(_ content: Data, to bytes: [UInt8]) throws {
        let fd = (bytes + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) {
                open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            }
        }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = content.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == content.count else { throw POSIXError(.EIO) }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func tablesEscapeNamesAndJSONKeepsThemApart() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-names")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let other = try Data(contentsOf: try #require(Corpus.file("Camera/1997/Ricoh/RIMG0001.JPG")))
        let truncated = try Data(contentsOf: try #require(Corpus.file("Bad/truncated.jpg")))
        let base = Array(root.utf8) + [0x2F]
        try Self.write(jpeg, to: base + Array("new\nline.jpg".utf8))
        try Self.write(other, to: base + Array("\u{1B}[31mred\u{1B}[0m.jpg".utf8))
        try Self.write(jpeg, to: base + Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        try Self.write(other, to: base + Array("caf\u{FFFD}.jpg".utf8))
        try Self.write(truncated, to: base + Array("bad\tname\r.jpg".utf8))
        // Kept: a one-off scan takes a file modified in the last half second as still being written
        // (FolderScanner's quiet time, measured against the clock): only time settles it.
        Thread.sleep(forTimeInterval: 0.6)  // Let the new files settle.
        let library = directory.path("library.sqlite").path
        let scan = try run(["scan", "--library", library, "--json", root])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try jsonLines(scan.stdout).first?["ingested"] as? Int == 4, "\(scan.stdout)")

        let table = try run(["assets", "--library", library])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(!table.stdout.contains("\u{1B}") && !table.stdout.contains("\r") && !table.stdout.contains("\t"))
        let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 5, "a header and one line per asset:\n\(table.stdout)")
        for name in ["new\\nline.jpg", "\\x1B[31mred\\x1B[0m.jpg", "caf\\xE9.jpg", "caf\u{FFFD}.jpg"] {
            #expect(lines.contains { $0.hasSuffix(root + "/" + name) }, "\(name) in\n\(table.stdout)")
        }
        // The last column starts at the same place on every line, whatever the names hold.
        let starts = Set(
            lines.dropFirst().map { line in line.distance(from: line.startIndex, to: line.range(of: root)!.lowerBound) }
        )
        #expect(
            starts.count == 1
                && lines.first.map { $0.distance(from: $0.startIndex, to: $0.range(of: "FILE")!.lowerBound) }
                    == starts.first
        )

        let rejected = try run(["rejected", "--library", library])
        #expect(
            rejected.stdout.contains(root + "/bad\\tname\\r.jpg") && !rejected.stdout.contains("\t"),
            "\(rejected.stdout)")

        // JSON: valid, one line per asset, names as the library holds them (an undecodable byte is
        // its code point U+EF80–U+EFFF), so the two cafés are two different paths.
        let json = try run(["assets", "--library", library, "--json"])
        let paths = try jsonLines(json.stdout).compactMap {
            ($0["resources"] as? [[String: Any]])?.first?["path"] as? String
        }
        #expect(paths.count == 4 && Set(paths).count == 4)
        #expect(paths.contains(root + "/caf\u{EFE9}.jpg") && paths.contains(root + "/caf\u{FFFD}.jpg"))
        #expect(paths.contains(root + "/new\nline.jpg"))
        #expect(Set(paths.map(PathBytes.bytes)).contains(base + Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)))
    }

    /// A file whose name is not UTF-8 named on the command line is that file (its bytes, not a
    /// repaired name with U+FFFD that names nothing), as the source and as the output alike.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPathThatIsNotUTF8NamesItsFileOnTheCommandLine() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-argv")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        try Self.write(jpeg, to: Array(root.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8))
        Thread.sleep(forTimeInterval: 0.6)  // Kept: a one-off scan waits for files written in the last half second.
        let library = directory.path("library.sqlite").path
        #expect(try run(["scan", "--library", library, root]).status == 0)
        // The shell's printf makes the byte; Swift's strings would re-encode it.
        let photos = BuiltProducts.directory.appendingPathComponent("photos").path
        let script = #"""
            "$0" favorite --library "$1" "$(printf '%s/caf\351.jpg' "$2")" &&
            "$0" thumbnail --library "$1" "$(printf '%s/caf\351.jpg' "$2")" --output "$(printf '%s/t\351.jpg' "$3")"
            """#
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, photos, library, root, directory.url.path]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        let favorites = try run(["assets", "--library", library, "--predicate", "favorite == YES", "--json"])
        #expect(try jsonLines(favorites.stdout).count == 1, "\(favorites)")
        let thumbnail = Array(directory.url.path.utf8) + Array("/t".utf8) + [0xE9] + Array(".jpg".utf8)
        var info = stat()
        let found = (thumbnail + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
        }
        #expect(found == 0 && info.st_size > 0, "the thumbnail written under the name given")
    }

    /// Runs `photos` as the unprivileged user `nobody` (root reads any directory whatever its mode).
    func runAsNobody(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let photos = BuiltProducts.directory.appendingPathComponent("photos").path
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", photos] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    static var canDropPrivileges: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    @Test(.enabled(if: Corpus.isAvailable && canDropPrivileges, "needs ../shared/corpus, root and setpriv"))
    func aRealUnreadableDirectoryIsKeptAndAnUnreadableFileIsRejected() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-unreadable")
        let root = directory.path("Pictures")
        let manager = FileManager.default
        for (source, name) in [
            ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Trip/a.jpg"),
            ("Camera/1997/Ricoh/RIMG0001.JPG", "Other/c.jpg"),
            ("Camera/2002/Fujifilm/DSCF0001.JPG", "locked.jpg"),
        ] {
            try manager.createDirectory(
                at: root.appendingPathComponent(name).deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: try #require(Corpus.file(source)), to: root.appendingPathComponent(name))
        }
        // Readable by nobody, except the locked file; the library lives where nobody can write.
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        try manager.setAttributes(
            [.posixPermissions: 0o000], ofItemAtPath: root.appendingPathComponent("locked.jpg").path)
        let libraryDirectory = directory.path("library")
        try manager.createDirectory(at: libraryDirectory, withIntermediateDirectories: true)
        try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: libraryDirectory.path)
        let library = libraryDirectory.appendingPathComponent("library.sqlite").path
        // Kept: a one-off scan takes a file modified in the last half second as still being written
        // (FolderScanner's quiet time, measured against the clock): only time settles it.
        Thread.sleep(forTimeInterval: 0.6)  // Let the copies settle.

        var scan = try runAsNobody(["scan", "--library", library, "--json", root.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        var report = try #require(try jsonLines(scan.stdout).first)
        #expect(report["ingested"] as? Int == 2 && report["rejected"] as? Int == 1, "\(scan.stdout)")
        let rejected = try jsonLines(try runAsNobody(["rejected", "--library", library, "--json"]).stdout)
        #expect(rejected.map { $0["path"] as? String } == [root.appendingPathComponent("locked.jpg").path])
        #expect((rejected.first?["reason"] as? String)?.isEmpty == false)
        func assets() throws -> [String: (id: String, available: Bool)] {
            var byPath: [String: (String, Bool)] = [:]
            for asset in try jsonLines(try runAsNobody(["assets", "--library", library, "--json"]).stdout) {
                let path = try #require((asset["resources"] as? [[String: Any]])?.first?["path"] as? String)
                byPath[path] = (
                    try #require(asset["localIdentifier"] as? String), try #require(asset["isAvailable"] as? Bool)
                )
            }
            return byPath
        }
        let before = try assets()
        let a = root.appendingPathComponent("Trip/a.jpg").path
        #expect(before[a]?.available == true && before.count == 2)

        // Trip loses its permissions: opendir fails with EACCES for nobody.
        let trip = root.appendingPathComponent("Trip").path
        try manager.setAttributes([.posixPermissions: 0o000], ofItemAtPath: trip)
        scan = try runAsNobody(["scan", "--library", library, "--json", root.path])
        report = try #require(try jsonLines(scan.stdout).first)
        #expect(report["removed"] as? Int == 0, "\(scan.stdout)")
        let unreadable = report["unreadableDirectories"] as? [[String: Any]]
        #expect(
            unreadable?.map { $0["path"] as? String } == [trip] && unreadable?.first?["code"] as? Int == Int(EACCES))
        let during = try assets()
        #expect(during[a]?.id == before[a]?.id && during[a]?.available == false, "kept, unavailable")
        let summary = try runAsNobody(["scan", "--library", library, root.path])
        #expect(summary.stderr.contains("unreadable: \(trip)"), "\(summary.stderr)")

        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: trip)
        scan = try runAsNobody(["scan", "--library", library, "--json", root.path])
        report = try #require(try jsonLines(scan.stdout).first)
        #expect(report["removed"] as? Int == 0 && (report["unreadableDirectories"] as? [Any])?.isEmpty == true)
        let after = try assets()
        #expect(after[a]?.id == before[a]?.id && after[a]?.available == true)
    }
}

extension EscapingAndUnreadableTests {
    /// A photo whose name is not UTF-8 keeps its sidecar beside it: `photos rate` writes it, and
    /// `photos mv` and `photos rm` take it along (their listing of the folder reads names as bytes).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aPhotoWhoseNameIsNotUTF8TakesItsSidecarAlong() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-byte-sidecar")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/A", withIntermediateDirectories: true)
        // The album to move into is a folder whose name is not UTF-8 either ("B\xE9").
        #expect(
            (Array(root.utf8) + Array("/B".utf8) + [0xE9, 0]).withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
            } == 0)
        let folder = root + "/B\u{EFE9}"
        let jpeg = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let other = try Data(contentsOf: try #require(Corpus.file("Camera/1997/Ricoh/RIMG0001.JPG")))
        let name = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        try Self.write(jpeg, to: Array(root.utf8) + Array("/A/".utf8) + name)
        try Self.write(other, to: Array(root.utf8) + Array("/B".utf8) + [0xE9] + Array("/keep.jpg".utf8))
        let config = directory.path("config.toml").path
        try Data("roots = [{ path = \"\(root)\", write = \"files\" }]\nsocket = \"\"\n".utf8)
            .write(to: URL(fileURLWithPath: config))
        let library = directory.path("library.sqlite").path
        let environment = [
            "XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path,
            "XDG_CONFIG_HOME": directory.path("config-home").path, "XDG_RUNTIME_DIR": directory.path("run").path,
        ]
        func photos(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let result = try BuiltProducts.run(
                "photos", arguments + ["--library", library, "--config", config], environment: environment)
            #expect(result.status == 0, "photos \(arguments): \(result.stderr)")
            return result
        }
        Thread.sleep(forTimeInterval: 0.6)  // A one-off scan waits for files changed in the last half second.
        _ = try photos(["scan", root])
        let photo = root + "/A/caf\u{EFE9}.jpg"
        let identifier = try #require(
            try jsonLines(try photos(["assets", "--json"]).stdout).first {
                ($0["resources"] as? [[String: Any]])?.first?["path"] as? String == photo
            }?["localIdentifier"] as? String)
        _ = try photos(["rate", identifier, "4"])
        func names(_ folder: String) -> [String] {
            ((try? FileOperations.names(in: folder)) ?? []).map { PathBytes.displayed($0) }.sorted()
        }
        #expect(names(root + "/A") == ["caf\\xE9.jpg", "caf\\xE9.jpg.xmp"])

        let album = try #require(
            try jsonLines(try photos(["albums", "--user", "--json"]).stdout).first {
                $0["localizedTitle"] as? String == "B\u{EFE9}"
            }?["localIdentifier"] as? String)
        _ = try photos(["mv", identifier, album])
        #expect(names(root + "/A").isEmpty, "the sidecar moved with its photo")
        #expect(names(folder) == ["caf\\xE9.jpg", "caf\\xE9.jpg.xmp", "keep.jpg"])

        _ = try photos(["rm", identifier])
        #expect(names(folder) == ["keep.jpg"], "the sidecar went to the Trash with its photo")
        #expect(names(directory.path("data/Trash/files").path) == ["caf\\xE9.jpg", "caf\\xE9.jpg.xmp"])
    }
}
