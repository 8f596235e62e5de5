import Foundation
import PhotosCore
import PhotosHooks
import TOMLKit

/// photosd's configuration file, `$XDG_CONFIG_HOME/photosd/config.toml`, read with TOMLKit.
///
/// ```toml
/// # ~/.config/photosd/config.toml
/// library = "/srv/photos/library.sqlite"
/// roots = ["/home/me/Pictures", "/mnt/camera"]   # or tables, with what the library may write:
///                                                # { path = "/home/me/Pictures", write = "sidecars" }
/// ignore = ["Thumbs.db", "@eaDir"]
/// settle_ms = 300
/// poll_interval_s = 120
/// time_zone = "Europe/Paris"
/// hook_history_limit = 1_000_000
/// socket = "/run/user/1000/photosd.sock"   # the API's socket; "" turns the API off
/// listen = "127.0.0.1:8421"                 # also TCP, loopback only, every client with a token
/// listen_optional = true                    # a port that cannot be had is a warning, not a startup error
/// thumbnail_sizes = [256, 512]              # make these thumbnails of new photos at idle priority
/// thumbnail_cache_mb = 1024                 # the thumbnail cache's bound (default 512; 0: none)
/// decode_memory_mb = 256                    # memory image decodes may take at once (default 256)
///
/// [[hooks]]
/// name = "backup-favorites"
/// command = ["/home/me/bin/backup", "--to", "/mnt/backup"]
/// objects = ["asset"]
/// changes = ["inserted", "updated"]
/// predicate = "favorite == YES AND mediaType == 1"
/// albums = ["/home/me/Pictures/Family"]
/// access = "limited"                            # PHOTOS_TOKEN sees only the albums' assets
///
/// [[hooks]]
/// name = "frame"
/// url = "http://127.0.0.1:8080/photos"          # a webhook: POSTed instead of run
/// secret_file = "frame.secret"                  # signs the POST (X-Photos-Signature)
///
/// [[imports]]
/// from = "/home/me/Sync/Phone"                  # a drop folder, outside every root
/// to = "/home/me/Pictures"                      # a root with write = "files"
/// layout = "{yyyy}/{yyyy-MM-dd}"                # folders from the capture date
/// name = "{original}"                           # the file's new stem
/// ```
///
/// The file is decoded into typed tables (`ConfigFile+Decoding.swift`): a key it does not know is an
/// error, as a value of the wrong type or out of range is. Every problem is a ``ConfigError`` naming
/// the file, the line and the key; the first one found is thrown, so a daemon never starts with part
/// of its configuration. Albums are checked against a library separately
/// (``validateAlbums(in:watchedRoots:)``): parsing needs no library.
public struct ConfigFile: Sendable, Hashable {
    /// The library file, or a `postgresql://` URL (`library`).
    public var library: String?
    /// The directories to watch and what the library may write under each (`roots`: a directory, or a
    /// table `{ path = "…", write = "none" | "sidecars" | "files" }`; `[[roots]]` tables too).
    public var libraryRoots: [LibraryRoot] = []
    /// The directories to watch (`roots`), as paths; setting them makes each read-only (`write = "none"`).
    public var roots: [String] {
        get { libraryRoots.map(\.path) }
        set { libraryRoots = newValue.map { LibraryRoot(path: $0) } }
    }
    /// Shell patterns of names to skip (`ignore`).
    public var ignore: [String] = []
    /// The settle period in milliseconds (`settle_ms`).
    public var settleMilliseconds: Int?
    /// How often unwatchable roots are crawled, in seconds (`poll_interval_s`).
    public var pollIntervalSeconds: Int?
    /// The zone for file dates with no offset (`time_zone`).
    public var timeZone: String?
    /// How many days a deleted asset stays in "Recently Deleted" before it is erased for good with its
    /// files in the Trash (`trash_days`; default 30).
    public var trashDays: Int?
    /// The most change-log entries kept for hooks that lag behind (`hook_history_limit`).
    public var hookHistoryLimit: Int?
    /// The API's Unix socket (`socket`); empty turns the API off.
    public var socket: String?
    /// The API's loopback TCP listener (`listen`, `HOST:PORT`; photosd checks that it is loopback).
    public var listen: String?
    /// Whether photosd starts without its socket when the socket cannot be had (`socket_optional`):
    /// a warning in the log, not a startup error.
    public var socketOptional = false
    /// Whether photosd starts without its TCP listener when the address cannot be had (`listen_optional`).
    public var listenOptional = false
    /// The sides of the square thumbnails made of new and changed photos ahead of requests
    /// (`thumbnail_sizes`, 16 to 1,024 each); empty makes none.
    public var thumbnailSizes: [Int] = []
    /// The thumbnail cache's bound in megabytes (`thumbnail_cache_mb`); 0 keeps no cache.
    public var thumbnailCacheMegabytes: Int?
    /// The memory image decodes may hold at once, in megabytes (`decode_memory_mb`, at least 16):
    /// a decode that alone would need more is refused, others wait their turn.
    public var decodeMemoryMegabytes: Int?
    /// The exec hooks and webhooks (`[[hooks]]` tables), in the file's order, their albums as the file names them.
    public var hooks: [HookDefinition] = []
    /// The watched import folders (`[[imports]]` tables), in the file's order: each one's `to` is a root
    /// of ``libraryRoots`` with `write = "files"`, each one's `from` lies outside every root and every
    /// other import's `from`, and its templates parse.
    public var imports: [ImportDefinition] = []
    /// The file's name and the lines of its keys, for problems found after parsing (a missing album).
    var source: ConfigSource?

