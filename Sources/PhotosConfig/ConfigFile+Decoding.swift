import Foundation
import PhotosCore
import PhotosHooks
import TOMLKit

// The file's tables as `Decodable` types: TOMLKit's decoder reads the types, these check the values.
// Each table first refuses keys it does not know (as `API.ChangeBatch`'s strict fields do); a value of
// the wrong TOML type surfaces as TOMLKit's `DecodingError`, which `ConfigError(decoding:)` words from
// the key's `expected`; a value out of what the key accepts is a `ConfigProblem`. Both carry the key's
// coding path, which `ConfigLines` turns into the file's line.

/// A key of one of the file's tables: its name (the raw value), what it holds in the words of error
/// messages, and the whole numbers it accepts.
protocol ConfigKey: CodingKey, CaseIterable {
    /// What the key holds: "a string", "a whole number of seconds, 1 or more".
    var expected: String { get }
    /// The whole numbers the key accepts (integer keys only).
    var accepted: ClosedRange<Int> { get }
}

/// A value decoded but refused, by its key's coding path: ``ConfigFile/parse(_:path:)`` makes it a
/// ``ConfigError`` with the key's line.
struct ConfigProblem: Error {
    var code: ConfigError.Code
    var codingPath: [any CodingKey]
    var message: String
    var cause: (any Error)?
}

/// The file being decoded: its path (errors name it; `secret_file` and `ca_file` are beside it) and
/// the lines of its keys. ``ConfigFile/parse(_:path:)`` hands it to the tables in the decoder's `userInfo`.
struct ConfigSource: Sendable, Hashable {
    var path: String
    var lines: ConfigLines

    static let key = CodingUserInfoKey(rawValue: "photosd.config.source")!

    /// A file a key names: an absolute path, or one relative to the config file's directory.
    func file(_ text: String) -> String {
        let base = (path as NSString).deletingLastPathComponent
        return text.hasPrefix("/") || base.isEmpty ? text : (base as NSString).appendingPathComponent(text)
    }
}

extension ConfigSource {
    /// The source a table is decoded from.
    init(_ decoder: any Decoder) {
        self = decoder.userInfo[Self.key] as? ConfigSource ?? ConfigSource(path: "config.toml", lines: ConfigLines(""))
    }
}

extension ConfigFile {
    /// The top level of the file.
    struct TopLevel: Decodable {
        var config = ConfigFile()

        enum Key: String, CodingKey, ConfigKey {
            case library, roots, ignore, settle = "settle_ms", pollInterval = "poll_interval_s", timeZone = "time_zone"
            case hookHistoryLimit = "hook_history_limit", socket, hooks, listen, thumbnailSizes = "thumbnail_sizes"
            case thumbnailCache = "thumbnail_cache_mb", decodeMemory = "decode_memory_mb", trashDays = "trash_days"
            case socketOptional = "socket_optional", listenOptional = "listen_optional", imports

            var expected: String {
                switch self {
                case .library, .timeZone, .socket, .listen: "a string"
                case .roots: "an array of directories, each a string or a table (path, write)"
                case .ignore: "an array of strings"
                case .settle: "a whole number of milliseconds, 0 or more"
                case .pollInterval: "a whole number of seconds, more than 0"
                case .hookHistoryLimit: "a whole number of change-log entries, 1 or more"
                case .hooks: "an array of tables ([[hooks]])"
                case .imports: "an array of tables ([[imports]])"
                case .thumbnailSizes: "an array of whole numbers of pixels from 16 to 1024"
                case .thumbnailCache: "a whole number of megabytes, 0 or more"
                case .decodeMemory: "a whole number of megabytes, 16 or more"
                case .trashDays: "a whole number of days, 0 or more"
                case .socketOptional, .listenOptional: "true or false"
                }
            }

            var accepted: ClosedRange<Int> {
                switch self {
                case .pollInterval, .hookHistoryLimit: 1...Int.max
                case .thumbnailSizes: 16...1024
                case .decodeMemory: 16...Int.max
                default: 0...Int.max
                }
            }
        }

