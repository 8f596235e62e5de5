import Foundation
import Testing

@testable import PhotosCore

/// Hostile formats: nesting, length and term counts past the parser's limits are `tooComplex` errors with the
/// offset where the limit was crossed, never a stack overflow; long flat AND/OR chains compile to SQL that SQLite's
/// expression depth limit (1000) accepts.
@Suite("Predicate limits")
struct PredicateLimitTests {
    private func parseError(_ format: String) -> PredicateFormatError? {
        do {
            _ = try PhotoKitPredicate(format: format, arguments: [])
            return nil
        } catch {
            return error
        }
    }

    /// The offset of the `n`th (0-based) occurrence of `character` in `format`.
    private func offset(ofOccurrence n: Int, of character: Character, in format: String) -> Int {
        var seen = 0
        for (index, each) in format.enumerated() where each == character {
            if seen == n { return index }
            seen += 1
        }
        return -1
    }

    @Test(arguments: [2_000, 100_000])
    func deeplyNestedParenthesesAreAnErrorAtTheFirstLevelTooDeep(depth: Int) throws {
        let format = String(repeating: "(", count: depth) + "favorite == YES" + String(repeating: ")", count: depth)
        let error = try #require(parseError(format))
        #expect(error.code == .tooComplex)
        #expect(error.offset == PredicateParser.maximumDepth)
        #expect(error.message.contains("nests more than \(PredicateParser.maximumDepth)"))
        // The description quotes only the format's start.
        #expect(error.description.hasSuffix("…\" (\(format.count) characters)"))
        #expect(error.description.count < 400)
    }

    @Test(arguments: ["!", "NOT ", "! "])
    func longRunsOfNegationAreAnError(prefix: String) throws {
        let format = String(repeating: prefix, count: 16_000) + "favorite == YES"
        let error = try #require(parseError(format))
        #expect(error.code == .tooComplex)
        #expect(error.offset == PredicateParser.maximumDepth * prefix.count)
    }

    @Test func nestingUpToTheLimitParsesAndCompiles() throws {
        let depth = PredicateParser.maximumDepth - 1
        let format =
            String(repeating: "!(", count: depth / 2) + "favorite == YES" + String(repeating: ")", count: depth / 2)
        let predicate = try PhotoKitPredicate(format: format, arguments: [])
        let fragment = try predicate.sql(for: .asset) { $0 }
        #expect(fragment.sql.hasPrefix("NOT (NOT ("))
    }

    @Test func nestedAggregatesAndLongBitwiseChainsAreAnError() throws {
        let aggregates = "pixelWidth IN " + String(repeating: "{", count: 5_000) + String(repeating: "}", count: 5_000)
        let nested = try #require(parseError(aggregates))
        #expect(nested.code == .tooComplex)
        #expect(nested.offset == "pixelWidth IN ".count + PredicateParser.maximumDepth)

        let chain = "(mediaSubtypes" + String(repeating: " & 1", count: 50_000) + ") != 0"
        let bitwise = try #require(parseError(chain))
        #expect(bitwise.code == .tooComplex)
        // The parenthesis is one level, each `&` one more.
        #expect(bitwise.offset == offset(ofOccurrence: PredicateParser.maximumDepth - 1, of: "&", in: chain))

        let pipes = "(mediaSubtypes" + String(repeating: " | 1", count: 50_000) + ") != 0"
        #expect(parseError(pipes)?.code == .tooComplex)
    }

    @Test func tooManyComparisonsIsAnErrorAtTheFirstOneTooMany() throws {
        let terms = Array(repeating: "pixelWidth == 1", count: PredicateParser.maximumComparisons + 1)
        let format = terms.joined(separator: " OR ")
        let error = try #require(parseError(format))
        #expect(error.code == .tooComplex)
        let last = format.count - "== 1".count
        #expect(error.offset == last)
    }

