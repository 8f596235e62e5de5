/// A request's query parameters as HTML forms and curl's `--data-urlencode` write them: `+` is a
/// space, `%XX` a byte; a name may repeat (`sort=-creationDate&sort=pixelWidth`).
struct Query: Sendable {
    private var items: [(name: String, value: String)] = []

    init(_ query: String?) {
        for part in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            // A malformed escape is kept as it came (its `+` still a space).
            func decoded(_ text: Substring) -> String {
                PercentDecoding.decode(text, plusIsSpace: true)
                    ?? String(
                        decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            }
            items.append((decoded(pair[0]), pair.count > 1 ? decoded(pair[1]) : ""))
        }
    }

    /// The last value of `name`.
    subscript(_ name: String) -> String? { items.last { $0.name == name }?.value }

    /// Every value of `name`, in order; comma-separated values count one by one.
    func all(_ name: String) -> [String] {
        items.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map(String.init) }
    }

    /// The names given that are not in `known`.
    func unknown(_ known: Set<String>) -> [String] {
        items.map(\.name).filter { !known.contains($0) }
    }

    /// `true`/`1`/`yes` or `false`/`0`/`no`; absent is `false`; anything else is a 400.
    func flag(_ name: String) throws -> Bool {
        guard let value = self[name] else { return false }
        switch value.lowercased() {
        case "", "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError(.badRequest, "\(name) must be true or false, not '\(value)'")
        }
    }

    /// A whole number in `range`, or `default` when absent; anything else is a 400.
    func integer<Number: FixedWidthInteger>(_ name: String, in range: ClosedRange<Number>, default value: Number) throws
        -> Number
    {
        try integer(name, in: range, default: Optional(value))!
    }

    /// A whole number in `range`, or `default` (nil: none) when absent; anything else is a 400.
    func integer<Number: FixedWidthInteger>(_ name: String, in range: ClosedRange<Number>, default value: Number?)
        throws -> Number?
    {
        guard let text = self[name] else { return value }
        guard let number = Number(text), range.contains(number) else {
            throw APIError(
                .badRequest, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
