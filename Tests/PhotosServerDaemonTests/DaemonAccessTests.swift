import Foundation
import Glibc
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

/// The real `photosd`: its loopback TCP listener (`--listen`), where every request needs a token,
/// tokens made by the real `photos token create`, and a client of another uid on the socket.
@Suite(.serialized) struct DaemonAccessTests {
    static func token(_ library: String, _ arguments: [String]) throws -> String {
        let made = try BuiltProducts.run("photos", ["token", "create", "--library", library] + arguments)
        try #require(made.status == 0, "\(made.stderr)")
        return try #require(made.stdout.split(whereSeparator: \.isWhitespace).last.map(String.init))
    }

    @Test func theTCPListenerServesOnlyClientsWithATokenOfTheirLevel() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-tcp")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let port = try LoopbackPort.free()
        let daemon = try await APIDaemon(
            directory: directory, root: root, arguments: ["--listen", "127.0.0.1:\(port)"])
        let library = directory.path("library.sqlite").path
        // The socket answers first; the TCP listener starts beside it.
        var health: UnixHTTPClient.Reply?
        try await waitUntil("photosd to listen on \(port); its log:\n\(daemon.logText)") {
            health = try? await UnixHTTPClient.tcp(port, "GET", "/v1/health")
            return health != nil
        }
        let anonymous = try #require(health)
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
        #expect(try JSONDecoder().decode(API.ErrorBody.self, from: Data(anonymous.body)).error.code == 401)

        let readOnly = try Self.token(library, ["--access", "read-only"])
        let bearer = ["Authorization": "Bearer \(readOnly)"]
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/health", headers: bearer).status == 200)
        let assets = try await UnixHTTPClient.tcp(port, "GET", "/v1/assets", headers: bearer)
        #expect(assets.status == 200, "\(assets.text)")
        let create = #"{"changes":[{"op":"createAlbum","title":"From TCP"}]}"#
        #expect(try await UnixHTTPClient.tcp(port, "POST", "/v1/changes", headers: bearer, body: create).status == 403)
        let readWrite = try Self.token(library, ["--access", "read-write"])
        let created = try await UnixHTTPClient.tcp(
            port, "POST", "/v1/changes", headers: ["Authorization": "Bearer \(readWrite)"], body: create)
        #expect(created.status == 200, "\(created.text)")
        // The socket's owner still needs none on the socket.
        let owner = try await offPool { try UnixHTTPClient.request(daemon.socket, "GET", "/v1/assets") }
        #expect(owner.status == 200)
        // Revoked: refused at once.
        let listed = try BuiltProducts.run("photos", ["token", "list", "--json", "--library", library])
        for line in listed.stdout.split(separator: "\n") {
            let id = try JSONDecoder().decode(API.TokenDescription.self, from: Data(line.utf8)).id
            #expect(try BuiltProducts.run("photos", ["token", "revoke", id, "--library", library]).status == 0)
        }
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/assets", headers: bearer).status == 401)
    }

    /// A token revoked while its streams are open ends them before they send anything more: the
    /// change stream and a live query each end with the 401 the token's next request gets, when
    /// the next change comes; a stream of another token goes on.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aRevokedTokensOpenStreamsEndBeforeTheirNextChange() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-revoke")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let daemon = try await APIDaemon(directory: directory, root: root)
        let library = directory.path("library.sqlite").path
        let revoked = ["Authorization": "Bearer \(try Self.token(library, ["--access", "read-only"]))"]
        let kept = ["Authorization": "Bearer \(try Self.token(library, ["--access", "read-only"]))"]
        let (changes, query, other) = (
            try UnixHTTPClient(socket: daemon.socket), try UnixHTTPClient(socket: daemon.socket),
            try UnixHTTPClient(socket: daemon.socket)
        )
        let opened = try await offPool {
            [
                try changes.send("GET", "/v1/changes?follow=true", headers: revoked).status,
                try query.send("POST", "/v1/queries", headers: revoked, body: Array("{}".utf8)).status,
                try other.send("GET", "/v1/changes?follow=true", headers: kept).status,
            ]
        }
        #expect(opened == [200, 200, 200])
        let result = try await offPool { try query.nextLine() }
        #expect(result?.contains("\"assets\"") == true, "the query's first result: \(result ?? "none")")
        let listed = try BuiltProducts.run("photos", ["token", "list", "--json", "--library", library])
        let first = try #require(listed.stdout.split(separator: "\n").first)
        let id = try JSONDecoder().decode(API.TokenDescription.self, from: Data(first.utf8)).id
        #expect(try BuiltProducts.run("photos", ["token", "revoke", id, "--library", library]).status == 0)

        let photo = root.appendingPathComponent("after-revoke.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")), to: photo)
        for stream in [changes, query] {
            let line = try #require(try await offPool { try stream.nextLine() }, "\(daemon.logText)")
            #expect(!line.contains("after-revoke"), "nothing of the new photo: \(line)")
            let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(line.utf8)).error
            #expect(error.code == 401, "\(line)")
            #expect(try await offPool { try stream.nextLine() } == nil, "the stream ended")
        }
        let line = try #require(try await offPool { try other.nextLine() })
        #expect(try JSONDecoder().decode(LibraryChange.self, from: Data(line.utf8)).asset.inserted.count == 1)
    }

    /// A port another program holds is a startup error (exit 78) with the reason, not a daemon that
    /// runs on without its TCP listener; nothing is left behind on the socket's path.
    @Test func aTCPPortThatIsTakenStopsTheDaemonWithTheReason() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-tcp")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        // A port this test holds.
        let (descriptor, port) = try LoopbackPort.bound(listening: true)
        defer { close(descriptor) }
        let socket = directory.path("api.sock").path
        let run = try await offPool {
            try BuiltProducts.run(
                "photosd",
                [
                    "--library", directory.path("l.sqlite").path, "--watch", root.path, "--socket", socket,
                    "--listen", "127.0.0.1:\(port)",
                ])
        }
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("127.0.0.1:\(port) is taken"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func photosdRefusesATCPAddressThatIsNotLoopback() throws {
        let directory = try TemporaryDirectory(prefix: "photos-tcp")
        for address in ["0.0.0.0:8421", "192.168.1.2:8421", "localhost:8421", "127.0.0.1:0", "127.0.0.1"] {
            let run = try BuiltProducts.run(
                "photosd",
                [
                    "--library", directory.path("l.sqlite").path, "--watch", directory.url.path, "--socket", "",
                    "--listen", address,
                ])
            #expect(run.status != 0, "\(address) was accepted")
            #expect(run.stderr.contains("--listen"), "\(address): \(run.stderr)")
        }
    }

    static var canDropPrivileges: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
    }

    @Test(.enabled(if: canDropPrivileges, "needs root, setpriv and curl"))
    func anotherUserOnTheSocketNeedsAToken() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-peer")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let daemon = try await APIDaemon(directory: directory, root: root)
        // Let user nobody reach the socket (photosd makes it the owner's alone).
        for path in [directory.url.path, (daemon.socket as NSString).deletingLastPathComponent] { chmod(path, 0o711) }
        chmod(daemon.socket, 0o666)
        func curl(_ headers: [String]) throws -> String {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                [
                    "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/curl", "-s", "-o", "/dev/null",
                    "-w", "%{http_code}", "--unix-socket", daemon.socket,
                ]
                + headers.flatMap { ["-H", $0] } + ["http://photosd/v1/assets"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(try curl([]) == "401")
        let token = try Self.token(directory.path("library.sqlite").path, ["--access", "read-only"])
        #expect(try curl(["Authorization: Bearer \(token)"]) == "200")
        // The owner, on the same socket, needs none.
        #expect(try await offPool { try UnixHTTPClient.request(daemon.socket, "GET", "/v1/assets") }.status == 200)
    }
}

