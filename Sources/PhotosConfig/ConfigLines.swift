import TOMLKit

/// The line of each key of a TOML document, by key path (`library`, `hooks[1]`, `hooks[1].changes`),
/// found by the TOML parser itself, which gives the line of a syntax error but not the place of a value.
///
/// A key is on the first line at which the document, cut after that line, parses and holds the key;
/// when its value spans lines (an array, a multi-line string), the cuts inside the value do not parse,
/// and the key is on the line after the last cut before it that does. A key the document does not
/// give is placed on its nearest enclosing key: a hook's missing `command` on its `[[hooks]]` line,
/// a key inside an inline table on the line of the key that holds the table. Only problems ask for
/// lines, so each question parses the document's beginnings again.
struct ConfigLines: Sendable, Hashable {
    private let lines: [Substring]

    /// The lines of `text`, which parses as TOML.
    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The line of a key path written as errors name it (`hooks[1].albums`), or of its nearest enclosing key.
    func line(of key: String) -> Int? {
        line(
            of: key.split(separator: ".").flatMap { part in
                part.split(separator: "[").map {
                    $0.hasSuffix("]") ? AnyKey(index: Int($0.dropLast())) : AnyKey(String($0))
                }
            } as [any CodingKey])
    }

    /// The line of a coding path, or of its nearest enclosing key.
    func line(of codingPath: [any CodingKey]) -> Int? {
        for end in stride(from: codingPath.count, to: 0, by: -1) {
            let path = Array(codingPath[..<end])
            guard let held = lines.indices.first(where: { table(through: $0)?.value(at: path) != nil }) else {
                continue
            }
            var first = held
            while first > 0, table(through: first - 1) == nil { first -= 1 }
            return first + 1
        }
        return nil
    }

    /// The document cut after the line at `index`, if that much parses.
    private func table(through index: Int) -> TOMLTable? {
        try? TOMLTable(string: lines[...index].joined(separator: "\n"))
    }
}

/// One step of a key path: any key of a table, or an index into an array.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ name: String) {
        stringValue = name
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }

    init(index: Int?) {
        stringValue = index.map(String.init) ?? ""
        intValue = index
    }
}

extension TOMLTable {
    /// The value at a coding path: `hooks`, 1, `changes`.
    func value(at codingPath: [any CodingKey]) -> (any TOMLValueConvertible)? {
        var value: (any TOMLValueConvertible)? = self
        for key in codingPath {
            if let index = key.intValue {
                guard let array = value?.array, index >= 0, index < array.count else { return nil }
                value = array[index]
            } else {
                value = value?.table?[key.stringValue]
            }
        }
        return value
    }
}