    @Test func aFormatLongerThanTheLimitIsAnError() throws {
        let format = "localizedTitle == '" + String(repeating: "x", count: PredicateParser.maximumLength) + "'"
        let error = try #require(parseError(format))
        #expect(error.code == .tooComplex)
        #expect(error.offset == PredicateParser.maximumLength)
        // A long format of few characters in many bytes is measured in characters.
        let wide = "localizedTitle == '" + String(repeating: "é", count: PredicateParser.maximumLength / 2) + "'"
        #expect(parseError(wide) == nil)
    }

    @Test(arguments: ["OR", "AND", "||", "&&"])
    func longFlatChainsCompileToShallowSQL(keyword: String) throws {
        let count = 5_000
        let format = (0..<count).map { "pixelWidth == \($0)" }.joined(separator: " \(keyword) ")
        let predicate = try PhotoKitPredicate(format: format, arguments: [])
        let fragment = try predicate.sql(for: .asset) { $0 }
        #expect(fragment.arguments == (0..<count).map { .int(Int64($0)) })
        // Every run between parentheses joins at most maximumRun terms, and the tree of runs is shallow.
        let joiner = keyword == "OR" || keyword == "||" ? " OR " : " AND "
        var depth = 0
        var deepest = 0
        var runs: [Int] = [1]
        var rest = Substring(fragment.sql)
        while let character = rest.first {
            if character == "(" {
                depth += 1
                runs.append(1)
            } else if character == ")" {
                depth -= 1
                #expect(runs.removeLast() <= PredicateCompiler.maximumRun)
            } else if rest.hasPrefix(joiner) {
                runs[runs.count - 1] += 1
            }
            deepest = max(deepest, depth)
            rest = rest.dropFirst()
        }
        #expect(depth == 0)
        #expect(deepest <= 4)
    }

    @Test func shortChainsStayFlat() throws {
        let predicate = try PhotoKitPredicate(
            format: "pixelWidth == 1 OR pixelWidth == 2 OR pixelWidth == 3", arguments: [])
        #expect(try predicate.sql(for: .asset) { $0 }.sql == "(pixelWidth = ? OR pixelWidth = ? OR pixelWidth = ?)")
    }

    @Test func tooManyBoundValuesIsAnErrorBeforeSQLiteSeesIt() throws {
        // A long IN list binds one value (its JSON array); lists short enough for a placeholder
        // each, ORed together, still bind one per value.
        let width = PredicateCompiler.longestPlaceholderList
        let lists = PhotoKitPredicate.maximumBoundValues / width + 1
        let arguments = (0..<lists).map { list in
            PredicateValue.array((0..<width).map { .int(Int64(list * width + $0)) })
        }
        let format = Array(repeating: "pixelWidth IN %@", count: lists).joined(separator: " OR ")
        let predicate = try PhotoKitPredicate(format: format, arguments: arguments)
        let error = #expect(throws: PredicateFormatError.self) { try predicate.sql(for: .asset) { $0 } }
        #expect(error?.code == .tooComplex)
        let long = (0..<(PhotoKitPredicate.maximumBoundValues + 1)).map { PredicateValue.int(Int64($0)) }
        #expect(
            try PhotoKitPredicate(format: "pixelWidth IN %@", arguments: [.array(long)]).sql(for: .asset) { $0 }
                .arguments.count == 1)
    }

    @Test func emptyCompoundNodesCompileToConstants() throws {
        let compiler = PredicateCompiler(schema: .asset, format: "", column: { $0 }, dialect: .sqlite)
        #expect(try compiler.compile(.and([])).sql == "1")
        #expect(try compiler.compile(.or([])).sql == "0")
        let postgreSQL = PredicateCompiler(schema: .asset, format: "", column: { $0 }, dialect: .postgreSQL)
        #expect(try postgreSQL.compile(.and([])).sql == "TRUE")
        #expect(try postgreSQL.compile(.or([])).sql == "FALSE")
    }
}
