/// One token of a format string, with `%` arguments already substituted.
struct PredicateToken: Sendable, Hashable {
    /// What the token is.
    enum Kind: Sendable, Hashable {
        /// A key: an identifier, `#name`, or a `%K` argument. Dotted paths are kept whole and rejected later.
        case key(String)
        /// `SELF`, or `%K` with "SELF".
        case evaluatedObject
        /// A literal or a `%@`/`%d`/`%f`... argument.
        case value(PredicateValue)
        /// A reserved word, uppercased: AND, OR, NOT, IN, BETWEEN, CONTAINS, ANY, SUBQUERY...
        case keyword(String)
        /// Punctuation, normalized: `==`, `!=`, `<=`, `>=`, `&&`, `||`, `(`, `{`, `[`...
        case symbol(String)
        /// End of the format.
        case end
    }

    /// What the token is.
    var kind: Kind
    /// Character offset where the token starts.
    var offset: Int
    /// The source text of the token, for error messages.
    var text: String

    /// Whether this is the given keyword.
    func isKeyword(_ word: String) -> Bool {
        kind == .keyword(word)
    }

    /// Whether this is the given symbol.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol(symbol)
    }
}