    /// An empty configuration.
    public init() {}

    /// The default location: `$XDG_CONFIG_HOME/photosd/config.toml` (`~/.config/photosd/config.toml`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/photosd/config.toml"
    }

    /// Reads and parses a file; a file that cannot be read or is not UTF-8 is a `.unreadable` error.
    public static func read(path: String) throws(ConfigError) -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let reason =
                if path.isEmpty {
                    "the path is empty"
                } else if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                    "no such file"
                } else if isDirectory.boolValue {
                    "it is a directory"
                } else if !FileManager.default.isReadableFile(atPath: path) {
                    "permission denied"
                } else {
                    (error as NSError).localizedDescription
                }
            throw ConfigError(
                .unreadable, path: path, line: nil, key: nil, message: "cannot read the file: \(reason)",
                cause: error)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(.unreadable, path: path, line: nil, key: nil, message: "the file is not UTF-8 text")
        }
        return try parse(text, path: path)
    }

    /// Parses configuration text; `path` names the file in errors.
    public static func parse(_ text: String, path: String = "config.toml") throws(ConfigError) -> ConfigFile {
        // TOMLKit hands the text to C++ as a C string: a NUL would silently end the document there.
        if let nul = text.unicodeScalars.firstIndex(of: "\0") {
            let line = text.unicodeScalars[..<nul].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            throw ConfigError(.syntax, path: path, line: line, key: nil, message: "a NUL character is not allowed")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(.syntax, path: path, line: error.source.begin.line, key: nil, message: error.description)
        } catch {
            throw ConfigError(.syntax, path: path, line: nil, key: nil, message: "\(error)")
        }
        let lines = ConfigLines(text)
        var decoder = TOMLDecoder()
        decoder.userInfo[ConfigSource.key] = ConfigSource(path: path, lines: lines)
        do {
            return try decoder.decode(TopLevel.self, from: table).config
        } catch {
            throw ConfigError(decoding: error, in: table, path: path, lines: lines)
        }
    }

    /// The config that `--config` names (`path`, which must exist), else the default one if it is
    /// there, else none; with the path it was read from, or would have been.
    public static func load(
        named path: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (file: ConfigFile?, path: String) {
        if let path { return (try ConfigFile.read(path: path), path) }
        let standard = defaultPath(environment: environment)
        guard FileManager.default.fileExists(atPath: standard) else { return (nil, standard) }
        return (try ConfigFile.read(path: standard), standard)
    }

    /// Whether a hook name is 1 to 64 characters of `a-z`, `0-9` and `-`.
    public static func isValidHookName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
            }
    }

    /// The line of a key path in the file this configuration was parsed from (`hooks[1].albums`).
    package func line(of key: String) -> Int? {
        source?.lines.line(of: key)
    }
}
