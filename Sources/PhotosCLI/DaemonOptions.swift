import ArgumentParser
import Foundation
import Photos
import PhotosClient
import PhotosConfig
import PhotosStore
import PhotosWire

/// Where a listing command reads: photosd's socket when the daemon answers for this library, else
/// the library file. The output is the same either way, byte for byte.
struct DaemonOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Ask photosd on this socket (default: its usual socket, when it serves this library).", valueName: "path"))
    var socket: String?

    @Flag(name: .customLong("no-daemon"), help: "Read the library file even when photosd answers.")
    var noDaemon = false

    @Option(
        help: ArgumentHelp(
            "A token for a photosd whose socket is not yours (default: $PHOTOS_TOKEN; see photos token).",
            valueName: "token"))
    var token: String?

    @OptionGroup var owner: SocketOwnerOption

    /// `Authorization` for `token`, else `$PHOTOS_TOKEN` (a hook's), else nothing: the socket's owner needs none.
    static func authorization(_ token: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String]
    {
        guard let token = token ?? environment["PHOTOS_TOKEN"], !token.isEmpty else { return [:] }
        return ["Authorization": "Bearer \(token)"]
    }

    func validate() throws {
        if noDaemon, socket != nil { throw ValidationError("--socket and --no-daemon exclude each other") }
    }

    /// The daemon to ask, or nil to open the library file.
    ///
    /// `--socket` must answer. Otherwise photosd's usual socket (the config's `socket`, else the
    /// default) is asked (a second at most) and used only when the daemon there serves the library
    /// this command would open (``LibraryOptions/locate(environment:)``); `--library` and
    /// `--no-daemon` mean the file. `environment` says where the usual socket and library are.
    func daemon(for options: LibraryOptions, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> DaemonSource?
    {
        if noDaemon { return nil }
        let authorization = Self.authorization(token, environment: environment)
        let peers = try owner.trustedPeers()
        if let socket {
            do {
                let reply = try APIConnection.request(
                    socket, "GET", "/v1/health", headers: authorization, trusting: peers)
                guard reply.status == 200 || Self.onlyRootsOffline(reply) else {
                    throw CLIError("photosd on \(socket): \(reply.errorMessage)")
                }
            } catch let error as APIConnection.ConnectionError {
                throw CLIError(error.notListening ? "photosd is not running on \(socket)" : error.description)
            }
            return DaemonSource(socket: socket, authorization: authorization, peers: peers)
        }
        if options.library != nil { return nil }
        let config = try options.configFile(environment: environment)
        let location = LibraryOptions.locate(library: nil, config: config, environment: environment)
        let socket = Self.usualSocket(config.file, environment: environment)
        // Found by asking that daemon which library it serves: no need to ask it again.
        if case .daemon(let served) = location.source, served == socket {
            return DaemonSource(socket: socket, authorization: authorization, peers: peers)
        }
        let usual: APIConnection?
        do {
            usual = try APIConnection(socket: socket, timeout: 1, trusting: peers)
        } catch let error as APIConnection.ConnectionError where error.untrustedPeer {
            // Not a quiet fall back to the file: someone else's program on the usual path is worth knowing.
            throw CLIError(error.description)
        } catch {
            usual = nil
        }
        guard let connection = usual,
            (try? connection.send("GET", "/v1/health", headers: authorization).status) == 200,
            let body = try? connection.readAll(),
            let health = try? JSONDecoder().decode(API.Health.self, from: Data(body)),
            let served = health.library, Self.sameLibrary(served, location.path)
        else { return nil }
        return DaemonSource(socket: socket, authorization: authorization, peers: peers)
    }

    /// Whether a health answer that is not 200 says only that no root is followed (every one
    /// offline: 3114): photosd still serves the library, whose assets it lists as unavailable, as
    /// the library file would.
    static func onlyRootsOffline(_ reply: APIConnection.Reply) -> Bool {
        reply.status == 503
            && (try? JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body)).error.code)
                == PHPhotosError.Code.libraryVolumeOffline.rawValue
    }

    /// photosd's usual socket: the config's `socket`, else `$XDG_RUNTIME_DIR/photosd.sock` (or its fallback).
    static func usualSocket(_ config: ConfigFile?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        config?.socket.flatMap { $0.isEmpty ? nil : $0 } ?? API.defaultSocketPath(environment: environment)
    }

    /// The library photosd serves on `socket` (its health answer), or nil when nothing trusted
    /// answers there within a second.
    static func servedLibrary(socket: String) -> String? {
        guard let connection = try? APIConnection(socket: socket, timeout: 1, trusting: .ownAndRoot),
            (try? connection.send("GET", "/v1/health", headers: [:]).status) == 200,
            let body = try? connection.readAll(),
            let health = try? JSONDecoder().decode(API.Health.self, from: Data(body))
        else { return nil }
        return health.library
    }

    /// Whether `a` and `b` name one library: one file however reached, or one PostgreSQL address
    /// (with or without its password).
    static func sameLibrary(_ a: String, _ b: String) -> Bool {
        if LibraryDatabase.isPostgreSQL(a) || LibraryDatabase.isPostgreSQL(b) {
            return LibraryDatabase.shown(a) == LibraryDatabase.shown(b)
        }
        var first = stat()
        var second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev
            && first.st_ino == second.st_ino
    }
}