        init(from decoder: any Decoder) throws {
            let source = ConfigSource(decoder)
            let keys = try decoder.strictContainer(keyedBy: Key.self)
            config.source = source
            if let library = try keys.decodeIfPresent(String.self, forKey: .library) {
                // A relative path would name another library in each directory a command is run
                // from; `~` is no shell's to expand here.
                let lowered = library.lowercased()
                guard library.hasPrefix("/") || lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
                else {
                    throw keys.problem(
                        .invalidValue, .library,
                        "must be an absolute path or a postgresql:// URL, not \(ConfigError.quote(library))")
                }
                config.library = library
            }
            config.libraryRoots = try keys.decodeIfPresent([RootTable].self, forKey: .roots)?.map(\.root) ?? []
            // The same root twice is a slip (two write policies for one folder, or a copy left behind).
            var indexByRoot: [String: Int] = [:]
            for (index, root) in config.libraryRoots.enumerated() {
                if let earlier = indexByRoot[root.path] {
                    throw ConfigProblem(
                        code: .invalidValue, codingPath: [Key.roots, AnyKey(index: index)],
                        message: "\(ConfigError.quote(root.path)) is already roots[\(earlier)]")
                }
                indexByRoot[root.path] = index
            }
            config.ignore = try keys.decodeIfPresent([String].self, forKey: .ignore) ?? []
            config.settleMilliseconds = try keys.number(.settle)
            config.pollIntervalSeconds = try keys.number(.pollInterval)
            if let zone = try keys.decodeIfPresent(String.self, forKey: .timeZone) {
                guard TimeZone(identifier: zone) != nil else {
                    throw keys.problem(
                        .invalidValue, .timeZone, "must be a time zone identifier such as Europe/Paris, not \"\(zone)\""
                    )
                }
                config.timeZone = zone
            }
            config.hookHistoryLimit = try keys.number(.hookHistoryLimit)
            if let socket = try keys.decodeIfPresent(String.self, forKey: .socket) {
                guard socket.isEmpty || socket.hasPrefix("/") else {
                    throw keys.problem(
                        .invalidValue, .socket,
                        "must be an absolute path, or \"\" to turn the API off, not \"\(socket)\"")
                }
                config.socket = socket
            }
            config.listen = try keys.decodeIfPresent(String.self, forKey: .listen)
            config.socketOptional = try keys.decodeIfPresent(Bool.self, forKey: .socketOptional) ?? false
            config.listenOptional = try keys.decodeIfPresent(Bool.self, forKey: .listenOptional) ?? false
            for side in try keys.numbers(.thumbnailSizes) ?? [] where !config.thumbnailSizes.contains(side) {
                config.thumbnailSizes.append(side)
            }
            config.thumbnailCacheMegabytes = try keys.number(.thumbnailCache)
            config.decodeMemoryMegabytes = try keys.number(.decodeMemory)
            config.trashDays = try keys.number(.trashDays)
            config.hooks = try keys.decodeIfPresent([HookTable].self, forKey: .hooks)?.map(\.hook) ?? []
            var indexByName: [String: Int] = [:]
            for (index, hook) in config.hooks.enumerated() {
                if let earlier = indexByName[hook.name] {
                    let place = source.lines.line(of: "hooks[\(earlier)].name").map { " (line \($0))" } ?? ""
                    throw ConfigProblem(
                        code: .duplicateName, codingPath: [Key.hooks, AnyKey(index: index), HookTable.Key.name],
                        message: "\(ConfigError.quote(hook.name)) is already the name of hooks[\(earlier)]\(place)")
                }
                indexByName[hook.name] = index
            }
            config.imports = try keys.decodeIfPresent([ImportTable].self, forKey: .imports)?.map(\.definition) ?? []
            try Self.validateImports(config.imports, roots: config.libraryRoots)
        }
    }

    /// One root: a directory (`"/home/me/Pictures"`), or a table naming it and what the library may
    /// write under it (`{ path = "/home/me/Pictures", write = "sidecars" }`, or a `[[roots]]` table).
    struct RootTable: Decodable {
        var root: LibraryRoot

