import Foundation

/// The logic of the two SQL functions the compiled predicates call; the store registers thin wrappers.
///
/// SQLite's own `LIKE` folds only ASCII case and uses `%`/`_` wildcards, so string operators compile to
/// `photos_fold` and `photos_like` instead:
///
/// - `photos_fold(text, flags INTEGER) -> TEXT`: `fold(text, flags:)`; NULL for a NULL text.
/// - `photos_like(value, pattern, flags INTEGER) -> INTEGER`: 1 if `like(value, pattern:, flags:)`, else 0;
///   NULL if value or pattern is NULL.
///
/// - `photos_distance(latitude, longitude, latitude, longitude) -> REAL`: `distance(…)` in
///   kilometres; NULL when a coordinate is NULL (`distanceToLocation` in a predicate).
///
/// All are deterministic and may be registered as such.
///
/// ```swift
/// PredicateFunctions.fold("Crème", flags: 3)   // "creme": case (1) and diacritics (2)
/// PredicateFunctions.like("IMG_0042.HEIC", pattern: "img_*.heic", flags: 1)   // true
/// ```
public enum PredicateFunctions {
    /// The SQL name of the folding function.
    public static let foldFunctionName = "photos_fold"
    /// The SQL name of the LIKE function.
    public static let likeFunctionName = "photos_like"
    /// The SQL name of the distance function.
    public static let distanceFunctionName = "photos_distance"
    /// The mean radius of the Earth in kilometres (IUGG), the sphere `distance` measures on.
    public static let earthRadius = 6371.0088

    /// The great-circle distance in kilometres between two points given in degrees (haversine on
    /// a sphere: within 0.5 % of the ellipsoid's distance, plenty for "within 5 km of").
    public static func distance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> Double
    {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians, phi2 = latitude2 * radians
        let dPhi = (latitude2 - latitude1) * radians, dLambda = (longitude2 - longitude1) * radians
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
    /// Flag bit for `[c]`: fold case.
    public static let caseInsensitive = 1
    /// Flag bit for `[d]`: fold diacritics.
    public static let diacriticInsensitive = 2

    /// Folds case (`flags & 1`) and/or diacritics (`flags & 2`) with Foundation's locale-independent
    /// folding, then normalizes to NFC so folded column values and folded arguments compare bytewise.
    /// With no flag set the string is returned unchanged.
    public static func fold(_ text: String, flags: Int) -> String {
        var options: String.CompareOptions = []
        if flags & caseInsensitive != 0 { options.insert(.caseInsensitive) }
        if flags & diacriticInsensitive != 0 { options.insert(.diacriticInsensitive) }
        guard !options.isEmpty else { return text }
        return text.folding(options: options, locale: nil).precomposedStringWithCanonicalMapping
    }

    /// NSPredicate LIKE: the whole value matches the pattern, where `*` matches any run of characters
    /// (including none), `?` exactly one character, and `\` makes the next character literal. Both sides are
    /// folded with `flags` first. Characters are Swift `Character`s (grapheme clusters).
    public static func like(_ value: String, pattern: String, flags: Int) -> Bool {
        let text = Array(fold(value, flags: flags))
        let tokens = likeTokens(fold(pattern, flags: flags))
        return likeMatches(text, tokens)
    }

    /// One element of a LIKE pattern.
    private enum LikeToken: Equatable {
        case literal(Character)
        case any
        case run
    }

    /// Splits a pattern into tokens; a trailing lone backslash stands for itself.
    private static func likeTokens(_ pattern: String) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaped = false
        for character in pattern {
            if escaped {
                tokens.append(.literal(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                if tokens.last != .run { tokens.append(.run) }
            } else if character == "?" {
                tokens.append(.any)
            } else {
                tokens.append(.literal(character))
            }
        }
        if escaped { tokens.append(.literal("\\")) }
        return tokens
    }

    /// Greedy wildcard matching with backtracking to the last `*`: linear in practice, O(n·m) worst case.
    private static func likeMatches(_ text: [Character], _ tokens: [LikeToken]) -> Bool {
        var textIndex = 0
        var tokenIndex = 0
        var lastRun: (token: Int, text: Int)?
        while textIndex < text.count {
            if tokenIndex < tokens.count {
                switch tokens[tokenIndex] {
                case .run:
                    lastRun = (tokenIndex, textIndex)
                    tokenIndex += 1
                    continue
                case .any:
                    textIndex += 1
                    tokenIndex += 1
                    continue
                case .literal(let character) where character == text[textIndex]:
                    textIndex += 1
                    tokenIndex += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let run = lastRun else { return false }
            // Let the last `*` swallow one more character and retry from there.
            lastRun = (run.token, run.text + 1)
            tokenIndex = run.token + 1
            textIndex = run.text + 1
        }
        while tokenIndex < tokens.count, tokens[tokenIndex] == .run {
            tokenIndex += 1
        }
        return tokenIndex == tokens.count
    }
}
