import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// The README's five-minute tour, run as a reader would run it: its shell blocks (each marked
/// `<!-- tour -->`), in order, in one bash, from the package's root, with the built `photos` and
/// `photosd`, in a home of its own holding a few corpus photos. Every command must succeed
/// (`set -e`, `pipefail`), and what the guide says each step shows must be in the output.
struct ReadmeTourTests {
    /// The photos the tour's `$PICTURES` holds (corpus path, name under `Pictures`), and the one
    /// it copies in while following changes.
    static let pictures = [
        ("Camera/2021/Norway/aurora.jpg", "Norway/aurora.jpg"),
        ("Camera/1999/Minolta/PICT0001.JPG", "Minolta/PICT0001.JPG"),
        ("Phone/DCIM/100APPLE/IMG_0004.JPG", "Phone/IMG_0004.JPG"),
    ]
    static let newPhoto = "Phone/DCIM/100APPLE/IMG_6100.JPG"

    @Test func theTourFindsItsBlocksAndTheyCoverWhatTheGuidePromises() throws {
        let script = try Tour.script()
        for promise in [
            "photos scan", "photos assets", "[[hooks]]", "photosd", "photos changes --follow",
            "curl -s --unix-socket", "photos hooks status",
        ] {
            #expect(script.contains(promise), "the tour no longer shows \(promise)")
        }
    }

    @Test func everyCommandOfTheTourRunsAndShowsWhatTheGuideSays() async throws {
        guard let corpus = Corpus.root else { return }
        let products = BuiltProducts.directory
        for binary in ["photos", "photosd"] {
            let path = products.appendingPathComponent(binary).path
            try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is not built")
        }
        let scratch = try TemporaryDirectory(prefix: "tour")
        let home = scratch.path("home")
        let pictures = home.appendingPathComponent("Pictures")
        let runtime = scratch.path("run")
        let temporary = scratch.path("tmp")
        for directory in [pictures, runtime, temporary] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        chmod(runtime.path, 0o700)
        for (source, name) in Self.pictures {
            let destination = pictures.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(source), to: destination)
        }
        let newPhoto = corpus.appendingPathComponent(Self.newPhoto)

        var environment = ProcessInfo.processInfo.environment.filter { name, _ in
            !name.hasPrefix("PHOTOS_") && !name.hasPrefix("XDG_")
        }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["TMPDIR"] = temporary.path
        environment["PATH"] = products.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["PICTURES"] = pictures.path
        environment["NEW_PHOTO"] = newPhoto.path

        let script = try Tour.script()
        let result = try await offPool {
            try Tour.run(script, in: Corpus.packageRoot, environment: environment, outputs: scratch, timeout: 240)
        }
        let transcript = "stdout:\n\(result.stdout)\nstderr:\n\(result.stderr)"
        try #require(!result.timedOut, "the tour did not finish in 240 s\n\(transcript)")
        #expect(result.status == 0, "a command of the tour failed\n\(transcript)")

