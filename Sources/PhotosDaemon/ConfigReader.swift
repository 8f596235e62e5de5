import Foundation
import PhotosCore
import PhotosHooks
import TOMLKit

/// Typed values out of a parsed TOML document, each problem a ``ConfigError`` with the key's line.
struct ConfigReader {
    /// The file, as errors name it.
    let path: String
    /// Where the document's keys are.
    let lines: ConfigLines

    func error(
        _ code: ConfigError.Code, _ key: String, _ message: String, cause: (any Error)? = nil
    ) -> ConfigError {
        ConfigError(code, path: path, line: lines.line(of: key), key: key, message: message, cause: cause)
    }

    func unknownKey(_ key: String, known: [String]) -> ConfigError {
        error(.unknownKey, key, "unknown key (known: \(known.joined(separator: ", ")))")
    }

    func wrongType(_ key: String, _ expected: String, _ value: any TOMLValueConvertible) -> ConfigError {
        error(.wrongType, key, "must be \(expected), not \(Self.describe(value.type))")
    }

    /// A table's keys in the order the file gives them, so that the first problem reported is the first in the file.
    func keysInFileOrder(_ table: TOMLTable, under prefix: String?) -> [String] {
        table.keys.map { key in (key, lines.line(of: prefix.map { "\($0).\(key)" } ?? key) ?? .max) }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            .map(\.0)
    }