        static let policies = RootWritePolicy.allCases.map { (name: $0.rawValue, value: $0) }

        enum Key: String, CodingKey, ConfigKey {
            case path, write

            var expected: String {
                switch self {
                case .path: "a string (an absolute directory)"
                case .write: "one of " + RootTable.policies.map { "\"\($0.name)\"" }.joined(separator: ", ")
                }
            }

            var accepted: ClosedRange<Int> { 0...Int.max }
        }

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let path = try? single.decode(String.self) {
                guard path.hasPrefix("/") else {
                    throw ConfigProblem(
                        code: .invalidValue, codingPath: decoder.codingPath,
                        message: "must be an absolute directory, not \(ConfigError.quote(path))")
                }
                root = LibraryRoot(path: path)
                return
            }
            let keys: KeyedDecodingContainer<Key>
            do {
                keys = try decoder.strictContainer(keyedBy: Key.self)
            } catch DecodingError.typeMismatch {
                // Neither a string nor a table: named as an item of `roots` ("but item 2 is an integer").
                throw DecodingError.typeMismatch(
                    String.self, .init(codingPath: decoder.codingPath, debugDescription: "a directory or a table"))
            }
            guard let path = try keys.decodeIfPresent(String.self, forKey: .path) else {
                throw ConfigProblem(
                    code: .missingKey, codingPath: decoder.codingPath + [Key.path],
                    message: "missing: a root table needs the directory's path")
            }
            guard path.hasPrefix("/") else {
                throw keys.problem(
                    .invalidValue, .path, "must be an absolute directory, not \(ConfigError.quote(path))")
            }
            var write = RootWritePolicy.none
            if let name = try keys.decodeIfPresent(String.self, forKey: .write) {
                guard let policy = RootWritePolicy(rawValue: name) else {
                    throw keys.problem(
                        .invalidValue, .write, "must be \(Key.write.expected), not \(ConfigError.quote(name))")
                }
                write = policy
            }
            root = LibraryRoot(path: path, write: write)
        }
    }

    /// One `[[hooks]]` table: an exec hook (`command`) or a webhook (`url`).
    struct HookTable: Decodable {
        var hook = HookDefinition(name: "", command: [])

        static let objects = PHObjectType.allCases.map { (name: "\($0)", value: $0) }
        static let changes = HookDefinition.ChangeKind.allCases.map { (name: $0.rawValue, value: $0) }

        enum Key: String, CodingKey, ConfigKey {
            case name, command, objects, changes, predicate, albums, batch, settle = "settle_ms", timeout = "timeout_s"
            case maxFailures = "max_failures", nice, enabled, access, url, secret, secretFile = "secret_file"
            case caFile = "ca_file"

            var expected: String {
                switch self {
                case .name, .predicate, .access, .url, .secret, .secretFile, .caFile: "a string"
                case .command: "an array of strings (the program and its arguments)"
                case .objects: "an array of strings out of " + HookTable.objects.map(\.name).joined(separator: ", ")
                case .changes: "an array of strings out of " + HookTable.changes.map(\.name).joined(separator: ", ")
                case .albums: "an array of album directories or local identifiers"
                case .batch: "a whole number of objects, 1 or more"
                case .settle: "a whole number of milliseconds, 0 or more"
                case .timeout: "a whole number of seconds, 1 or more"
                case .maxFailures: "a whole number of failed runs, 1 or more"
                case .nice: "a nice increment from 0 to 19"
                case .enabled: "true or false"
                }
            }

            var accepted: ClosedRange<Int> {
                switch self {
                case .settle: 0...Int.max
                case .nice: 0...19
                default: 1...Int.max
                }
            }
        }

        init(from decoder: any Decoder) throws {
            let source = ConfigSource(decoder)
            let keys = try decoder.strictContainer(keyedBy: Key.self)
            let name = try keys.decodeIfPresent(String.self, forKey: .name)
            if let name, !ConfigFile.isValidHookName(name) {
                throw keys.problem(
                    .invalidValue, .name, "\(ConfigError.quote(name)) must be 1 to 64 characters of a-z, 0-9 and -")
            }
            let command = try keys.decodeIfPresent([String].self, forKey: .command)
            if let command, command.first?.isEmpty ?? true {
                let why = command.isEmpty ? "the array is empty" : "its first item is empty"
                throw keys.problem(.invalidValue, .command, "must name the program to run: \(why)")
            }
            var url: WebhookURL?
            if let text = try keys.decodeIfPresent(String.self, forKey: .url) {
                do {
                    url = try WebhookURL(text)
                } catch {
                    throw keys.problem(.invalidValue, .url, error.description)
                }
            }
            hook.objects = try keys.choices(.objects, Self.objects) ?? hook.objects
            hook.changes = try keys.choices(.changes, Self.changes) ?? hook.changes
            if let format = try keys.decodeIfPresent(String.self, forKey: .predicate) {
                // As PHFetchOptions checks a fetch's predicate: it parses, and names keys PHAsset has.
                do {
                    try PhotoKitPredicate(format: format, arguments: []).validate(against: .asset)
                } catch {
                    throw keys.problem(.invalidPredicate, .predicate, error.description, cause: error)
                }
                hook.predicate = format
            }
            if let albums = try keys.decodeIfPresent([String].self, forKey: .albums) {
                if let index = albums.firstIndex(where: \.isEmpty) {
                    throw keys.problem(.invalidValue, .albums, "item \(index + 1) is empty")
                }
                hook.albums = albums
            }
            hook.batch = try keys.number(.batch) ?? hook.batch
            hook.settle = try keys.number(.settle).map { Duration.milliseconds($0) } ?? hook.settle
            hook.timeout = try keys.number(.timeout).map { Duration.seconds($0) } ?? hook.timeout
            hook.maxFailures = try keys.number(.maxFailures) ?? hook.maxFailures
            let nice = try keys.number(.nice)
            hook.nice = nice ?? hook.nice
            hook.enabled = try keys.decodeIfPresent(Bool.self, forKey: .enabled) ?? hook.enabled
            let access = try keys.decodeIfPresent(String.self, forKey: .access)
            if let access {
                guard let level = AccessLevel(rawValue: access) else {
                    throw keys.problem(
                        .invalidValue, .access,
                        "must be read-only, read-write, add-only or limited, not \(ConfigError.quote(access))")
                }
                hook.access = level
            }
            let secretKey = try Self.secret(keys, source)
            hook.secret = secretKey?.secret
            let caFile = try keys.nonEmpty(.caFile).map(source.file)

            guard let name else {
                throw keys.problem(.missingKey, .name, "missing: every hook needs a name (1 to 64 of a-z, 0-9 and -)")
            }
            if access != nil, hook.access == .limited, hook.albums.isEmpty {
                // Without albums a limited token would see nothing, and the hook would be told about every asset.
                throw keys.problem(
                    .missingKey, .access,
                    "\"limited\" sees only the assets of the hook's albums: name them, e.g. "
                        + "albums = [\"/home/me/Pictures/Family\"] (album directories or local identifiers)")
            }
            switch (command, url) {
            case (nil, nil):
                throw keys.problem(
                    .missingKey, .command,
                    "missing: the program to run and its arguments, e.g. [\"/usr/local/bin/backup\", \"--to\", \"/mnt\"], "
                        + "or a url to POST to")
            case (.some, .some):
                throw keys.problem(
                    .invalidValue, .url, "give either command or url, not both: a hook runs a program or POSTs")
            case (.some(let command), nil):
                if let secretKey {
                    throw keys.problem(
                        .invalidValue, secretKey.key, "signs a webhook's POST: only a hook with a url has one")
                }
                if caFile != nil {
                    throw keys.problem(
                        .invalidValue, .caFile, "trusts an https webhook's server: only a hook with a url has one")
                }
                hook.command = command
            case (nil, .some(let url)):
                if nice != nil {
                    throw keys.problem(.invalidValue, .nice, "sets a command's priority: a webhook (url) runs none")
                }
                if let caFile {
                    hook.caFile = try Self.caFile(caFile, for: url, keys)
                }
                hook.url = url
            }
            hook.name = name
        }

        /// A webhook's secret and the key that gives it: the string itself (`secret`), or read now
        /// from a file (`secret_file`; a final newline is not part of it). One of the two at most.
        static func secret(_ keys: KeyedDecodingContainer<Key>, _ source: ConfigSource) throws
            -> (key: Key, secret: WebhookSecret)?
        {
            let given = try [Key.secret, .secretFile].compactMap { key in try keys.nonEmpty(key).map { (key, $0) } }
                .sorted { source.lines.line(of: keys, $0.0) < source.lines.line(of: keys, $1.0) }
            guard let first = given.first else { return nil }
            let (key, text) = first
            if given.count > 1 {
                throw keys.problem(
                    .invalidValue, given[1].0,
                    "give either secret or secret_file, not both (\(key.stringValue) is given too)")
            }
            guard key == .secretFile else { return (key, WebhookSecret(Array(text.utf8))) }
            let file = source.file(text)
            guard var bytes = FileManager.default.contents(atPath: file).map(Array.init) else {
                throw keys.problem(.invalidValue, key, "cannot read the file \(ConfigError.quote(file))")
            }
            while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard !bytes.isEmpty else {
                throw keys.problem(.invalidValue, key, "the file \(ConfigError.quote(file)) is empty")
            }
            return (key, WebhookSecret(bytes))
        }

        /// An https webhook's certificate authorities (`ca_file`): a readable file out of which
        /// OpenSSL loads a certificate.
        static func caFile(_ file: String, for url: WebhookURL, _ keys: KeyedDecodingContainer<Key>) throws
            -> WebhookCAFile
        {
            guard url.scheme == .https else {
                throw keys.problem(
                    .invalidValue, .caFile,
                    "trusts an https webhook's server: \(ConfigError.quote(url.text)) is plain http, "
                        + "with no certificate to check")
            }
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw keys.problem(.invalidValue, .caFile, "cannot read the file \(ConfigError.quote(file))")
            }
            do {
                return try WebhookCAFile(file)
            } catch {
                throw keys.problem(.invalidValue, .caFile, error.description)
            }
        }
    }
}

