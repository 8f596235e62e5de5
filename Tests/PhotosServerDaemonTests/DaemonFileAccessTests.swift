import Foundation
import Glibc
import Logging
import Photos
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// The real `photosd` over a root with albums Family (inn.jpg) and Other (ricoh.jpg), its API on a
/// socket and on loopback TCP, and tokens of every level made by the real `photos token create`
/// (the limited one given Family).
final class AccessLevelDaemon: @unchecked Sendable {
    enum Level: String, CaseIterable, CustomStringConvertible {
        case readWrite = "read-write", readOnly = "read-only", addOnly = "add-only", limited
        var description: String { rawValue }
    }

    let directory: TemporaryDirectory
    let root: URL
    let library: String
    let daemon: APIDaemon
    let port: Int
    let tokens: [Level: String]
    /// Local identifiers by file name, and the albums by title.
    let assets: [String: String]
    let albums: [String: String]
    let folders: [String: String]

    static let photos = [
        ("Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Family/inn.jpg"),
        ("Camera/1997/Ricoh/RIMG0001.JPG", "Other/ricoh.jpg"),
    ]

    init(arguments: [String] = []) async throws {
        directory = try TemporaryDirectory(prefix: "photos-access")
        root = directory.path("Pictures")
        for (source, place) in Self.photos {
            let destination = root.appendingPathComponent(place)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try #require(Corpus.file(source)), to: destination)
        }
        port = try LoopbackPort.free()
        daemon = try await APIDaemon(
            directory: directory, root: root, arguments: ["--listen", "127.0.0.1:\(port)"] + arguments)
        library = directory.path("library.sqlite").path
        var assets: [String: String] = [:]
        // (The daemon by name: self is not whole yet, and cannot be captured.)
        let started = daemon
        try await waitUntil("the photos to be ingested; photosd's log:\n\(started.logText)") {
            let reply = try await offPool { try UnixHTTPClient.request(started.socket, "GET", "/v1/assets") }
            assets = try LimitedHookTokenTests.identifiers(Data(reply.body), "assets")
            return assets.count >= Self.photos.count
        }
        self.assets = assets
        let albums = try await offPool { [daemon] in
            try UnixHTTPClient.request(daemon.socket, "GET", "/v1/albums?type=album")
        }
        self.albums = try LimitedHookTokenTests.identifiers(Data(albums.body), "albums")
        let folders = try await offPool { [daemon] in try UnixHTTPClient.request(daemon.socket, "GET", "/v1/folders") }
        self.folders = try LimitedHookTokenTests.identifiers(Data(folders.body), "folders")
        var tokens: [Level: String] = [:]
        for level in Level.allCases {
            let extra = level == .limited ? ["--album", root.appendingPathComponent("Family").path] : []
            tokens[level] = try DaemonAccessTests.token(library, ["--access", level.rawValue] + extra)
        }
        self.tokens = tokens
        // The TCP listener starts beside the socket.
        try await waitUntil("photosd to listen on 127.0.0.1:\(port)") {
            (try? await tcp("GET", "/v1/health", level: nil)) != nil
        }
    }

    func headers(_ level: Level?, contentType: String?) -> [String: String] {
        var headers: [String: String] = [:]
        if let level { headers["Authorization"] = "Bearer \(tokens[level]!)" }
        if let contentType { headers["Content-Type"] = contentType }
        return headers
    }

    /// A request on the socket, as the owner (`level` nil) or with a token of `level`.
    func socket(
        _ method: String, _ target: String, level: Level?, body: [UInt8] = [], contentType: String? = nil
    ) async throws -> UnixHTTPClient.Reply {
        let headers = headers(level, contentType: contentType ?? (body.isEmpty ? nil : "application/json"))
        return try await offPool { [daemon] in
            try UnixHTTPClient.request(daemon.socket, method, target, headers: headers, body: body)
        }
    }