        // photos scan, then photos assets: the scanned photos are listed with their files.
        #expect(result.stderr.contains("3 ingested"), "photos scan's summary\n\(transcript)")
        for (_, name) in Self.pictures {
            #expect(result.stdout.contains(pictures.appendingPathComponent(name).path), "\(name)\n\(transcript)")
        }
        // photos albums --user: each folder is an album, with its one photo and its directory.
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for album in ["Norway", "Minolta", "Phone"] {
            let row = lines.first { $0.hasSuffix("  " + pictures.appendingPathComponent(album).path) }
            #expect(row?.contains("  \(album)  ") == true, "album \(album)\n\(transcript)")
            #expect(row?.contains("  1  ") == true, "album \(album) holds one photo\n\(transcript)")
        }
        // The follower printed the new photo's insertion, and the hook logged the new photo.
        // The follower's line: token, time, kind, object type, identifier, path.
        let copied = pictures.appendingPathComponent(newPhoto.lastPathComponent).path
        #expect(
            lines.contains { $0.contains("\tinserted\tasset\t") && $0.hasSuffix("\t" + copied) },
            "photos changes --follow names the new photo's file\n\(transcript)")
        // The hook's line: date, place, type, file (the follower's line has a kind; the hook's has none).
        let hookLines = lines.filter { $0.hasSuffix("\t" + copied) && !$0.contains("\tinserted\t") }
        #expect(hookLines.count == 1, "the hook's log line for \(copied)\n\(transcript)")
        #expect(hookLines.first?.contains("\timage\t") == true, "the hook's line names the type\n\(transcript)")
        // photos hooks status names the hook; curl's listing gives the files.
        #expect(
            lines.contains { $0.hasPrefix("log-new-photos") && $0.contains("  ok  ") && $0.hasSuffix("exit 0") },
            "photos hooks status: the hook ran and exited 0\n\(transcript)")
        #expect(result.stdout.contains("\"library\""), "GET /v1/health\n\(transcript)")
        #expect(result.stdout.contains("\(copied)\n"), "curl's listing\n\(transcript)")
        // The user's photos were only read.
        for (source, name) in Self.pictures {
            let original = try Data(contentsOf: corpus.appendingPathComponent(source))
            #expect(try Data(contentsOf: pictures.appendingPathComponent(name)) == original, "\(name) changed")
        }
    }
}

/// The tour's blocks out of README.md, and one run of them.
enum Tour {
    /// The marker that precedes each of the tour's shell blocks in README.md.
    static let marker = "<!-- tour -->"

    /// The tour's shell blocks, in order, as one script.
    static func blocks(of readme: String) -> [String] {
        var blocks: [String] = []
        var lines = readme.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == marker }) {
            lines = lines[(index + 1)...]
            guard let open = lines.first, open.hasPrefix("```sh") else { continue }
            lines = lines.dropFirst()
            guard let close = lines.firstIndex(where: { $0.hasPrefix("```") }) else { break }
            blocks.append(lines[..<close].joined(separator: "\n"))
            lines = lines[(close + 1)...]
        }
        return blocks
    }

    /// The blocks of the package's README.md, as a script that stops at the first failing
    /// command (naming it) and ends whatever the tour left running in the background.
    static func script() throws -> String {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = blocks(of: readme)
        guard blocks.count >= 4 else { throw TourError("README.md has \(blocks.count) tour blocks, not 4 or more") }
        return """
            set -eu -o pipefail
            trap 'echo "tour: exit status $? from: $BASH_COMMAND" >&2' ERR
            trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
            PS4='+ tour: '
            set -x

            """ + blocks.joined(separator: "\n\n") + "\n"
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
    }

    /// Runs `script` with bash in a session of its own (so that a timeout ends photosd and every
    /// other process it started), its output in files (a background process holding a pipe open
    /// could not keep the test waiting).
    static func run(
        _ script: String, in directory: URL, environment: [String: String], outputs: TemporaryDirectory,
        timeout: TimeInterval
    ) throws -> Result {
        let scriptFile = outputs.path("tour.sh")
        try Data(script.utf8).write(to: scriptFile)
        let stdoutFile = outputs.path("tour.stdout")
        let stderrFile = outputs.path("tour.stderr")
        try Data().write(to: stdoutFile)
        try Data().write(to: stderrFile)
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        // --wait: setsid forks when it already leads a process group (as TestProcess starts it) and
        // its first process would exit at once, long before the tour ends.
        process.arguments = ["--wait", "/bin/bash", scriptFile.path]
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: stderrFile)
        try process.run()
        var timedOut = false
        do {
            try blockUntil("the tour to end", timeout: .seconds(timeout)) { !process.isRunning }
        } catch is WaitFailed {
            timedOut = true
            kill(-process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        // Whatever the script left in its session (it ends its jobs itself when it exits normally).
        kill(-process.processIdentifier, SIGKILL)
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "",
            timedOut: timedOut)
    }
}

struct TourError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