// MARK: Reading values

extension Decoder {
    /// A table's keys, once it is checked to hold none but `Key`'s: a misspelt key is an error, not
    /// a value silently left out. Of several unknown keys, the first in the file is named.
    func strictContainer<Key: ConfigKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let lines = ConfigSource(self).lines
        let unknown = try container(keyedBy: AnyKey.self).allKeys.filter { Key(stringValue: $0.stringValue) == nil }
            .map { (line: lines.line(of: codingPath + [$0]) ?? .max, key: $0.stringValue) }
        if let first = unknown.min(by: { ($0.line, $0.key) < ($1.line, $1.key) }) {
            let known = Key.allCases.map(\.stringValue).joined(separator: ", ")
            throw ConfigProblem(
                code: .unknownKey, codingPath: codingPath + [AnyKey(first.key)],
                message: "unknown key (known: \(known))")
        }
        return try container(keyedBy: type)
    }
}

extension KeyedDecodingContainer where Key: ConfigKey {
    /// A problem with the value of `key`.
    func problem(_ code: ConfigError.Code, _ key: Key, _ message: String, cause: (any Error)? = nil) -> ConfigProblem {
        ConfigProblem(code: code, codingPath: codingPath + [key], message: message, cause: cause)
    }

    /// A whole number the key accepts (``ConfigKey/accepted``).
    func number(_ key: Key) throws -> Int? {
        guard let number = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard key.accepted.contains(number) else {
            throw problem(.invalidValue, key, "must be \(key.expected), not \(number)")
        }
        return number
    }