    func string(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> String {
        guard let text = value.string else { throw wrongType(key, "a string", value) }
        return text
    }

    func boolean(_ value: any TOMLValueConvertible, _ key: String) throws(ConfigError) -> Bool {
        guard let flag = value.bool else { throw wrongType(key, "true or false", value) }
        return flag
    }

    /// An integer of at least `minimum`; `expected` says what the key wants ("a whole number of seconds, 1 or more").
    func integer(
        _ value: any TOMLValueConvertible, _ key: String, atLeast minimum: Int, _ expected: String
    ) throws(ConfigError) -> Int {
        guard let number = value.int else { throw wrongType(key, expected, value) }
        guard number >= minimum else { throw error(.invalidValue, key, "must be \(expected), not \(number)") }
        return number
    }

    func strings(
        _ value: any TOMLValueConvertible, _ key: String, expected: String = "an array of strings"
    ) throws(ConfigError) -> [String] {
        guard let array = value.array else { throw wrongType(key, expected, value) }
        var items: [String] = []
        for (index, item) in array.enumerated() {
            guard let text = item.string else {
                let found = Self.describe(item.type)
                throw error(.wrongType, key, "must be \(expected), but item \(index + 1) is \(found)")
            }
            items.append(text)
        }
        return items
    }

    /// A non-empty array of names out of a fixed list (`objects`, `changes`).
    func choices<Choice: Hashable>(
        _ value: any TOMLValueConvertible, _ key: String, _ allowed: [(name: String, value: Choice)]
    ) throws(ConfigError) -> Set<Choice> {
        let names = allowed.map(\.name).joined(separator: ", ")
        let given = try strings(value, key, expected: "an array of strings out of \(names)")
        guard !given.isEmpty else {
            throw error(.invalidValue, key, "must name at least one of \(names) (leave the key out for all)")
        }
        var chosen = Set<Choice>()
        for name in given {
            guard let choice = allowed.first(where: { $0.name == name }) else {
                throw error(.invalidValue, key, "\(Self.quote(name)) is not one of \(names)")
            }
            chosen.insert(choice.value)
        }
        return chosen
    }

    // MARK: Hooks

    /// The `[[hooks]]` tables, each checked, names unique.
    func hooks(_ value: any TOMLValueConvertible) throws(ConfigError) -> [HookDefinition] {
        guard let array = value.array else { throw wrongType("hooks", "an array of tables ([[hooks]])", value) }
        var hooks: [HookDefinition] = []
        var indexByName: [String: Int] = [:]
        for (index, element) in array.enumerated() {
            let prefix = "hooks[\(index)]"
            guard let table = element.table else { throw wrongType(prefix, "a table", element) }
            let hook = try self.hook(table, prefix)
            if let earlier = indexByName[hook.name] {
                let place = lines.line(of: "hooks[\(earlier)].name").map { " (line \($0))" } ?? ""
                throw error(
                    .duplicateName, "\(prefix).name",
                    "\(Self.quote(hook.name)) is already the name of hooks[\(earlier)]\(place)")
            }
            indexByName[hook.name] = index
            hooks.append(hook)
        }
        return hooks
    }

    private static let objectNames = PHObjectType.allCases.map { (name: "\($0)", value: $0) }
    private static let changeNames = HookDefinition.ChangeKind.allCases.map { (name: $0.rawValue, value: $0) }

    /// One `[[hooks]]` table.
    func hook(_ table: TOMLTable, _ prefix: String) throws(ConfigError) -> HookDefinition {
        var hook = HookDefinition(name: "", command: [])
        var name: String?
        var command: [String]?
        // A webhook's keys, checked against `command` once the whole table is read.
        var url: WebhookURL?
        var secretKey: String?
        var caFile: String?
        var niceKey: String?
        // Checked against `albums` once the whole table is read: a limited token sees only the hook's albums.
        var accessKey: String?
        for key in keysInFileOrder(table, under: prefix) {
            guard let value = table[key] else { continue }
            let path = "\(prefix).\(key)"
            switch key {
            case "name":
                let text = try string(value, path)
                guard ConfigFile.isValidHookName(text) else {
                    throw error(.invalidValue, path, "\(Self.quote(text)) must be 1 to 64 characters of a-z, 0-9 and -")
                }
                name = text
            case "command":
                let argv = try strings(value, path, expected: "an array of strings (the program and its arguments)")
                guard let program = argv.first else {
                    throw error(.invalidValue, path, "must name the program to run: the array is empty")
                }
                guard !program.isEmpty else {
                    throw error(.invalidValue, path, "must name the program to run: its first item is empty")
                }
                command = argv
            case "url":
                let text = try string(value, path)
                do {
                    url = try WebhookURL(text)
                } catch {
                    throw self.error(.invalidValue, path, error.description)
                }
            case "secret", "secret_file":
                if let secretKey {
                    throw error(
                        .invalidValue, path, "give either secret or secret_file, not both (\(secretKey) is given too)")
                }
                hook.secret = try secret(value, key, path)
                secretKey = key
            case "ca_file":
                // The file is checked once the table says the hook is an https webhook.
                let text = try string(value, path)
                guard !text.isEmpty else { throw error(.invalidValue, path, "must not be empty") }
                caFile = relativeToConfig(text)
            case "objects":
                hook.objects = try choices(value, path, Self.objectNames)
            case "changes":
                hook.changes = try choices(value, path, Self.changeNames)
            case "predicate":
                let format = try string(value, path)
                // As PHFetchOptions checks a fetch's predicate: it parses, and names keys PHAsset has.
                do {
                    try PhotoKitPredicate(format: format, arguments: []).validate(against: .asset)
                } catch {
                    throw self.error(.invalidPredicate, path, error.description, cause: error)
                }
                hook.predicate = format
            case "albums":
                let albums = try strings(value, path, expected: "an array of album directories or local identifiers")
                if let index = albums.firstIndex(where: \.isEmpty) {
                    throw error(.invalidValue, path, "item \(index + 1) is empty")
                }
                hook.albums = albums
            case "batch":
                hook.batch = try integer(value, path, atLeast: 1, "a whole number of objects, 1 or more")
            case "settle_ms":
                let milliseconds = try integer(value, path, atLeast: 0, "a whole number of milliseconds, 0 or more")
                hook.settle = .milliseconds(milliseconds)
            case "timeout_s":
                hook.timeout = .seconds(try integer(value, path, atLeast: 1, "a whole number of seconds, 1 or more"))
            case "max_failures":
                hook.maxFailures = try integer(value, path, atLeast: 1, "a whole number of failed runs, 1 or more")
            case "nice":
                hook.nice = try integer(value, path, atLeast: 0, "a nice increment from 0 to 19")
                guard hook.nice <= 19 else {
                    throw error(.invalidValue, path, "must be a nice increment from 0 to 19, not \(hook.nice)")
                }
                niceKey = key
            case "enabled":
                hook.enabled = try boolean(value, path)
            case "access":
                let text = try string(value, path)
                guard let level = AccessLevel(rawValue: text) else {
                    throw error(
                        .invalidValue, path,
                        "must be read-only, read-write, add-only or limited, not \(Self.quote(text))")
                }
                hook.access = level
                accessKey = key
            default:
                throw unknownKey(path, known: ConfigFile.hookKeys)
            }
        }
        guard let name else {
            throw error(.missingKey, "\(prefix).name", "missing: every hook needs a name (1 to 64 of a-z, 0-9 and -)")
        }
        if let accessKey, hook.access == .limited, hook.albums.isEmpty {
            // Without albums a limited token would see nothing, and the hook would be told about every asset.
            throw error(
                .missingKey, "\(prefix).\(accessKey)",
                "\"limited\" sees only the assets of the hook's albums: name them, e.g. "
                    + "albums = [\"/home/me/Pictures/Family\"] (album directories or local identifiers)")
        }
        switch (command, url) {
        case (nil, nil):
            throw error(
                .missingKey, "\(prefix).command",
                "missing: the program to run and its arguments, e.g. [\"/usr/local/bin/backup\", \"--to\", \"/mnt\"], "
                    + "or a url to POST to")
        case (.some, .some):
            throw error(
                .invalidValue, "\(prefix).url", "give either command or url, not both: a hook runs a program or POSTs")
        case (.some(let command), nil):
            if let secretKey {
                throw error(
                    .invalidValue, "\(prefix).\(secretKey)", "signs a webhook's POST: only a hook with a url has one")
            }
            if caFile != nil {
                throw error(
                    .invalidValue, "\(prefix).ca_file", "trusts an https webhook's server: only a hook with a url has one")
            }
            hook.command = command
        case (nil, .some(let url)):
            if let niceKey {
                throw error(
                    .invalidValue, "\(prefix).\(niceKey)", "sets a command's priority: a webhook (url) runs none")
            }
            if let caFile {
                hook.caFile = try self.caFile(caFile, "\(prefix).ca_file", for: url)
            }
            hook.url = url
        }
        hook.name = name
        return hook
    }

    /// A webhook's secret: the string itself (`secret`), or read now from a file (`secret_file`, a
    /// path relative to the config file's directory; a final newline is not part of it).
    func secret(_ value: any TOMLValueConvertible, _ key: String, _ path: String) throws(ConfigError) -> WebhookSecret {
        let text = try string(value, path)
        guard !text.isEmpty else { throw error(.invalidValue, path, "must not be empty") }
        guard key == "secret_file" else { return WebhookSecret(Array(text.utf8)) }
        let file = relativeToConfig(text)
        guard var bytes = FileManager.default.contents(atPath: file).map(Array.init) else {
            throw error(.invalidValue, path, "cannot read the file \(Self.quote(file))")
        }
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw error(.invalidValue, path, "the file \(Self.quote(file)) is empty") }
        return WebhookSecret(bytes)
    }

    /// An https webhook's certificate authorities (`ca_file`): a readable file out of which OpenSSL
    /// loads a certificate.
    func caFile(_ file: String, _ path: String, for url: WebhookURL) throws(ConfigError) -> WebhookCAFile {
        guard url.scheme == .https else {
            throw error(
                .invalidValue, path,
                "trusts an https webhook's server: \(Self.quote(url.text)) is plain http, with no certificate to check")
        }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw error(.invalidValue, path, "cannot read the file \(Self.quote(file))")
        }
        do {
            return try WebhookCAFile(file)
        } catch {
            throw self.error(.invalidValue, path, error.description)
        }
    }

    /// A file a key names (`secret_file`, `ca_file`): an absolute path, or one relative to the
    /// config file's directory.
    func relativeToConfig(_ text: String) -> String {
        let base = (path as NSString).deletingLastPathComponent
        return text.hasPrefix("/") || base.isEmpty ? text : (base as NSString).appendingPathComponent(text)
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
