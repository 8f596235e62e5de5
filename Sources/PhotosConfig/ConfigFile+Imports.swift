import Foundation
import PhotosCore
import PhotosLinux

extension ConfigFile {
    /// One `[[imports]]` table: a drop folder (`from`) filed into a root (`to`).
    struct ImportTable: Decodable {
        var definition: ImportDefinition

        enum Key: String, CodingKey, ConfigKey {
            case from, to, layout, name, mode, duplicates, settle = "settle_ms"

            var expected: String {
                switch self {
                case .from, .to: "a string (an absolute directory)"
                case .layout, .name: "a string (a template such as \"{yyyy}/{yyyy-MM-dd}\")"
                case .mode:
                    "one of " + ImportDefinition.Mode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                case .duplicates:
                    "one of "
                        + ImportDefinition.Duplicates.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                case .settle: "a whole number of milliseconds, 0 or more"
                }
            }

            var accepted: ClosedRange<Int> { 0...Int.max }
        }

        init(from decoder: any Decoder) throws {
            let keys = try decoder.strictContainer(keyedBy: Key.self)
            let from = try Self.directory(keys, .from, "the drop folder to take files from")
            let to = try Self.directory(keys, .to, "the root to file them into (a root with write = \"files\")")
            let layoutText = try keys.decodeIfPresent(String.self, forKey: .layout) ?? ImportLayout.defaultLayout
            let nameText = try keys.decodeIfPresent(String.self, forKey: .name) ?? ImportLayout.defaultName
            let layout: ImportLayout
            do {
                layout = try ImportLayout(layout: layoutText, name: nameText)
            } catch {
                throw keys.problem(
                    .invalidTemplate, error.template == .layout ? .layout : .name, error.description, cause: error)
            }
            let mode = try Self.choice(keys, .mode, ImportDefinition.Mode.self) ?? .move
            let duplicates = try Self.choice(keys, .duplicates, ImportDefinition.Duplicates.self) ?? .skip
            if duplicates == .trash, mode == .copy {
                throw keys.problem(
                    .invalidValue, .duplicates,
                    "\"trash\" needs mode = \"move\": a copying import never touches the drop folder")
            }
            let settle = try keys.number(.settle).map { Duration.milliseconds($0) } ?? ImportDefinition.defaultSettle
            definition = ImportDefinition(
                from: from, to: to, layout: layout, mode: mode, duplicates: duplicates, settle: settle)
        }

        /// An absolute directory that must be given.
        static func directory(_ keys: KeyedDecodingContainer<Key>, _ key: Key, _ what: String) throws -> String {
            guard let path = try keys.decodeIfPresent(String.self, forKey: key) else {
                throw keys.problem(.missingKey, key, "missing: every import needs \(what)")
            }
            guard path.hasPrefix("/") else {
                throw keys.problem(.invalidValue, key, "must be an absolute directory, not \(ConfigError.quote(path))")
            }
            return path
        }

        /// One of an enumeration's names.
        static func choice<Choice: RawRepresentable<String> & CaseIterable>(
            _ keys: KeyedDecodingContainer<Key>, _ key: Key, _ type: Choice.Type
        ) throws -> Choice? {
            guard let name = try keys.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let choice = Choice(rawValue: name) else {
                throw keys.problem(.invalidValue, key, "must be \(key.expected), not \(ConfigError.quote(name))")
            }
            return choice
        }
    }
}

extension ConfigFile.TopLevel {
    /// Checks the imports against the roots and each other: `to` is a root the library may write
    /// files under; `from` is outside every root (its files would be assets where they lie) and holds
    /// none (the import would take the root's own files); no two imports take files from one folder.
    static func validateImports(_ imports: [ImportDefinition], roots: [LibraryRoot]) throws {
        typealias ImportKey = ConfigFile.ImportTable.Key
        func problem(_ code: ConfigError.Code, _ index: Int, _ key: ImportKey, _ message: String) -> ConfigProblem {
            ConfigProblem(code: code, codingPath: [Key.imports, AnyKey(index: index), key], message: message)
        }
        let rootList = roots.map { ConfigError.quote($0.path) }.joined(separator: ", ")
        for (index, definition) in imports.enumerated() {
            let to = ConfigError.quote(definition.to)
            guard let root = roots.first(where: { $0.path == definition.to }) else {
                let known = roots.isEmpty ? "there are none" : "they are \(rootList)"
                throw problem(.invalidValue, index, .to, "\(to) must be one of the roots (\(known))")
            }
            guard root.write == .files else {
                throw problem(
                    .invalidValue, index, .to,
                    "the root \(to) has write = \"\(root.write.rawValue)\": an import files photos only into a root "
                        + "with write = \"files\"")
            }
            // As written, and as the links on the way lead (a drop folder that is a link into a root
            // would take the root's own photos for new ones).
            let from = ConfigError.quote(definition.from)
            let resolvedFrom = FileOperations.resolvedAsFarAsItExists(definition.from)
            let via = resolvedFrom == definition.from ? "" : " (through its links, \(ConfigError.quote(resolvedFrom)))"
            func within(_ path: String, _ directory: String) -> Bool {
                LibraryRoots.path(path, isWithin: directory)
                    || LibraryRoots.path(
                        FileOperations.resolvedAsFarAsItExists(path),
                        isWithin: FileOperations.resolvedAsFarAsItExists(directory))
            }
            if let holder = roots.first(where: { within(definition.from, $0.path) }) {
                throw problem(
                    .invalidValue, index, .from,
                    "\(from)\(via) is inside the root \(ConfigError.quote(holder.path)): a drop folder lies outside every root"
                )
            }
            if let inside = roots.first(where: { within($0.path, definition.from) }) {
                throw problem(
                    .invalidValue, index, .from,
                    "\(from)\(via) holds the root \(ConfigError.quote(inside.path)): a drop folder lies outside every root"
                )
            }
            for (earlier, other) in imports[..<index].enumerated() {
                let shared =
                    LibraryRoots.path(definition.from, isWithin: other.from)
                    || LibraryRoots.path(other.from, isWithin: definition.from)
                guard shared else { continue }
                let how = definition.from == other.from ? "is already" : "overlaps"
                throw problem(.duplicateSource, index, .from, "\(from) \(how) the from of imports[\(earlier)]")
            }
        }
    }
}
