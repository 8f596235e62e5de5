import Foundation
import Glibc
import PhotosLinux
import PhotosTestSupport
import Testing

/// `photos scan` of a root that is not there says so and fails; `photos changes --follow` starts
/// at the next commit unless `--since` says where to resume.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ScanAndFollowCLITests {
    static let photo = Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")!
    static let other = Corpus.file("Camera/1997/Ricoh/RIMG0001.JPG")!

    let directory: TemporaryDirectory
    var library: String { directory.path("library.sqlite").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-scan-follow")
        for (folder, file) in [("Pictures", Self.photo), ("More", Self.other)] {
            let root = directory.path(folder)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: file, to: root.appendingPathComponent(file.lastPathComponent))
        }
    }

    @Test func aRootThatIsNotThereFailsTheScanAndTheOthersAreScanned() async throws {
        let missing = directory.path("Picturs").path
        let scan = try await offPool {
            try BuiltProducts.run(
                "photos", ["scan", "--library", self.library, missing, self.directory.path("Pictures").path])
        }
        #expect(scan.status == 1, "\(scan.stderr)")
        #expect(
            scan.stderr.contains("not scanned: \(missing) does not exist (it is not made a root)"), "\(scan.stderr)")
        #expect(scan.stderr.contains("1 ingested"), "\(scan.stderr)")
        // A path the library never read is no root of it: no warning of an offline root after.
        let listed = try await offPool { try BuiltProducts.run("photos", ["assets", "--library", self.library]) }
        #expect(listed.status == 0 && !listed.stderr.contains("offline"), "\(listed.stderr)")
        // JSON too: the report on standard output, the reason on standard error, the status 1.
        let json = try await offPool {
            try BuiltProducts.run("photos", ["scan", "--json", "--library", self.library, missing])
        }
        #expect(json.status == 1 && json.stdout.contains("\"offlineRoots\""), "\(json.stdout)")
        #expect(json.stderr.contains("not scanned: \(missing) does not exist"), "\(json.stderr)")
        // A root the library read, gone: offline, its assets kept.
        let pictures = directory.path("Pictures").path
        try FileManager.default.moveItem(atPath: pictures, toPath: directory.path("Unplugged").path)
        let gone = try await offPool { try BuiltProducts.run("photos", ["scan", "--library", self.library, pictures]) }
        #expect(gone.stderr.contains("offline: \(pictures) does not exist; its assets are kept"), "\(gone.stderr)")
        try FileManager.default.moveItem(atPath: directory.path("Unplugged").path, toPath: pictures)
        let fine = try await offPool {
            try BuiltProducts.run("photos", ["scan", "--library", self.library, self.directory.path("Pictures").path])
        }
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// A rebuild from roots one of which cannot be read (a drive not mounted, a misspelt name) would
    /// make a library without that root's photos: it stops before anything is written.
    @Test func aRebuildWithARootThatCannotBeReadLeavesTheLibraryAsItWas() async throws {
        let pictures = directory.path("Pictures").path
        let scan = try await offPool {
            try BuiltProducts.run("photos", ["scan", "--library", self.library, pictures])
        }
        #expect(scan.status == 0, "\(scan.stderr)")
        let before = try FileOperations.identity(library)
        for roots in [[pictures, directory.path("Usb").path], [directory.path("Pictur").path]] {
            let rebuild = try await offPool {
                try BuiltProducts.run("photos", ["rebuild", "--library", self.library] + roots)
            }
            #expect(rebuild.status == 1, "\(rebuild.stdout)")
            #expect(
                rebuild.stderr.contains("cannot read the root \(roots.last!) (no such directory): nothing was rebuilt"),
                "\(rebuild.stderr)")
            #expect(try FileOperations.identity(library)?.inode == before?.inode, "the library is the same file")
            #expect(!FileManager.default.fileExists(atPath: library + ".before-rebuild"))
        }
        let listed = try await offPool { try BuiltProducts.run("photos", ["assets", "--library", self.library]) }
        #expect(listed.stdout.contains("FurnaceCreekInn.jpg"), "\(listed.stdout)")
    }

    /// An empty path (in a script, a variable never set) is refused before anything runs: it would
    /// otherwise be the working directory, and `photos import` would move what lies there.
    @Test func anEmptyPathIsRefusedRatherThanReadAsTheWorkingDirectory() async throws {
        let pictures = directory.path("Pictures").path
        let libraryOption = ["--library", self.library]
        let commands: [[String]] = [
            ["import", "", "--to", pictures] + libraryOption, ["import", pictures, "--to", ""] + libraryOption,
            ["scan", ""] + libraryOption, ["rebuild", ""] + libraryOption, ["assets", "--library", ""],
            ["assets", "--config", ""] + libraryOption, ["library", "copy", "", self.library],
        ]
        for arguments in commands {
            let run = try await offPool { try BuiltProducts.run("photos", arguments) }
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("is an empty path (an unset variable?)"), "\(arguments): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: library), "nothing ran")
    }

    @Test func followingStartsAtTheNextCommitAndSinceResumes() async throws {
        let first = try await offPool {
            try BuiltProducts.run("photos", ["scan", "--library", self.library, self.directory.path("Pictures").path])
        }
        #expect(first.status == 0, "\(first.stderr)")
        let follower = TestProcess()
        follower.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        follower.arguments = ["changes", "--follow", "--json", "--no-daemon", "--library", library]
        let output = Pipe()
        follower.standardOutput = output
        try follower.run()
        defer {
            if follower.isRunning {
                kill(follower.processIdentifier, SIGKILL)
                follower.waitUntilExit()
            }
        }
        // The follower reads the current token, then watches the library's directory: once the watch
        // is there, the next commit is after its start (a late start would miss the commit and fail
        // below, never pass wrongly: the history's first entry is token 1).
        let libraryDirectory = directory.url
        try await waitUntil("photos changes --follow to watch the library", whileRunning: follower) {
            try InotifyWatches.count(on: libraryDirectory, process: follower.processIdentifier) > 0
        }
        let second = try await offPool {
            try BuiltProducts.run("photos", ["scan", "--library", self.library, self.directory.path("More").path])
        }
        #expect(second.status == 0, "\(second.stderr)")
        let reading = output.fileHandleForReading
        let line = try #require(try await offPool { Self.firstLine(of: reading, within: 20) })
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let log = try await offPool {
            try BuiltProducts.run("photos", ["changes", "--json", "--no-daemon", "--library", self.library])
        }
        let tokens = log.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["token"] as? Int
        }
        #expect(tokens.count >= 2 && entry["token"] as? Int == tokens.last, "\(line)")
        // --since resumes: everything after the first scan's entries, without following.
        let since = "\(tokens[0])"
        let resumed = try await offPool {
            try BuiltProducts.run(
                "photos", ["changes", "--json", "--no-daemon", "--library", self.library, "--since", since])
        }
        #expect(resumed.stdout.split(separator: "\n").count == tokens.count - 1)
    }

    /// The first line written to `handle`, waiting at most `seconds`.
    static func firstLine(of handle: FileHandle, within seconds: Double) -> String? {
        let descriptor = handle.fileDescriptor
        var collected: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == 10 { return String(decoding: collected, as: UTF8.self) }
            collected.append(byte)
        }
        return nil
    }
}