/// `--socket-owner`: whose process besides the user's own and root's may answer on photosd's socket.
struct SocketOwnerOption: ParsableArguments {
    @Option(
        name: .customLong("socket-owner"),
        help: ArgumentHelp(
            "Also trust a photosd running as this user (a uid or a name) on the socket; by default only yours or root's.",
            valueName: "user"))
    var socketOwner: String?

    /// The users whose process may answer on the socket: the own user and root, and `--socket-owner`.
    /// Checked on the connection (`SO_PEERCRED`) before a token is sent or an answer read.
    func trustedPeers() throws -> APIConnection.TrustedPeers {
        guard let socketOwner else { return .ownAndRoot }
        if let uid = UInt32(socketOwner) { return .ownRootAnd(uid) }
        guard let entry = getpwnam(socketOwner) else {
            throw ValidationError("--socket-owner: no user named \(socketOwner)")
        }
        return .ownRootAnd(entry.pointee.pw_uid)
    }
}

/// photosd's API as the listing commands read it: every object, or every change entry, a JSON
/// line at a time.
struct DaemonSource {
    let socket: String
    /// `Authorization: Bearer TOKEN` for a client that is not the socket's owner, else empty.
    var authorization: [String: String] = [:]
    /// Whose process may answer on the socket (``SocketOwnerOption/trustedPeers()``).
    var peers: APIConnection.TrustedPeers = .ownAndRoot

    /// Calls `body` with each line of the answer to `GET path?query` (JSON Lines).
    func eachLine(_ path: String, _ query: [(String, String)], follow: Bool = false, _ body: (String) throws -> Void)
        throws
    {
        let parameters = query.map { "\($0)=\(Self.encoded($1))" }.joined(separator: "&")
        let target = path + (query.isEmpty ? "" : "?" + parameters)
        // A follow stream may be quiet for hours; a listing is not.
        let connection = try APIConnection(socket: socket, timeout: follow ? nil : 300, trusting: peers)
        let head = try connection.send(
            "GET", target, headers: authorization.merging(["Accept": "application/x-ndjson"]) { $1 })
        guard head.status == 200 else {
            let reply = APIConnection.Reply(status: head.status, headers: head.headers, body: try connection.readAll())
            throw CLIError(reply.errorMessage)
        }
        while let line = try connection.nextLine() {
            if !line.isEmpty { try body(line) }
        }
    }

    /// The newest change token photosd's library holds (its health answer).
    func newestToken() throws -> Int64 {
        let reply = try APIConnection.request(socket, "GET", "/v1/health", headers: authorization, trusting: peers)
        guard reply.status == 200 else { throw CLIError("photosd on \(socket): \(reply.errorMessage)") }
        return try JSONDecoder().decode(API.Health.self, from: Data(reply.body)).token
    }

    /// Prints each line of the answer as it is, in large writes.
    func copyLines(_ path: String, _ query: [(String, String)]) throws {
        var pending: [UInt8] = []
        try eachLine(path, query) { line in
            pending += line.utf8
            pending.append(10)
            if pending.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(pending))
                pending.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(pending))
    }

    /// A query value as a URL carries it: everything but unreserved characters escaped.
    static func encoded(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