    /// A request on the loopback TCP listener.
    func tcp(_ method: String, _ target: String, level: Level?, body: [UInt8] = [], contentType: String? = nil)
        async throws -> UnixHTTPClient.Reply
    {
        let headers = headers(level, contentType: contentType ?? (body.isEmpty ? nil : "application/json"))
        return try await offPool { [port] in
            let connection = try UnixHTTPClient(host: "127.0.0.1", port: port, timeout: 10)
            let head = try connection.send(method, target, headers: headers, body: body)
            return UnixHTTPClient.Reply(status: head.status, headers: head.headers, body: try connection.readAll())
        }
    }

    static func batch(_ changes: String) -> [UInt8] { Array(#"{"changes":[\#(changes)]}"#.utf8) }

    /// The assets the owner sees, by file name.
    func currentAssets() async throws -> [String: String] {
        try LimitedHookTokenTests.identifiers(Data(try await socket("GET", "/v1/assets", level: nil).body), "assets")
    }

    /// The regular files of the library's import folder (its hidden folders aside), by absolute path.
    func importedFiles() -> [String] {
        let imports = URL(fileURLWithPath: library).deletingLastPathComponent().appendingPathComponent("Imports").path
        guard let walker = FileManager.default.enumerator(atPath: imports) else { return [] }
        return walker.compactMap { $0 as? String }.filter { !$0.hasPrefix(".") }.map { imports + "/" + $0 }.filter {
            path in
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        }
    }

    func stop() {
        daemon.process.terminate()
        daemon.process.waitUntilExit()
    }
}

/// Issue 28's findings, each against the real photosd with tokens of every level: a server-side
/// path is the caller's file, not the daemon's; bytes come in uploads; path spellings cannot pass
/// the access check; a limited client's asset JSON names only its albums.
@Suite(.serialized) struct DaemonFileAccessTests {
    typealias Level = AccessLevelDaemon.Level

    static var canDropPrivileges: Bool { DaemonAccessTests.canDropPrivileges }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func noTokenBelowReadWriteAndNoTCPClientMayNameAServerSidePath() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        let watched = access.root.appendingPathComponent("Other/ricoh.jpg")
        let bytes = try Data(contentsOf: watched)
        let private_ = access.directory.path("private")
        try FileManager.default.createDirectory(at: private_, withIntermediateDirectories: true)
        chmod(private_.path, 0o700)
        let secret = private_.appendingPathComponent("secret.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Phone/DCIM/Camera/IMG_20190512_171353.jpg")), to: secret)
        let before = try await access.currentAssets()
        for path in [watched.path, secret.path] {
            let take = AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(path)","move":true}"#)
            let copy = AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(path)","ref":"x"}"#)
            for level in [Level.addOnly, .limited, .readOnly] {
                for body in [take, copy] {
                    let reply = try await access.socket("POST", "/v1/changes", level: level, body: body)
                    #expect(reply.status == 403, "\(level) \(path): \(reply.text)")
                }
            }
            // Read-write, but over TCP: the peer is nobody the kernel names.
            for body in [take, copy] {
                let reply = try await access.tcp("POST", "/v1/changes", level: .readWrite, body: body)
                #expect(reply.status == 403, "TCP \(path): \(reply.text)")
            }
        }
        #expect(try Data(contentsOf: watched) == bytes, "the watched photo is where it was")
        #expect(FileManager.default.fileExists(atPath: secret.path))
        #expect(try await access.currentAssets() == before, "no asset was made, none was lost")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func noClientMayNameAnAssetsFileOrTheLibrarysFolders() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        // The owner adds a photo: its copy in the import folder is the library's own.
        let mine = access.directory.path("mine.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Phone/DCIM/Camera/PANO_20200524_115521.jpg")), to: mine)
        let made = try await access.socket(
            "POST", "/v1/changes", level: nil,
            body: AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(mine.path)"}"#))
        #expect(made.status == 200, "\(made.text)")
        let importedPath = try #require(access.importedFiles().first, "nothing was imported")
        let watched = access.root.appendingPathComponent("Family/inn.jpg").path
        let link = access.directory.path("link.jpg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: watched)
        let hardLink = access.directory.path("hard.jpg").path
        #expect(Glibc.link(watched, hardLink) == 0)
        let before = try await access.currentAssets()
        for path in [importedPath, watched, link, hardLink, access.library] {
            for move in [false, true] {
                let body = AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(path)","move":\#(move)}"#)
                for level: Level? in [nil, .readWrite] {
                    let reply = try await access.socket("POST", "/v1/changes", level: level, body: body)
                    #expect(reply.status == 403, "\(level?.description ?? "owner") \(path) move \(move): \(reply.text)")
                }
            }
        }
        #expect(FileManager.default.fileExists(atPath: importedPath) && FileManager.default.fileExists(atPath: watched))
        #expect(try await access.currentAssets() == before)
        let original = try await access.socket("GET", "/v1/assets/\(before["inn.jpg"]!)/original", level: nil)
        #expect(original.status == 200)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func refusalsSayNothingOfThePathNorTheDaemon() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        let fifo = access.directory.path("pipe.jpg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var messages: Set<String> = []
        // (This test runs as root: what root may read is no refusal, so only what is no regular file.)
        for path in [access.directory.path("none.jpg").path, access.directory.url.path, fifo, "/dev/zero", "/dev/null"]
        {
            let reply = try await access.socket(
                "POST", "/v1/changes", level: nil,
                body: AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(path)"}"#))
            #expect(reply.status == 403, "\(path): \(reply.text)")
            messages.insert(reply.text)
        }
        #expect(messages.count == 1, "one answer whatever the path is: \(messages)")
        let pid = String(access.daemon.process.processIdentifier)
        // A file that is not media: the library says so, without its staging path or photosd's pid.
        let document = access.directory.path("notes.jpg")
        try Data(repeating: 0x41, count: 4096).write(to: document)
        let refused = try await access.socket(
            "POST", "/v1/changes", level: nil,
            body: AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(document.path)"}"#))
        #expect(refused.status == 422, "\(refused.text)")
        for reply in [refused.text] + messages {
            #expect(!reply.contains(".staging") && !reply.contains(".uploads") && !reply.contains(pid), "\(reply)")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aSparseFileIsCopiedSparse() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        let sparse = access.directory.path("sparse.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Phone/DCIM/Camera/IMG_20201017_174824.jpg")), to: sparse)
        let size: Int64 = 128 << 20
        #expect(truncate(sparse.path, off_t(size)) == 0)
        let made = try await access.socket(
            "POST", "/v1/changes", level: nil,
            body: AccessLevelDaemon.batch(#"{"op":"createAsset","path":"\#(sparse.path)","ref":"s"}"#))
        #expect(made.status == 200, "\(made.text)")
        let path = try #require(access.importedFiles().first)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(Int64(info.st_size) == size)
        #expect(Int64(info.st_blocks) * 512 < 8 << 20, "\(info.st_blocks) blocks for a 128 MiB file of 200 KB of data")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func everyLevelThatCreatesSendsBytesInAnUploadThatIsItsOwn() async throws {
        let access = try await AccessLevelDaemon(arguments: ["--max-upload", "60000"])
        defer { access.stop() }
        let photo = try Array(Data(contentsOf: try #require(Corpus.file("Phone/DCIM/Camera/IMG_20190512_171353.jpg"))))
        try #require(photo.count < 60_000)
        func upload(_ level: Level?, tcp: Bool = false, _ body: [UInt8] = photo) async throws -> UnixHTTPClient.Reply {
            let target = "/v1/uploads?filename=upload.jpg"
            return tcp
                ? try await access.tcp(
                    "POST", target, level: level, body: body, contentType: "application/octet-stream")
                : try await access.socket(
                    "POST", target, level: level, body: body, contentType: "application/octet-stream")
        }
        func id(_ reply: UnixHTTPClient.Reply) throws -> String {
            #expect(reply.status == 201, "\(reply.text)")
            let object = try reply.object()
            #expect(object["size"] as? Int == photo.count)
            return try #require(object["upload"] as? String)
        }
        #expect(try await upload(.readOnly).status == 403)
        for (level, tcp) in [(Level.addOnly, false), (.limited, false), (.readWrite, true)] {
            let upload = try id(try await upload(level, tcp: tcp))
            // Another client cannot take it: not another level, not the owner.
            for other in [Level.readWrite, .addOnly, .limited] where other != level {
                let stolen = try await access.socket(
                    "POST", "/v1/changes", level: other,
                    body: AccessLevelDaemon.batch(#"{"op":"createAsset","upload":"\#(upload)"}"#))
                #expect(stolen.status == 404, "\(other) took \(level)'s upload: \(stolen.text)")
            }
            let batch = AccessLevelDaemon.batch(
                #"{"op":"createAsset","upload":"\#(upload)","ref":"new"},{"op":"createAlbum","title":"Sent \#(level)","ref":"a"},"#
                    + #"{"op":"addToAlbum","album":"$a","assets":["$new"]}"#)
            let body =
                level == .limited
                ? AccessLevelDaemon.batch(#"{"op":"createAsset","upload":"\#(upload)","ref":"new"}"#) : batch
            let made =
                tcp
                ? try await access.tcp("POST", "/v1/changes", level: level, body: body)
                : try await access.socket("POST", "/v1/changes", level: level, body: body)
            #expect(made.status == 200, "\(level): \(made.text)")
            // An upload serves one asset.
            let again = try await access.socket("POST", "/v1/changes", level: level, body: body)
            #expect(again.status == 404 || again.status == 403, "\(level): \(again.text)")
        }
        // Three assets of the bytes sent, each named as the upload said.
        let listed = try await access.socket("GET", "/v1/assets", level: nil)
        let names = try #require(try listed.object()["assets"] as? [[String: Any]]).compactMap {
            (($0["resources"] as? [[String: Any]])?.first?["path"] as? String).map {
                ($0 as NSString).lastPathComponent
            }
        }
        #expect(names.filter { $0 == "upload.jpg" }.count == 3, "\(names)")
        // Past the bound: 413, and nothing of it stays.
        let large = try await upload(.addOnly, [UInt8](repeating: 0, count: 60_001))
        #expect(large.status == 413, "\(large.text)")
        let uploads = URL(fileURLWithPath: access.library).deletingLastPathComponent().appendingPathComponent(
            "Imports/.uploads")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? [] == [])
    }

    /// Runs curl as user nobody (65534) on the daemon's socket with `token`; answers the status and body.
    static func asNobody(_ daemon: AccessLevelDaemon, token: String, body: String) throws -> (Int, String) {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/curl", "-s", "-w", "\n%{http_code}",
            "--unix-socket", daemon.daemon.socket, "-H", "Authorization: Bearer \(token)", "-H",
            "Content-Type: application/json", "--data-binary", body, "http://photosd/v1/changes",
        ]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test(.enabled(if: Corpus.isAvailable && canDropPrivileges, "needs ../shared/corpus, root, setpriv and curl"))
    func aPathIsTakenOnlyAsThePeerCouldTakeIt() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        // Let user nobody reach the socket (photosd makes it the owner's alone) and the test's folders.
        for path in [access.directory.url.path, (access.daemon.socket as NSString).deletingLastPathComponent] {
            chmod(path, 0o711)
        }
        chmod(access.daemon.socket, 0o666)
        let token = try #require(access.tokens[.readWrite])
        let corpus = try #require(Corpus.file("Phone/DCIM/Camera/IMG_20190512_171353.jpg"))
        func place(_ path: URL, mode: mode_t, owner: uid_t) throws {
            try FileManager.default.copyItem(at: corpus, to: path)
            chmod(path.path, mode)
            chown(path.path, owner, owner)
        }
        func folder(_ name: String, mode: mode_t, owner: uid_t) throws -> URL {
            let url = access.directory.path(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            chown(url.path, owner, owner)
            chmod(url.path, mode)
            return url
        }
        // Root's private folder: nobody may not read what is in it.
        let hidden = try folder("root-only", mode: 0o700, owner: 0)
        try place(hidden.appendingPathComponent("a.jpg"), mode: 0o644, owner: 0)
        // A file of root's nobody may read, but not remove (its folder is root's).
        let shared = try folder("shared", mode: 0o755, owner: 0)
        try place(shared.appendingPathComponent("b.jpg"), mode: 0o644, owner: 0)
        // Sticky, as /tmp: nobody may write the folder, not remove root's file in it.
        let sticky = try folder("sticky", mode: 0o1777, owner: 0)
        try place(sticky.appendingPathComponent("c.jpg"), mode: 0o644, owner: 0)
        // Nobody's own folder and file.
        let own = try folder("nobody", mode: 0o755, owner: 65534)
        try place(own.appendingPathComponent("d.jpg"), mode: 0o600, owner: 65534)
        func create(_ path: URL, move: Bool) throws -> (Int, String) {
            try Self.asNobody(
                access, token: token,
                body: #"{"changes":[{"op":"createAsset","path":"\#(path.path)","move":\#(move)}]}"#)
        }
        let refusedHidden = try create(hidden.appendingPathComponent("a.jpg"), move: false)
        let refusedMissing = try create(own.appendingPathComponent("none.jpg"), move: false)
        #expect(refusedHidden.0 == 403 && refusedMissing.0 == 403, "\(refusedHidden) \(refusedMissing)")
        #expect(refusedHidden.1 == refusedMissing.1, "a file nobody may not read answers as one that is not there")
        #expect(try create(shared.appendingPathComponent("b.jpg"), move: true).0 == 403)
        #expect(try create(sticky.appendingPathComponent("c.jpg"), move: true).0 == 403)
        for path in [
            hidden.appendingPathComponent("a.jpg"), shared.appendingPathComponent("b.jpg"),
            sticky.appendingPathComponent("c.jpg"),
        ] {
            #expect(FileManager.default.fileExists(atPath: path.path), "\(path.path) was taken")
        }
        // What nobody may read is copied; what nobody may remove is moved.
        let copied = try create(shared.appendingPathComponent("b.jpg"), move: false)
        #expect(copied.0 == 200, "\(copied)")
        let moved = try create(own.appendingPathComponent("d.jpg"), move: true)
        #expect(moved.0 == 200, "\(moved)")
        #expect(!FileManager.default.fileExists(atPath: own.appendingPathComponent("d.jpg").path))
        #expect(FileManager.default.fileExists(atPath: shared.appendingPathComponent("b.jpg").path))
    }

    // MARK: Path spellings

    /// Every route the router serves (asked of the router itself), as requests a client of any
    /// level could send.
    static func routes(_ access: AccessLevelDaemon) throws -> [(
        method: String, target: String, body: [UInt8], type: String?
    )] {
        let inn = try #require(access.assets["inn.jpg"]), ricoh = try #require(access.assets["ricoh.jpg"])
        let family = try #require(access.albums["Family"]), other = try #require(access.albums["Other"])
        let library = try PHPhotoLibrary(url: URL(fileURLWithPath: access.library))
        let served = APIServer(socketPath: "", library: library, status: { nil }, logger: Logger(label: "routes"))
            .routes()
        // The table of 405s names the same routes.
        let table = APIServer.methods.flatMap { path, methods in methods.map { "\($0.rawValue) \(path)" } }
        #expect(Set(served.map { "\($0.method.rawValue) \($0.path)" }) == Set(table))
        var routes: [(String, String, [UInt8], String?)] = []
        for (method, pattern) in served.map({ ($0.method.rawValue, $0.path) }) {
            do {
                let targets: [String] =
                    switch pattern {
                    case "/v1/assets/**":
                        [
                            inn, ricoh, "\(inn)/original", "\(ricoh)/original", "\(ricoh)/thumbnail",
                            inn.replacingOccurrences(of: "/", with: "%2F"),
                        ].map { "/v1/assets/\($0)" }
                    case "/v1/albums/**": ["/v1/albums/\(family)", "/v1/albums/\(other)"]
                    case "/v1/folders/**": ["/v1/folders/\(try #require(access.folders["Pictures"]))"]
                    default: [pattern]
                    }
                for target in targets {
                    switch (method, pattern) {
                    case ("POST", "/v1/changes"):
                        routes.append((method, target, AccessLevelDaemon.batch(""), "application/json"))
                    case ("POST", "/v1/queries"): routes.append((method, target, Array("{}".utf8), "application/json"))
                    case ("POST", "/v1/uploads"):
                        routes.append((method, target, [1, 2, 3], "application/octet-stream"))
                    default: routes.append((method, target, [], nil))
                    }
                }
            }
        }
        return routes
    }

    /// The spellings of one path that the router's dropping of empty segments, or a client's
    /// normalising, could take for it.
    static func variants(_ target: String) -> [String] {
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[$0...])) } ?? (target, "")
        let rest = path.dropFirst("/v1/".count)
        return [
            path + "/", "/" + path, "/v1//" + rest, path.replacingOccurrences(of: "/", with: "//"),
            "/v1/./" + rest, "/v1/x/../" + rest, "/v1/%2E/" + rest, "/v1/" + rest + "/.", path + "//",
        ].map { $0 + query }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func noSpellingOfARouteIsMorePermissiveThanTheRouteAtAnyLevel() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        /// One request, its stream's answer cut after the head.
        func send(_ method: String, _ target: String, _ level: Level?, _ body: [UInt8], _ type: String?) async throws
            -> Int
        {
            let headers = access.headers(level, contentType: type)
            return try await offPool { [socket = access.daemon.socket] in
                let connection = try UnixHTTPClient(socket: socket, timeout: 10)
                return try connection.send(method, target, headers: headers, body: body).status
            }
        }
        var checked = 0
        for route in try Self.routes(access) {
            for level: Level? in [nil, .readWrite, .readOnly, .addOnly, .limited] {
                let canonical = try await send(route.method, route.target, level, route.body, route.type)
                for variant in Self.variants(route.target) {
                    let status = try await send(route.method, variant, level, route.body, route.type)
                    let name = level?.description ?? "owner"
                    // Never served where the route refuses, never a success the route would not give.
                    if [401, 403, 404].contains(canonical) {
                        #expect(
                            !(200..<300).contains(status),
                            "\(name) \(route.method) \(variant): \(status), \(route.target): \(canonical)")
                    }
                    #expect(status == 404 || status == canonical, "\(name) \(route.method) \(variant): \(status)")
                    checked += 1
                }
            }
        }
        #expect(checked > 500)
        // The finding itself: a limited token never sees the daemon's status.
        for variant in ["/v1/status"] + Self.variants("/v1/status") {
            #expect(try await send("GET", variant, .limited, [], nil) != 200, "\(variant)")
        }
    }

    // MARK: Limited clients

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aLimitedClientsJSONNamesOnlyItsAlbumsAndNoFolder() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        let inn = try #require(access.assets["inn.jpg"])
        // The owner puts the Family photo in a user album the limited token was not given.
        let secret = "Surprise party for Ann"
        let made = try await access.socket(
            "POST", "/v1/changes", level: nil,
            body: AccessLevelDaemon.batch(
                #"{"op":"createAlbum","title":"\#(secret)","ref":"s"},{"op":"addToAlbum","album":"$s","assets":["\#(inn)"]}"#
            ))
        #expect(made.status == 200, "\(made.text)")
        let album = try #require(try made.object()["created"] as? [String: String])["s"]!
        let owner = try await access.socket("GET", "/v1/assets/\(inn)", level: nil)
        #expect(owner.text.contains(secret) && owner.text.contains(album), "the owner sees it: \(owner.text)")
        let family = try #require(access.albums["Family"])
        let one = try await access.socket("GET", "/v1/assets/\(inn)", level: .limited)
        let listing = try await access.socket("GET", "/v1/assets", level: .limited)
        let lines = try await offPool {
            [socket = access.daemon.socket, headers = access.headers(.limited, contentType: nil)] in
            var headers = headers
            headers["Accept"] = "application/x-ndjson"
            return try UnixHTTPClient.request(socket, "GET", "/v1/assets", headers: headers)
        }
        let live = try await offPool {
            [socket = access.daemon.socket, headers = access.headers(.limited, contentType: "application/json")] in
            let connection = try UnixHTTPClient(socket: socket, timeout: 10)
            _ = try connection.send("POST", "/v1/queries", headers: headers, body: Array("{}".utf8))
            return try connection.nextLine() ?? ""
        }
        for (name, text) in [
            ("asset", one.text), ("listing", listing.text), ("lines", lines.text), ("live query", live),
        ] {
            #expect(text.contains(family), "\(name) names the token's album: \(text)")
            #expect(!text.contains(secret) && !text.contains(album), "\(name) names another album: \(text)")
        }
        // Nor does its albums' JSON name the folder that holds them (it sees no folder).
        let folder = try #require(access.folders["Pictures"])
        let owners = try await access.socket("GET", "/v1/albums/\(family)", level: nil)
        #expect(owners.text.contains(folder), "the owner is told the parent: \(owners.text)")
        let albums = try await access.socket("GET", "/v1/albums", level: .limited)
        let itsAlbum = try await access.socket("GET", "/v1/albums/\(family)", level: .limited)
        let liveAlbums = try await offPool {
            [socket = access.daemon.socket, headers = access.headers(.limited, contentType: "application/json")] in
            let connection = try UnixHTTPClient(socket: socket, timeout: 10)
            _ = try connection.send("POST", "/v1/queries", headers: headers, body: Array(#"{"of":"albums"}"#.utf8))
            return try connection.nextLine() ?? ""
        }
        for (name, text) in [("albums", albums.text), ("album", itsAlbum.text), ("live albums", liveAlbums)] {
            #expect(text.contains(family), "\(name): \(text)")
            #expect(
                !text.contains(folder) && !text.contains(secret), "\(name) names what the token may not see: \(text)")
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aStreamsSlotIsFreedWhenItsClientLeavesWithoutACommit() async throws {
        let access = try await AccessLevelDaemon()
        defer { access.stop() }
        for level: Level? in [nil, .readOnly, .limited] {
            // Fill the slots: change streams and live queries, half each.
            let headers = access.headers(level, contentType: "application/json")
            let socket = access.daemon.socket
            let held = try await offPool {
                var held: [UnixHTTPClient] = []
                let deadline = Date().addingTimeInterval(10)
                while held.count < APIServer.defaultMaximumStreams {
                    let connection = try UnixHTTPClient(socket: socket, timeout: 10)
                    let status =
                        held.count % 2 == 0
                        ? try connection.send("GET", "/v1/changes?follow=true", headers: headers).status
                        : try connection.send("POST", "/v1/queries", headers: headers, body: Array("{}".utf8)).status
                    // The last level's streams may still be going away.
                    if status == 503, Date() < deadline { continue }
                    try #require(status == 200, "stream \(held.count): \(status)")
                    held.append(connection)
                }
                return held
            }
            let full = try await offPool {
                try UnixHTTPClient(socket: socket, timeout: 10).send("GET", "/v1/changes?follow=true", headers: headers)
                    .status
            }
            #expect(full == 503)
            // The clients leave; nothing commits.
            for connection in held { connection.cancel() }
            _ = consume held
            var status = 0
            try await waitUntil(
                "\(level?.description ?? "owner"): a new stream to get 200 on an idle library (got \(status))"
            ) {
                status = try await offPool {
                    let again = try UnixHTTPClient(socket: socket, timeout: 10)
                    return try again.send("GET", "/v1/changes?follow=true", headers: headers).status
                }
                return status == 200
            }
        }
    }
}