    /// An array of whole numbers the key accepts.
    func numbers(_ key: Key) throws -> [Int]? {
        let numbers = try decodeIfPresent([Int].self, forKey: key)
        if let wrong = numbers?.first(where: { !key.accepted.contains($0) }) {
            throw problem(.invalidValue, key, "must be \(key.expected), not \(wrong)")
        }
        return numbers
    }

    /// A string that is not empty.
    func nonEmpty(_ key: Key) throws -> String? {
        let text = try decodeIfPresent(String.self, forKey: key)
        if text?.isEmpty == true { throw problem(.invalidValue, key, "must not be empty") }
        return text
    }

    /// A non-empty array of names out of a fixed list (`objects`, `changes`).
    func choices<Choice: Hashable>(_ key: Key, _ allowed: [(name: String, value: Choice)]) throws -> Set<Choice>? {
        guard let given = try decodeIfPresent([String].self, forKey: key) else { return nil }
        let names = allowed.map(\.name).joined(separator: ", ")
        guard !given.isEmpty else {
            throw problem(.invalidValue, key, "must name at least one of \(names) (leave the key out for all)")
        }
        var chosen = Set<Choice>()
        for name in given {
            guard let choice = allowed.first(where: { $0.name == name }) else {
                throw problem(.invalidValue, key, "\(ConfigError.quote(name)) is not one of \(names)")
            }
            chosen.insert(choice.value)
        }
        return chosen
    }
}

