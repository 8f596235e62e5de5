import Foundation
import Glibc
import PhotosTestSupport
import PhotosWire
import Testing

/// `photos watch-query` against the real `photosd`: the initial result, then the change details of
/// files dropped into and removed from a watched root, applied by the test to a copy that must
/// equal a fresh listing; its errors; SIGTERM ends it.
@Suite struct WatchQueryTests {
    /// Starts `photos ARGUMENTS`, its stdout read a line at a time.
    func photos(_ arguments: [String]) throws -> (TestProcess, LineReader, Pipe) {
        let process = TestProcess()
        process.executableURL = BuiltProducts.directory.appendingPathComponent("photos")
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        return (process, LineReader(output), errors)
    }

    @Test func theResultThenEachChangeToItAsTheyHappen() async throws {
        guard let first = Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"),
            let second = Corpus.file("Camera/2008/Nikon D3/DSC_0815.JPG")
        else {
            print("⚠️ WatchQueryTests: ../shared/corpus is absent; skipping the watch-query test")
            return
        }
        let directory = try TemporaryDirectory(prefix: "photos-watch")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Trip"), withIntermediateDirectories: true)
        let inn = root.appendingPathComponent("Trip/inn.jpg")
        try FileManager.default.copyItem(at: first, to: inn)
        let daemon = try await APIDaemon(directory: directory, root: root)

        let (watch, lines, _) = try photos(["watch-query", "--socket", daemon.socket, "--sort", "creationDate"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let isCount: @Sendable (String) -> Bool = { $0.split(separator: "\t").dropFirst().first == "count" }
        // What the lines say, applied to a copy of the result: paths by position.
        var copy: [String] = []
        func apply(_ lines: [String]) {
            var removed: [Int] = []
            var placed: [(Int, String)] = []
            var moved: [(Int, Int)] = []
            for line in lines {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                switch fields[1] {
                case "result" where fields[2] == "0": copy = [fields[4]]
                case "result": copy.append(fields[4])
                case "removed": removed.append(Int(fields[2])!)
                case "inserted": placed.append((Int(fields[2])!, fields[4]))
                case "moved": moved.append((Int(fields[2])!, Int(fields[3])!))
                case "changed": copy[Int(fields[2])!] = fields[4]
                default: break
                }
            }
            // PhotoKit's order: removals (and moves' sources) by old position, then insertions (and
            // moves' targets) by new position.
            let movedPaths = moved.map { (copy[$0.0], $0.1) }
            for index in (removed + moved.map(\.0)).sorted(by: >) { copy.remove(at: index) }
            for (index, path) in (placed + movedPaths.map { ($0.1, $0.0) }).sorted(by: { $0.0 < $1.0 }) {
                copy.insert(path, at: index)
            }
        }

        let initial = try await offPool { try lines.lines(until: isCount) }
        apply(initial)
        #expect(copy == [inn.path], "\(initial)")
        #expect(initial.last?.hasSuffix("\tcount\t1") == true)

        // A new file: inserted where the sort puts it, first (taken two months before the inn's).
        let point = root.appendingPathComponent("Trip/nikon.jpg")
        try FileManager.default.copyItem(at: second, to: point)
        let inserted = try await offPool { try lines.lines(until: isCount) }
        #expect(inserted.contains { $0.contains("\tinserted\t0\t") && $0.hasSuffix(point.path) }, "\(inserted)")
        apply(inserted)
        #expect(copy == [point.path, inn.path])
        #expect(inserted.last?.hasSuffix("\tcount\t2") == true)

        // A file removed: its position, before the change.
        try FileManager.default.removeItem(at: inn)
        let removed = try await offPool { try lines.lines(until: isCount) }
        #expect(removed.contains { $0.hasSuffix("\tremoved\t1") }, "\(removed)")
        apply(removed)
        #expect(copy == [point.path])

        // The copy is what a fresh fetch lists.
        let listing = try await offPool {
            try UnixHTTPClient.request(daemon.socket, "GET", "/v1/assets?sort=creationDate")
        }
        let fresh = try JSONDecoder().decode([String: [AssetDescription]].self, from: Data(listing.body))
        #expect(fresh["assets"]?.compactMap { $0.resources.first?.path } == copy)

        // SIGTERM ends it at once.
        watch.terminate()
        try await waitForExit(of: watch, "photos watch-query to end on SIGTERM", timeout: .seconds(10))
        #expect(watch.terminationReason == .uncaughtSignal && watch.terminationStatus == SIGTERM)
    }

    @Test func jsonRecordsAreTheStreamsAndErrorsAreClear() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-watch")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let daemon = try await APIDaemon(directory: directory, root: root)

        // --json: the API's records, as they come; the first is the (empty) initial result.
        let (watch, lines, _) = try photos(["watch-query", "--socket", daemon.socket, "--json", "--limit", "5"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let line = try #require(try await offPool { lines.next() })
        let record = try JSONDecoder().decode(API.LiveQueryRecord.self, from: Data(line.utf8))
        #expect(record.initial?.count == 0 && record.initial?.assets == [])
        watch.terminate()

        // A bad predicate: the API's message, exit status 1.
        let (bad, _, badErrors) = try photos(["watch-query", "--socket", daemon.socket, "--predicate", "colour == 1"])
        bad.waitUntilExit()
        let message = String(decoding: badErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(bad.terminationStatus == 1)
        #expect(message.contains("colour"), "\(message)")

        // No daemon there: says so, and how to point at one.
        let nowhere = directory.path("none.sock").path
        let (missing, _, missingErrors) = try photos(["watch-query", "--socket", nowhere])
        missing.waitUntilExit()
        let said = String(decoding: missingErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(missing.terminationStatus == 1)
        #expect(said.contains("photosd is not running on \(nowhere)"), "\(said)")
    }

    /// `--folders` and `--albums` (of both types unless `--type` says): the same lines, with each
    /// collection's title in place of a file.
    @Test func foldersAreFollowedWithTheirTitles() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-watch")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let daemon = try await APIDaemon(directory: directory, root: root)

        let (watch, lines, _) = try photos(["watch-query", "--socket", daemon.socket, "--folders", "--sort", "title"])
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGKILL) } }
        let isCount: @Sendable (String) -> Bool = { $0.split(separator: "\t").dropFirst().first == "count" }
        let initial = try await offPool { try lines.lines(until: isCount) }
        // The watched root is a folder already; each result line is one.
        let folders = initial.count - 1
        #expect(initial.last?.hasSuffix("\tcount\t\(folders)") == true, "\(initial)")
        #expect(initial.dropLast().allSatisfy { $0.split(separator: "\t").dropFirst().first == "result" }, "\(initial)")
        let socket = daemon.socket
        let created = try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/changes",
                body: Array(#"{"changes": [{"op": "createFolder", "title": "Trips 2024"}]}"#.utf8))
        }
        #expect(created.status == 200, "\(created.text)")
        let folder = try #require((try created.object()["created"] as? [String: String])?["0"])
        let change = try await offPool { try lines.lines(until: isCount) }
        #expect(change.count == 2, "\(change)")
        let fields = change.first?.split(separator: "\t").map(String.init) ?? []
        // Sorted by title: after every folder there (the root's "Pictures").
        #expect(fields.dropFirst() == ["inserted", "\(folders)", folder, "Trips 2024"], "\(change)")
        #expect(change.last?.hasSuffix("\tcount\t\(folders + 1)") == true)
        watch.terminate()

        // --albums without --type: the regular albums, then the smart ones, as GET /v1/albums lists them.
        let first = try await offPool {
            try UnixHTTPClient.request(
                socket, "POST", "/v1/changes", body: Array(#"{"changes": [{"op": "createAlbum", "title": "Aa"}]}"#.utf8)
            )
        }
        #expect(first.status == 200, "\(first.text)")
        let fresh = try await offPool { try UnixHTTPClient.request(socket, "GET", "/v1/albums?sort=title") }
        let listed = try #require(try fresh.object()["albums"] as? [[String: Any]])
        let regular = listed.filter { $0["type"] as? String == "album" }.count
        #expect(regular > 0 && listed.count > regular, "\(fresh.text)")
        for (arguments, expected) in [
            ([String](), listed), (["--type", "smartAlbum"], Array(listed.dropFirst(regular))),
        ] {
            let (albums, albumLines, _) = try photos(
                ["watch-query", "--socket", daemon.socket, "--albums", "--sort", "title"] + arguments)
            defer { if albums.isRunning { kill(albums.processIdentifier, SIGKILL) } }
            let result = try await offPool { try albumLines.lines(until: isCount) }
            #expect(
                result.dropLast().map { $0.split(separator: "\t").map(String.init)[3] }
                    == expected.compactMap { $0["localIdentifier"] as? String }, "\(arguments): \(result)")
            if arguments.isEmpty {
                // A new album: inserted among the regular ones, before every smart album.
                let made = try await offPool {
                    try UnixHTTPClient.request(
                        socket, "POST", "/v1/changes",
                        body: Array(#"{"changes": [{"op": "createAlbum", "title": "Zz"}]}"#.utf8))
                }
                #expect(made.status == 200, "\(made.text)")
                let album = try #require((try made.object()["created"] as? [String: String])?["0"])
                let change = try await offPool { try albumLines.lines(until: isCount) }
                #expect(
                    change.first?.split(separator: "\t").dropFirst().map(String.init) == [
                        "inserted", "\(regular)", album, "Zz",
                    ],
                    "\(change)")
                #expect(change.last?.hasSuffix("\tcount\t\(listed.count + 1)") == true, "\(change)")
            }
            albums.terminate()
        }

        // A field of assets with --albums is the command line's error, before photosd is asked.
        let (bad, _, badErrors) = try photos(["watch-query", "--socket", daemon.socket, "--albums", "--include-hidden"])
        bad.waitUntilExit()
        let message = String(decoding: badErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(bad.terminationStatus != 0 && message.contains("are for assets"), "\(message)")
    }
}
