import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

/// The hooks shipped in `Examples/hooks/` against hostile names: album titles that climb out of
/// the backup (`../../outside`), titles and file names with newlines, tabs, escape sequences and a
/// leading `-`. Examples are what people copy; each must keep what it writes inside its folder
/// and its lines whole.
extension HookDaemonTests {
    static func example(_ name: String) -> String {
        Corpus.packageRoot.appendingPathComponent("Examples/hooks/\(name)").path
    }

    /// Every file under `directory`, relative to it.
    static func files(under directory: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { name in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        }
    }

    /// Runs an example hook program with `payload` on its standard input, as photosd does.
    static func runExample(_ command: [String], payload: [String: Any]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: payload))
        try input.fileHandleForWriting.close()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        let outputText = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputText, as: UTF8.self),
            String(decoding: errorText, as: UTF8.self)
        )
    }

    /// Album titles and file names an attacker (any limited token, any file's author) can choose.
    static let hostileTitles = [
        "../../outside", "..", ".", "", "-rf", "a/b", "new\nline", "tab\there", "esc\u{1B}[31mred", "/etc",
        "'$(touch pwned)'", String(repeating: "x", count: 300),
    ]
    static let hostileFileNames = [
        "new\nline.jpg", "tab\there.jpg", "-rf.jpg", "--help.jpg", "esc\u{1B}[2J.jpg", " .jpg",
    ]

    /// A payload of favorites: each hostile file in a hostile user album, and one in an album folder
    /// that tries to climb out (`ROOT/../..`).
    func hostilePayload(files: [URL]) -> [String: Any] {
        var assets: [[String: Any]] = []
        for (index, file) in files.enumerated() {
            let title = Self.hostileTitles[index % Self.hostileTitles.count]
            assets.append([
                "localIdentifier": "A\(index)/L0/001", "isFavorite": true, "mediaType": "image",
                "creationDate": "2024-01-0\(index % 9 + 1)T10:00:00+01:00", "location": NSNull(),
                "albums": [["localIdentifier": "U\(index)/L0/010", "localizedTitle": title, "path": NSNull()]],
                "resources": [["type": "photo", "path": file.path]],
            ])
        }
        for (index, title) in Self.hostileTitles.enumerated() where index >= files.count {
            assets.append([
                "localIdentifier": "T\(index)/L0/001", "isFavorite": true, "mediaType": "image", "location": NSNull(),
                "albums": [["localIdentifier": "U\(index)/L0/010", "localizedTitle": title, "path": NSNull()]],
                "resources": [["type": "photo", "path": files[0].path]],
            ])
        }
        assets.append([
            "localIdentifier": "C/L0/001", "isFavorite": true, "mediaType": "image", "location": NSNull(),
            "albums": [["localIdentifier": "D/L0/010", "localizedTitle": "up", "path": root.path + "/../.."]],
            "resources": [["type": "photo", "path": files[0].path]],
        ])
        return [
            "hook": "example", "since": 1, "until": 2, "expired": false,
            "changes": [
                [
                    "token": 2, "assets": ["inserted": assets, "updated": [], "deleted": []],
                    "assetCollections": [String: Any](), "collectionLists": [String: Any](),
                ]
            ],
        ]
    }

    func hostileFiles() throws -> [URL] {
        let folder = root.appendingPathComponent("odd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try Self.hostileFileNames.enumerated().map { index, name in
            let file = folder.appendingPathComponent(name)
            try Data("photo \(index)".utf8).write(to: file)
            return file
        }
    }

    @Test func theBackupExampleKeepsHostileTitlesAndNamesInsideTheBackup() throws {
        let files = try hostileFiles()
        let backup = directory.path("backup/inner")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let result = try Self.runExample(
            [Self.example("backup-favorites.sh"), backup.path], payload: hostilePayload(files: files))
        #expect(result.status == 0, "\(result.stderr)")
        // Nothing outside the backup: not beside it, not above it, not in the working directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("backup").path) == ["inner"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == ["Pictures", "backup", "hook-output"])
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
        let copies = Self.files(under: backup)
        // Each hostile file copied, byte for byte, under Albums/<one component>/ (or Unfiled/, for
        // the asset whose only album folder climbs).
        for (index, file) in files.enumerated() {
            let copied = copies.filter { $0.hasSuffix("/" + file.lastPathComponent) }
            #expect(!copied.isEmpty, "\(file.lastPathComponent) not copied: \(copies)")
            for copy in copied {
                let parts = copy.split(separator: "/", omittingEmptySubsequences: false)
                #expect(
                    (parts.first == "Albums" && parts.count == 3) || (parts.first == "Unfiled" && parts.count == 2),
                    "\(copy)")
                #expect(
                    FileManager.default.contents(atPath: backup.appendingPathComponent(copy).path)
                        == Data("photo \(index)".utf8))
            }
        }
        #expect(copies.contains("Unfiled/" + files[0].lastPathComponent))
        #expect(copies.allSatisfy { $0.hasPrefix("Albums/") || $0.hasPrefix("Unfiled/") }, "\(copies)")
        // Every album folder is one safe component; "" and "." both become "_".
        let albums = try FileManager.default.contentsOfDirectory(atPath: backup.appendingPathComponent("Albums").path)
        #expect(albums.count == Self.hostileTitles.count - 1, "\(albums)")
        for album in albums {
            #expect(album != "." && album != ".." && !album.hasPrefix("-") && !album.hasPrefix("."))
            #expect(!album.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(album)")
            #expect(album.utf8.count <= 255)
        }
    }

    @Test func theLogExampleWritesOneLineOfPlainTextPerHostileName() throws {
        let files = try hostileFiles()
        let log = directory.path("photos.log")
        let payload = hostilePayload(files: files)
        let result = try Self.runExample([Self.example("log-new-photos.sh"), log.path], payload: payload)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let inserted = Self.assets(payload)
        #expect(lines.count == inserted.count)
        for line in lines {
            #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 4, "\(line)")
            #expect(
                !line.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
        }
        // The names are there, escaped, not lost.
        #expect(text.contains("odd/new\\nline.jpg\n"))
        #expect(text.contains("odd/esc\\u001b[2J.jpg\n"))
    }

    @Test func theSummaryExamplePrintsNoHostileText() throws {
        let files = try hostileFiles()
        let result = try Self.runExample(
            ["/usr/bin/env", "jq", "-r", "-f", Self.example("summarize.jq")], payload: hostilePayload(files: files))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "token 2: \(Self.assets(hostilePayload(files: files)).count) assets inserted\n")
    }

    /// The issue's case end to end: a favorite in a user album titled to climb out of the backup,
    /// under the real photosd.
    @Test func theBackupExampleUnderPhotosdKeepsAClimbingAlbumTitleInside() async throws {
        let backup = directory.path("backup/inner")
        try writeConfig(
            """
            [[hooks]]
            name = "backup-favorites"
            command = ["\(Self.example("backup-favorites.sh"))", "\(backup.path)"]
            objects = ["asset"]
            changes = ["inserted", "updated"]
            predicate = "favorite == YES"
            """)
        let daemon = try startDaemon()
        try put(Self.photo, at: "inn.jpg")
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        try await waitUntil("ingested") { PHAsset.fetchAssets(with: options).count == 1 }
        let inn = try #require(PHAsset.fetchAssets(with: options).firstObject)
        try library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "../../outside")
            album.addAssets([inn] as NSArray)
        }
        try library.performChangesAndWait { PHAssetChangeRequest(for: inn).isFavorite = true }
        try await waitUntil("the favorite backed up") {
            Self.files(under: backup).contains { $0.hasSuffix("/inn.jpg") }
        }
        try daemon.stop()
        #expect(!FileManager.default.fileExists(atPath: directory.path("outside").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("backup").path) == ["inner"])
        let copy = try #require(Self.files(under: backup).first { $0.hasSuffix("/inn.jpg") })
        #expect(!copy.contains(".."))
        // The root is the photo's album folder, which wins over the user album's title: the title's
        // own path is what the hostile payload test above drives.
        #expect(copy == String(root.path.dropFirst()) + "/inn.jpg")
        #expect(
            FileManager.default.contentsEqual(
                atPath: backup.appendingPathComponent(copy).path, andPath: root.appendingPathComponent("inn.jpg").path))
    }
}