extension ConfigLines {
    /// The line of a key of a table being decoded; keys not in the file last.
    func line<Key: ConfigKey>(of keys: KeyedDecodingContainer<Key>, _ key: Key) -> Int {
        line(of: keys.codingPath + [key]) ?? .max
    }
}

extension [any CodingKey] {
    /// The key as errors name it: `hooks[1].changes`.
    var keyPath: String {
        reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
    }
}

// MARK: Errors

extension ConfigError {
    /// A failure to decode `table` as the file's problem: a ``ConfigProblem`` as it is; a value of
    /// the wrong TOML type (TOMLKit's `DecodingError`) with what the key wants and what it found.
    init(decoding error: any Error, in table: TOMLTable, path: String, lines: ConfigLines) {
        if let problem = error as? ConfigProblem {
            self.init(
                problem.code, path: path, line: lines.line(of: problem.codingPath), key: problem.codingPath.keyPath,
                message: problem.message, cause: problem.cause)
            return
        }
        var wantsTable = false
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(let type, let found)?:
            context = found
            wantsTable = type == TOMLTable.self
        case .keyNotFound(_, let found)?, .valueNotFound(_, let found)?, .dataCorrupted(let found)?:
            context = found
        default:
            self.init(.syntax, path: path, line: nil, key: nil, message: "\(error)", cause: error)
            return
        }
        var codingPath = context.codingPath
        let found = table.value(at: codingPath).map { Self.describe($0.type) } ?? "missing"
        let message: String
        if wantsTable {
            message = "must be a table, not \(found)"
        } else if let index = codingPath.last?.intValue {
            // An item of an array: named by the array's key.
            codingPath.removeLast()
            message = "must be \(Self.expected(codingPath)), but item \(index + 1) is \(found)"
        } else {
            message = "must be \(Self.expected(codingPath)), not \(found)"
        }
        self.init(.wrongType, path: path, line: lines.line(of: codingPath), key: codingPath.keyPath, message: message)
    }

    private static func expected(_ codingPath: [any CodingKey]) -> String {
        (codingPath.last as? any ConfigKey)?.expected ?? "something else"
    }

    /// A TOML type with its article, as messages name what they found: "an integer", "a table".
    static func describe(_ type: TOMLType) -> String {
        switch type {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a floating-point number"
        case .bool: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }

    /// A value as TOML would write it, so that spaces and empty strings show; a long one by its start only.
    static func quote(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars.prefix(100) {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += String(format: "\\u%04X", scalar.value)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + (text.unicodeScalars.count > 100 ? "…\"" : "\"")
    }
}
