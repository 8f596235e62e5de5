/// A validated sort key: the canonical key name and its direction.
///
/// ```swift
/// let key = try PredicateSchema.asset.sortKey("isFavorite", ascending: false)
/// // key.key == "favorite"
/// ```
public struct SortKey: Sendable, Hashable {
    /// The canonical key name (aliases resolved), as passed to the store's column mapping.
    public let key: String
    /// True for ascending order.
    public let ascending: Bool

    /// Creates a sort key without validation; use `PredicateSchema.sortKey(_:ascending:)` for user input.
    public init(key: String, ascending: Bool) {
        self.key = key
        self.ascending = ascending
    }
}

extension SortKey {
    /// A sort order as people write it, split into its key and direction: `key` ascending, `-key`
    /// descending (`photos assets --sort -creationDate`, the API's `sort=-creationDate`). The key
    /// is not checked here; ``PredicateSchema/sortKey(_:ascending:)`` checks it for its class.
    ///
    /// ```swift
    /// SortKey.parse("-creationDate")   // (key: "creationDate", ascending: false)
    /// ```
    public static func parse(_ text: String) -> (key: String, ascending: Bool) {
        text.hasPrefix("-") ? (String(text.dropFirst()), false) : (text, true)
    }
}

extension PredicateSchema {
    /// Validates a sort descriptor key against this schema and resolves its alias.
    ///
    /// Throws for unknown keys, keys of another class, key paths and `SELF`; the error's `format` is the
    /// key as given.
    public func sortKey(_ name: String, ascending: Bool) throws(PredicateFormatError) -> SortKey {
        if let key = key(named: name) {
            guard key.type != .location else {
                throw PredicateFormatError(
                    .unsupportedKey,
                    "sorting by \(name) is not supported for \(className) (it is a place, not a value)",
                    format: name)
            }
            return SortKey(key: key.name, ascending: ascending)
        }
        if name.uppercased() == "SELF" {
            throw PredicateFormatError(
                .unsupportedKey, "sorting by SELF is not supported for \(className)", format: name)
        }
        throw PredicateFormatError(.unsupportedKey, unsupportedKeyMessage(name), format: name)
    }

    /// The message for a key this schema lacks, saying which class has it or which spelling was meant.
    func unsupportedKeyMessage(_ name: String) -> String {
        var message = "unsupported key '\(name)' for \(className)"
        if name.contains(".") {
            message = "key paths are not supported: '\(name)' for \(className)"
        } else if let other = PredicateSchema.all.first(where: { $0.key(named: name) != nil }) {
            message += " (it is a \(other.className) key)"
        } else if let near = Self.nearestSpelling(of: name, among: keys.flatMap { [$0.name] + $0.aliases }) {
            message += " (did you mean '\(near)'?)"
        }
        return message
    }

    /// The spelling within two edits of `name`, ignoring case (`mediaSubtype` → `mediaSubtypes`).
    static func nearestSpelling(of name: String, among spellings: [String]) -> String? {
        let target = Array(name.lowercased())
        var best: (spelling: String, distance: Int)?
        for spelling in spellings {
            let distance = editDistance(target, Array(spelling.lowercased()))
            if distance <= 2, distance < best?.distance ?? .max {
                best = (spelling, distance)
            }
        }
        return best?.spelling
    }

    /// Levenshtein distance, one row at a time.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
