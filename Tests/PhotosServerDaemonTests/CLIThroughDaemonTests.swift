import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosCLI

/// `photos` through photosd's socket: the same output, byte for byte, as from the library file; the
/// change feed followed; when the usual socket is used; a socket with nothing behind it.
@Suite struct CLIThroughDaemonTests {
    /// A daemon watching a root of three corpus files in two directories, ingested.
    struct Running {
        let directory: TemporaryDirectory
        let daemon: APIDaemon
        let root: URL
        var library: String { directory.path("library.sqlite").path }
    }

    func running() async throws -> Running? {
        let names = [
            "Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Camera/2008/Nikon D3/DSC_0815.JPG",
            "Camera/2008/Pentax/IMGP2345.JPG",
        ]
        let files = names.compactMap(Corpus.file)
        guard files.count == names.count else {
            print("⚠️ CLIThroughDaemonTests: ../shared/corpus is absent; skipping")
            return nil
        }
        let directory = try TemporaryDirectory(prefix: "photos-cli-daemon")
        let root = directory.path("Pictures")
        for (index, file) in files.enumerated() {
            let folder = root.appendingPathComponent(index == 0 ? "Valley" : "Trip/Nikon")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        let daemon = try await APIDaemon(directory: directory, root: root)
        // A favorite, so that the flags column and the predicate have something to say.
        let running = Running(directory: directory, daemon: daemon, root: root)
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: running.library))
        let options = PHFetchOptions()
        options.photoLibrary = library
        let first = try #require(PHAsset.fetchAssets(with: options).firstObject)
        try library.performChangesAndWait { PHAssetChangeRequest(for: first).isFavorite = true }
        return running
    }

    func photos(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try BuiltProducts.run("photos", arguments, environment: environment)
    }

    /// Each listing, table and JSON, through the socket and from the file: the same bytes (and as
    /// many JSON lines as the library has of it).
    @Test(arguments: [
        (["assets"], 3), (["assets", "--sort", "-creationDate", "--limit", "2"], 2),
        (["assets", "--predicate", "favorite == YES"], 1), (["albums", "--user"], 2), (["folders"], 2),
        (["changes"], 2), (["changes", "--since", "1"], 1),
    ])
    func theSameOutputThroughTheSocketAsFromTheFile(command: [String], objects: Int) async throws {
        guard let running = try await running() else { return }
        for json in [false, true] {
            let form = json ? ["--json"] : []
            let file = try photos(command + form + ["--library", running.library])
            let socket = try await offPool { try photos(command + form + ["--socket", running.daemon.socket]) }
            #expect(file.status == 0, "\(file.stderr)")
            #expect(socket.status == 0, "\(socket.stderr)")
            #expect(socket.stdout == file.stdout, "\(command + form)")
            if json { #expect(socket.stdout.split(separator: "\n").count == objects, "\(socket.stdout)") }
        }
    }

    /// Every root offline (a disk unplugged): photosd's health is 503 (3114), but it serves the
    /// library, and `--socket` lists the assets, unavailable, as the file does.
    @Test func listingsGoOnThroughTheSocketWhenEveryRootIsOffline() async throws {
        guard let running = try await running() else { return }
        try FileManager.default.moveItem(at: running.root, to: running.directory.path("Unplugged"))
        try await waitUntil("photosd to find its root offline") { [socket = running.daemon.socket] in
            try await offPool { (try? UnixHTTPClient.request(socket, "GET", "/v1/health").status) == 503 }
        }
        let file = try photos(["assets", "--json", "--library", running.library])
        let socket = try await offPool { try photos(["assets", "--json", "--socket", running.daemon.socket]) }
        #expect(socket.status == 0, "\(socket.stderr)")
        #expect(socket.stdout == file.stdout)
        #expect(socket.stdout.split(separator: "\n").count == 3 && socket.stdout.contains("\"isAvailable\":false"))
    }

    /// All albums: the directories' (two), and the smart albums, in the file's order.
    @Test func allAlbumsThroughTheSocket() async throws {
        guard let running = try await running() else { return }
        let file = try photos(["albums", "--json", "--library", running.library])
        let socket = try await offPool { try photos(["albums", "--json", "--socket", running.daemon.socket]) }
        #expect(socket.stdout == file.stdout)
        #expect(socket.stdout.components(separatedBy: "\"type\":\"album\"").count - 1 == 2, "\(socket.stdout)")
        #expect(socket.stdout.contains("\"type\":\"smartAlbum\""))
    }

    /// `changes --follow --since 0` through the socket prints the history, then a new file's entry
    /// as it commits, the same line as the file's history says.
    @Test func followingTheChangesThroughTheSocket() async throws {
        guard let running = try await running(),
            let added = Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")
        else { return }
        let history = try photos(["changes", "--json", "--library", running.library]).stdout
            .split(separator: "\n").map(String.init)
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        process.arguments = ["changes", "--follow", "--since", "0", "--json", "--socket", running.daemon.socket]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let lines = LineReader(output)
        let seen = try await offPool { try (0..<history.count).map { _ in try #require(lines.next()) } }
        #expect(seen == history)

        try FileManager.default.copyItem(at: added, to: running.root.appendingPathComponent("Valley/again.jpg"))
        let next = try #require(await offPool { lines.next() })
        #expect(next.contains("\"inserted\":[\""), "\(next)")
        let after = try photos(["changes", "--json", "--library", running.library]).stdout
            .split(separator: "\n").map(String.init)
        #expect(after.count == history.count + 1)
        #expect(after.last == next)
        process.terminate()
        try await waitForExit(of: process, "photos changes --follow to end on SIGTERM", timeout: .seconds(10))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
    }

    /// The usual socket is asked only for the usual library, and only when no flag says otherwise.
    @Test func theUsualSocketServesOnlyItsOwnLibrary() async throws {
        guard let running = try await running() else { return }
        let runtime = (running.daemon.socket as NSString).deletingLastPathComponent
        let served = ["XDG_RUNTIME_DIR": runtime, "PHOTOS_LIBRARY": running.library]
        let other = ["XDG_RUNTIME_DIR": runtime, "PHOTOS_LIBRARY": running.directory.path("other.sqlite").path]
        let socket = running.daemon.socket
        let library = running.library
        // Each answer: the socket chosen, or nil for the file.
        let chosen = try await offPool { () throws -> [String?] in
            [
                try DaemonOptions.parse([]).daemon(for: LibraryOptions.parse([]), environment: served)?.socket,
                try DaemonOptions.parse([]).daemon(for: LibraryOptions.parse([]), environment: other)?.socket,
                try DaemonOptions.parse([]).daemon(
                    for: LibraryOptions.parse(["--library", library]), environment: served)?
                    .socket,
                try DaemonOptions.parse(["--no-daemon"]).daemon(for: LibraryOptions.parse([]), environment: served)?
                    .socket,
                try DaemonOptions.parse(["--socket", socket]).daemon(
                    for: LibraryOptions.parse(["--library", "/elsewhere"]), environment: [:])?.socket,
            ]
        }
        #expect(chosen == [socket, nil, nil, nil, socket])
        #expect(throws: (any Error).self) { try DaemonOptions.parse(["--no-daemon", "--socket", socket]) }
    }

    @Test func aSocketWithNothingBehindItIsAnError() throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-nothing")
        let socket = directory.path("photosd.sock").path
        for command in [["assets"], ["albums"], ["folders"], ["changes", "--follow"]] {
            let output = try photos(command + ["--socket", socket])
            #expect(output.status != 0)
            #expect(output.stderr.contains("photosd is not running on \(socket)"), "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
    }

    /// `--token` (or `$PHOTOS_TOKEN`) makes `photos` a client of that token's level: a limited one
    /// lists its album's assets only; a bad one is the daemon's 401, said as it is.
    @Test func aTokenMakesPhotosAClientOfItsLevel() async throws {
        guard let running = try await running() else { return }
        let socket = running.daemon.socket
        let made = try photos([
            "token", "create", "--access", "limited", "--album", running.root.appendingPathComponent("Valley").path,
            "--library", running.library,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let token = try #require(made.stdout.split(whereSeparator: \.isWhitespace).last.map(String.init))
        let all = try photos(["assets", "--json", "--socket", socket])
        #expect(all.stdout.split(separator: "\n").count == 3, "\(all.stderr)")
        let limited = try photos(["assets", "--json", "--socket", socket, "--token", token])
        #expect(limited.status == 0, "\(limited.stderr)")
        #expect(limited.stdout.split(separator: "\n").count == 1 && limited.stdout.contains("FurnaceCreekInn"))
        let fromEnvironment = try photos(
            ["assets", "--json", "--socket", socket], environment: ["PHOTOS_TOKEN": token])
        #expect(fromEnvironment.stdout == limited.stdout)
        let bad = try photos(["assets", "--json", "--socket", socket, "--token", "pht_nope"])
        #expect(bad.status != 0 && bad.stderr.contains("unknown, revoked or expired"), "\(bad.stderr)")
    }
}