/// Hooks get `PHOTOS_SOCKET` and a token of their config's `access` level in `PHOTOS_TOKEN`.
@Suite struct HookTokenTests {
    @Test func aHookIsGivenTheSocketAndATokenOfItsLevelMadeAnewAtEachStart() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-hook-token")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let out = directory.path("hook.env").path
        let config = directory.path("config.toml")
        try """
        [[hooks]]
        name = "env"
        command = ["/bin/sh", "-c", "cat > /dev/null; echo \\"$PHOTOS_SOCKET $PHOTOS_TOKEN\\" > \(out)"]
        access = "read-only"
        """.write(to: config, atomically: true, encoding: .utf8)
        let library = directory.path("library.sqlite").path
        var previous: String?
        for start in 0..<2 {
            try? FileManager.default.removeItem(atPath: out)
            let daemon = try await APIDaemon(directory: directory, root: root, arguments: ["--config", config.path])
            // A change for the hook to be given.
            let batch = Array(#"{"changes":[{"op":"createAlbum","title":"A\#(start)"}]}"#.utf8)
            let made = try await offPool {
                try UnixHTTPClient.request(
                    daemon.socket, "POST", "/v1/changes", headers: ["Content-Type": "application/json"], body: batch)
            }
            #expect(made.status == 200, "\(made.text)")
            try await waitUntil("the hook to write its line; photosd's log:\n\(daemon.logText)") {
                (try? String(contentsOfFile: out, encoding: .utf8))?.hasSuffix("\n") == true
            }
            let words = try #require(
                try? String(contentsOfFile: out, encoding: .utf8), "the hook did not run:\n\(daemon.logText)"
            )
            .split(whereSeparator: \.isWhitespace).map(String.init)
            try #require(words.count == 2, "\(words)")
            #expect(words[0] == daemon.socket)
            let token = words[1]
            let bearer = ["Authorization": "Bearer \(token)"]
            let read = try await offPool {
                try UnixHTTPClient.request(daemon.socket, "GET", "/v1/albums", headers: bearer)
            }
            #expect(read.status == 200)
            let write = try await offPool {
                try UnixHTTPClient.request(
                    daemon.socket, "POST", "/v1/changes",
                    headers: bearer.merging(["Content-Type": "application/json"]) { $1 },
                    body: batch)
            }
            #expect(write.status == 403)
            if let previous {
                // The last start's token was revoked.
                #expect(previous != token)
                let old = try await offPool {
                    try UnixHTTPClient.request(
                        daemon.socket, "GET", "/v1/albums", headers: ["Authorization": "Bearer \(previous)"])
                }
                #expect(old.status == 401)
            }
            previous = token
            daemon.process.terminate()
            daemon.process.waitUntilExit()
        }
        let tokens = try BuiltProducts.run("photos", ["token", "list", "--json", "--library", library])
        #expect(tokens.stdout.split(separator: "\n").count == 1 && tokens.stdout.contains("hook:env"))
    }
}

/// A hook whose `access` is `limited`: its token sees the hook's albums, through the real photosd.
@Suite struct LimitedHookTokenTests {
    /// curl on the PATH, which the hook's script uses to ask the API.
    static let curl: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        .split(separator: ":").map { "\($0)/curl" }.first(where: FileManager.default.isExecutableFile(atPath:))

    /// The hook: with its token, lists the assets and albums it sees and records the status of
    /// requests it may not make; once `$1/outside` names an asset and an album of another album's,
    /// asks for those too. Each run's findings go to `$1/run-UNTIL/`.
    static let script = #"""
        out="$1"; curl="$2"
        cat > /dev/null
        run="$out/run-$PHOTOS_UNTIL"
        mkdir -p "$run.part"
        ask() { "$curl" -s --unix-socket "$PHOTOS_SOCKET" -H "Authorization: Bearer $PHOTOS_TOKEN" "$@"; }
        code() { ask -o /dev/null -w '%{http_code}' "$@"; }
        post() { code -H 'Content-Type: application/json' -d "$1" http://photosd/v1/changes; }
        ask -o "$run.part/assets.json" http://photosd/v1/assets
        ask -o "$run.part/albums.json" http://photosd/v1/albums
        {
            echo "status $(code http://photosd/v1/status)"
            echo "createAlbum $(post '{"changes":[{"op":"createAlbum","title":"Mine"}]}')"
            if [ -e "$out/outside" ]; then
                read -r asset album < "$out/outside"
                echo "asset $(code "http://photosd/v1/assets/$asset")"
                echo "original $(code "http://photosd/v1/assets/$asset/original")"
                echo "album $(code "http://photosd/v1/albums/$album")"
                echo "in $(code "http://photosd/v1/assets?in=$album")"
                echo "edit $(post "{\"changes\":[{\"op\":\"editAsset\",\"asset\":\"$asset\",\"isFavorite\":true}]}")"
            fi
        } > "$run.part/codes"
        mv "$run.part" "$run"
        """#

    static func owner(_ socket: String, _ target: String, method: String = "GET", body: String = "")
        async throws -> UnixHTTPClient.Reply
    {
        try await offPool {
            try UnixHTTPClient.request(
                socket, method, target, headers: body.isEmpty ? [:] : ["Content-Type": "application/json"],
                body: Array(body.utf8))
        }
    }

    static func identifiers(_ data: Data, _ key: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(object[key] as? [[String: Any]], "\(String(decoding: data, as: UTF8.self))")
        return Dictionary(
            uniqueKeysWithValues: items.map { item in
                let name =
                    (item["localizedTitle"] as? String)
                    ?? ((item["resources"] as? [[String: Any]])?.first?["path"] as? String).map {
                        ($0 as NSString).lastPathComponent
                    }
                return (name ?? "?", item["localIdentifier"] as? String ?? "?")
            })
    }

    @Test(.enabled(if: Corpus.isAvailable && curl != nil, "needs ../shared/corpus and curl"))
    func aLimitedHookSeesOnlyItsAlbumsAssetsAndIsRefusedTheRest() async throws {
        let curl = try #require(Self.curl)
        let directory = try TemporaryDirectory(prefix: "photos-limited-hook")
        let root = directory.path("Pictures")
        let out = directory.path("hook-out")
        for (source, place) in [
            ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Family/inn.jpg"),
            ("Camera/1997/Ricoh/RIMG0001.JPG", "Other/ricoh.jpg"),
        ] {
            let destination = root.appendingPathComponent(place)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(source)), to: destination)
        }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let script = directory.path("limited-hook.sh")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let config = directory.path("config.toml")
        try """
        [[hooks]]
        name = "family-only"
        command = ["/bin/sh", "\(script.path)", "\(out.path)", "\(curl)"]
        objects = ["asset"]
        access = "limited"
        albums = ["\(root.appendingPathComponent("Family").path)"]
        """.write(to: config, atomically: true, encoding: .utf8)

        // A new library: Family is no album when photosd starts (its first scan makes it), which
        // photosd says; the token follows the album once the scan has made it.
        let daemon = try await APIDaemon(directory: directory, root: root, arguments: ["--config", config.path])
        #expect(daemon.logText.contains("none of the hook's albums is an album yet"), "\(daemon.logText)")
        func runs() throws -> [URL] {
            try FileManager.default.contentsOfDirectory(at: out, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasPrefix("run-") && !$0.pathExtension.contains("part") }
                .sorted { Int($0.lastPathComponent.dropFirst(4))! < Int($1.lastPathComponent.dropFirst(4))! }
        }
        func codes(_ run: URL) throws -> [String: String] {
            let text = try String(contentsOf: run.appendingPathComponent("codes"), encoding: .utf8)
            return Dictionary(
                uniqueKeysWithValues: text.split(separator: "\n").map { line in
                    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
                    return (words[0], words.count > 1 ? words[1] : "")
                })
        }
        func waitForRun(_ what: String, _ matches: (URL) throws -> Bool) async throws -> URL {
            var run: URL?
            try await waitUntil("a run \(what); photosd's log:\n\(daemon.logText)") {
                run = try runs().last(where: matches)
                return run != nil
            }
            return run!
        }

        let first = try await waitForRun("of the startup scan's Family photo") { run in
            try Self.identifiers(Data(contentsOf: run.appendingPathComponent("assets.json")), "assets").keys
                .contains("inn.jpg")
        }
        #expect(
            try Self.identifiers(Data(contentsOf: first.appendingPathComponent("assets.json")), "assets").keys.sorted()
                == ["inn.jpg"])
        #expect(
            try Self.identifiers(Data(contentsOf: first.appendingPathComponent("albums.json")), "albums").keys.sorted()
                == ["Family"])
        #expect(try codes(first) == ["status": "403", "createAlbum": "403"])

        // The owner sees both albums; the hook is told of the other one's asset and album.
        var assets: [String: String] = [:]
        try await waitUntil("both photos to be ingested; photosd's log:\n\(daemon.logText)") {
            assets = try Self.identifiers(Data(try await Self.owner(daemon.socket, "/v1/assets").body), "assets")
            return assets.count >= 2
        }
        let albums = try Self.identifiers(
            Data(try await Self.owner(daemon.socket, "/v1/albums?type=album").body), "albums")
        let (ricoh, other, inn) = (
            try #require(assets["ricoh.jpg"]), try #require(albums["Other"]), try #require(assets["inn.jpg"])
        )
        try "\(ricoh) \(other)\n".write(to: out.appendingPathComponent("outside"), atomically: true, encoding: .utf8)
        // A change of the Family photo gives the hook another run.
        let edit = try await Self.owner(
            daemon.socket, "/v1/changes", method: "POST",
            body: #"{"changes":[{"op":"editAsset","asset":"\#(inn)","isFavorite":true}]}"#)
        #expect(edit.status == 200, "\(edit.text)")
        let second = try await waitForRun("after the outside ids") { try codes($0)["asset"] != nil }
        #expect(
            try codes(second) == [
                "status": "403", "createAlbum": "403", "asset": "404", "original": "404", "album": "404", "in": "404",
                "edit": "403",
            ])
        #expect(
            try Self.identifiers(Data(contentsOf: second.appendingPathComponent("assets.json")), "assets") == [
                "inn.jpg": inn
            ])
        // Nothing the hook was refused happened.
        let ricohNow = try await Self.owner(daemon.socket, "/v1/assets/\(ricoh)")
        #expect(
            (try JSONSerialization.jsonObject(with: Data(ricohNow.body)) as? [String: Any])?["isFavorite"] as? Bool
                == false)
        #expect(
            try Self.identifiers(Data(try await Self.owner(daemon.socket, "/v1/albums?type=album").body), "albums").keys
                .sorted()
                == ["Family", "Other"])

        // `photos token list` shows the hook's token with the album it followed.
        let listed = try BuiltProducts.run(
            "photos", ["token", "list", "--json", "--library", directory.path("library.sqlite").path])
        let tokens = try listed.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(API.TokenDescription.self, from: Data($0.utf8))
        }
        #expect(tokens.map(\.owner) == ["hook:family-only"] && tokens.map(\.access) == ["limited"])
        #expect(tokens.first?.albums == [try #require(albums["Family"])])
        daemon.process.terminate()
        daemon.process.waitUntilExit()
    }
}
