import Foundation

/// The two templates of an import: `layout`, the folders under its `to`, and `name`, the new stem
/// of each file; parsed once, rendered for each asset.
///
/// | token | renders | example |
/// |---|---|---|
/// | a date pattern of `y M d H m s` | the filing date (``ImportFacts/filingDate(in:)``) | `{yyyy-MM-dd}` → `2021-04-11` |
/// | `{make}`, `{model}` | the camera's, or ``unknownCamera`` | `{model}` → `iPhone 11 Pro Max` |
/// | `{original}` | the original name without its extension | `IMG_5195` |
/// | `{ext}` | the original extension, without its dot | `HEIC` |
/// | `{counter:N}` | a number counting files per folder, at least N digits (`name` only) | `{counter:4}` → `0001` |
///
/// In a date pattern `yyyy` is the year, `yy` its last two digits, `MM` the month, `dd` the day,
/// `HH` the hour (00-23), `mm` the minute and `ss` the second; a single letter (`M`, `d`, `H`...)
/// is the number without a leading zero. Separators `-`, `_`, `.` and spaces may stand between
/// them (`{yyyyMMdd-HHmmss}`). Everything outside braces is kept as written; `/` separates folders
/// in `layout` and is not allowed in `name`.
///
/// Each rendered folder and the stem are made safe as one path component (``SafeNames``): a `/`
/// in a camera's model becomes `_`, a leading dot is dropped, an empty result is ``emptyComponent``.
/// `..`, empty folders and absolute paths never come out. The extension is not the template's: the
/// planner appends each file's own (``ImportPlanner``).
///
/// ```swift
/// let layout = try ImportLayout(layout: "{yyyy}/{yyyy-MM-dd}", name: "{yyyyMMdd-HHmmss}-{make}")
/// let facts = ImportFacts(
///     captureDate: Date(timeIntervalSince1970: 1_618_174_073), captureOffset: -5 * 3600,
///     modificationTime: Date(), make: "Apple")
/// let rendered = layout.render(original: "IMG_5195.HEIC", facts: facts, timeZone: .gmt)
/// rendered.folders  // ["2021", "2021-04-11"]
/// rendered.stem     // "20210411-154753-Apple"
/// ```
public struct ImportLayout: Sendable, Hashable {
    /// The default `layout`: a folder per year, and in it a folder per day.
    public static let defaultLayout = "{yyyy}/{yyyy-MM-dd}"
    /// The default `name`: the original name.
    public static let defaultName = "{original}"
    /// What `{make}` and `{model}` render when the file names no camera.
    public static let unknownCamera = "Unknown"
    /// What a folder or stem that renders empty (or only dots and spaces) becomes.
    public static let emptyComponent = "_"

    /// The `layout` template as given.
    public let layoutTemplate: String
    /// The `name` template as given.
    public let nameTemplate: String
    /// The folders, each a list of pieces.
    let folders: [[Piece]]
    /// The stem's pieces.
    let name: [Piece]

    /// Parses both templates; the first problem found is thrown.
    public init(layout: String = defaultLayout, name: String = defaultName) throws(ImportTemplateError) {
        layoutTemplate = layout
        nameTemplate = name
        folders = try Self.parse(layout, as: .layout)
        guard let stem = try Self.parse(name, as: .name).first else {
            throw ImportTemplateError(.empty, in: .name, "the name must not be empty", offset: 0, text: name)
        }
        let counters = stem.filter { if case .counter = $0 { true } else { false } }
        if counters.count > 1, let second = name.ranges(of: "{counter").dropFirst().first {
            throw ImportTemplateError(
                .misplacedToken, in: .name, "one {counter:N} numbers a file: this is a second one",
                offset: name.distance(from: name.startIndex, to: second.lowerBound), text: name)
        }
        self.name = stem
    }

    /// Whether the name counts files (`{counter:N}`).
    public var usesCounter: Bool { name.contains { if case .counter = $0 { true } else { false } } }

    /// What a template renders for one asset.
    public struct Rendering: Sendable, Hashable {
        /// The folders under the import's `to`, each one safe path component; empty for none.
        public var folders: [String]
        /// The new stem, one safe path component, without extension.
        public var stem: String
        /// The date the asset is filed by.
        public var date: Date
        /// The UTC offset, in seconds east, its wall clock was read at.
        public var offset: Int
        /// Where the date came from.
        public var dateSource: ImportDateSource
    }

    /// Renders both templates for the asset whose primary file is named `original`.
    ///
    /// - Parameters:
    ///   - original: the primary file's name (`IMG_5195.HEIC`): `{original}` is `IMG_5195`, `{ext}` `HEIC`.
    ///   - timeZone: the configured zone, for dates without their own offset.
    ///   - counter: what `{counter:N}` renders; nil renders each counter as
    ///     ``counterPlaceholder`` repeated N times, for a planner that fills it in later.
    ///   - stemLimit: the most UTF-8 bytes the stem may take: longer text is cut, never a counter.
    public func render(
        original: String, facts: ImportFacts, timeZone: TimeZone, counter: Int? = 1,
        stemLimit: Int = SafeNames.safeLength
    ) -> Rendering {
        let (date, offset, source) = facts.filingDate(in: timeZone)
        let clock = WallClock(date: date, offset: offset)
        let (stem, ext) = Self.split(original)
        let context = Context(clock: clock, facts: facts, original: stem, ext: ext)
        let folders = folders.map { pieces in
            SafeNames.sanitized(
                pieces.map { context.text(of: $0, counter: counter) }.joined(), fallback: Self.emptyComponent)
        }
        var segments = name.map { piece -> (text: String, fixed: Bool) in
            let fixed = if case .counter = piece { true } else { false }
            return (SafeNames.replacingUnsafeCharacters(in: context.text(of: piece, counter: counter)), fixed)
        }
        // A long name is cut where its text is longest: a counter is never cut, or numbers would repeat.
        while segments.reduce(0, { $0 + $1.text.utf8.count }) > max(stemLimit, 1) {
            guard
                let longest = segments.indices.filter({ !segments[$0].fixed && !segments[$0].text.isEmpty })
                    .max(by: { segments[$0].text.utf8.count < segments[$1].text.utf8.count })
            else { break }
            segments[longest].text.removeLast()
        }
        let name = SafeNames.sanitized(segments.map(\.text).joined(), fallback: Self.emptyComponent)
        return Rendering(folders: folders, stem: name, date: date, offset: offset, dateSource: source)
    }

    /// What stands for each digit of a counter rendered with `counter: nil` (a private-use
    /// character, which no sanitizing changes).
    public static let counterPlaceholder: Character = "\u{E000}"

    /// `IMG_1.JPG` → (`IMG_1`, `JPG`); a name without a dot (or with only a leading one) has no extension.
    static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}

// MARK: Pieces

extension ImportLayout {
    /// One part of a template.
    enum Piece: Sendable, Hashable {
        case literal(String)
        case date([DatePart])
        case make
        case model
        case original
        case ext
        case counter(width: Int)
    }

    /// One part of a date pattern.
    enum DatePart: Sendable, Hashable {
        case year(digits: Int)
        case month(padded: Bool)
        case day(padded: Bool)
        case hour(padded: Bool)
        case minute(padded: Bool)
        case second(padded: Bool)
        case separator(Character)
    }

    /// The tokens a misspelt one is compared with, for "did you mean".
    static let knownTokens = [
        "make", "model", "original", "ext", "counter:4", "yyyy", "yy", "MM", "dd", "HH", "mm", "ss", "yyyy-MM-dd",
        "yyyyMMdd", "yyyyMMdd-HHmmss",
    ]

    static let dateSeparators: Set<Character> = ["-", "_", ".", " "]
    static let dateLetters: Set<Character> = ["y", "M", "d", "H", "m", "s"]

    /// The folders of `text` (a `layout`), or its one stem (a `name`).
    static func parse(_ text: String, as template: ImportTemplateError.Template) throws(ImportTemplateError)
        -> [[Piece]]
    {
        func fail(_ code: ImportTemplateError.Code, _ message: String, _ offset: Int) -> ImportTemplateError {
            ImportTemplateError(code, in: template, message, offset: offset, text: text)
        }
        let characters = Array(text)
        var components: [[Piece]] = []
        var pieces: [Piece] = []
        var literal = ""
        var componentStart = 0
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        func close(at offset: Int) throws(ImportTemplateError) {
            flush()
            if pieces.isEmpty {
                if template == .name { return }
                let message =
                    offset == 0
                    ? "a layout is relative to the import's `to`: it must not start with /"
                    : "an empty folder name (a / at the end, or two in a row)"
                throw fail(.invalidPath, message, offset)
            }
            if pieces.count == 1, case .literal(let name) = pieces[0], name == "." || name == ".." {
                let what = template == .name ? "name" : "folder"
                throw fail(.invalidPath, "the \(what) \"\(name)\" is not allowed", componentStart)
            }
            components.append(pieces)
            pieces = []
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "{":
                guard let end = characters[(index + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
                    characters[end] == "}"
                else { throw fail(.unbalancedBrace, "a { without its }", index) }
                flush()
                pieces.append(try token(String(characters[(index + 1)..<end]), at: index, in: template, fail))
                index = end + 1
                continue
            case "}":
                throw fail(.unbalancedBrace, "a } without its {", index)
            case "/":
                guard template == .layout else {
                    throw fail(.invalidPath, "a name is one file name: no / (folders belong in layout)", index)
                }
                try close(at: index)
                componentStart = index + 1
            default:
                literal.append(character)
            }
            index += 1
        }
        if !characters.isEmpty || template == .name {
            if template == .layout, characters.last == "/" {
                throw fail(.invalidPath, "an empty folder name (a / at the end, or two in a row)", characters.count - 1)
            }
            try close(at: characters.count)
        }
        return components
    }

    /// The piece of one `{token}` (its text without braces) at `offset` (of its `{`).
    private static func token(
        _ text: String, at offset: Int, in template: ImportTemplateError.Template,
        _ fail: (ImportTemplateError.Code, String, Int) -> ImportTemplateError
    ) throws(ImportTemplateError) -> Piece {
        switch text {
        case "make": return .make
        case "model": return .model
        case "original": return .original
        case "ext": return .ext
        default: break
        }
        if text == "counter" || text.hasPrefix("counter:") {
            guard template == .name else {
                throw fail(.misplacedToken, "{\(text)} numbers files: it belongs in name, not in layout", offset)
            }
            guard let width = Int(text.dropFirst("counter:".count)), (1...9).contains(width) else {
                throw fail(.unknownToken, "{\(text)} needs its number of digits, 1 to 9: {counter:4}", offset)
            }
            return .counter(width: width)
        }
        if text.isEmpty {
            throw fail(.unknownToken, "an empty token {}: name one, such as {yyyy} or {original}", offset)
        }
        let characters = Array(text)
        if characters.contains(where: dateLetters.contains),
            characters.allSatisfy({ dateLetters.contains($0) || dateSeparators.contains($0) })
        {
            return .date(try datePattern(characters, at: offset, fail))
        }
        var message = "unknown token {\(text)}"
        if let near = PredicateSchema.nearestSpelling(of: text, among: knownTokens) {
            message += " (did you mean {\(near)}?)"
        }
        throw fail(
            .unknownToken,
            message + "; the tokens are a date such as {yyyy-MM-dd}, {make}, {model}, "
                + "{original}, {ext} and {counter:N}", offset)
    }

    /// The parts of a date pattern; each run of one letter must be a length the letter has.
    private static func datePattern(
        _ characters: [Character], at offset: Int,
        _ fail: (ImportTemplateError.Code, String, Int) -> ImportTemplateError
    ) throws(ImportTemplateError) -> [DatePart] {
        var parts: [DatePart] = []
        var index = 0
        while index < characters.count {
            let letter = characters[index]
            var end = index
            while end < characters.count, characters[end] == letter { end += 1 }
            let run = end - index
            let place = offset + 1 + index
            defer { index = end }
            if dateSeparators.contains(letter) {
                parts += Array(repeating: .separator(letter), count: run)
                continue
            }
            if letter == "y" {
                guard run == 2 || run == 4 else {
                    throw fail(
                        .unknownToken, "\(String(repeating: "y", count: run)) is no year: write yyyy or yy", place)
                }
                parts.append(.year(digits: run))
                continue
            }
            guard run <= 2 else {
                let written = String(repeating: letter, count: run)
                throw fail(.unknownToken, "\(written) is too long: write \(letter)\(letter) or \(letter)", place)
            }
            let padded = run == 2
            switch letter {
            case "M": parts.append(.month(padded: padded))
            case "d": parts.append(.day(padded: padded))
            case "H": parts.append(.hour(padded: padded))
            case "m": parts.append(.minute(padded: padded))
            default: parts.append(.second(padded: padded))
            }
        }
        // `mm` is the minute: beside a year or a day without an hour, it was meant as the month.
        let letters = Set(characters)
        if letters.contains("m"), !letters.contains("H"), letters.contains("y") || letters.contains("d"),
            !letters.contains("M")
        {
            let meant = String(characters.map { $0 == "m" ? "M" : $0 })
            throw fail(.unknownToken, "mm is the minute (did you mean {\(meant)}? MM is the month)", offset)
        }
        return parts
    }
}

// MARK: Rendering

extension ImportLayout {
    /// A date's wall clock at an offset, computed without a calendar object.
    struct WallClock {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int

        init(date: Date, offset: Int) {
            let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
            let days = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
            let seconds = local - days * 86_400
            (year, month, day) = CivilDate.from(daysSince1970: days)
            hour = seconds / 3600
            minute = seconds / 60 % 60
            second = seconds % 60
        }
    }

    /// What pieces render for one asset.
    struct Context {
        var clock: WallClock
        var facts: ImportFacts
        var original: String
        var ext: String

        func text(of piece: Piece, counter: Int?) -> String {
            switch piece {
            case .literal(let text): return text
            case .make: return Self.camera(facts.make)
            case .model: return Self.camera(facts.model)
            case .original: return original
            case .ext: return ext
            case .counter(let width):
                guard let counter else { return String(repeating: ImportLayout.counterPlaceholder, count: width) }
                return Self.padded(counter, width)
            case .date(let parts):
                return parts.map { part in
                    switch part {
                    case .year(4): Self.padded(clock.year, 4)
                    case .year: Self.padded(((clock.year % 100) + 100) % 100, 2)
                    case .month(let padded): Self.padded(clock.month, padded ? 2 : 1)
                    case .day(let padded): Self.padded(clock.day, padded ? 2 : 1)
                    case .hour(let padded): Self.padded(clock.hour, padded ? 2 : 1)
                    case .minute(let padded): Self.padded(clock.minute, padded ? 2 : 1)
                    case .second(let padded): Self.padded(clock.second, padded ? 2 : 1)
                    case .separator(let character): String(character)
                    }
                }.joined()
            }
        }

        static func camera(_ text: String?) -> String {
            let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return trimmed.isEmpty ? ImportLayout.unknownCamera : trimmed
        }

        static func padded(_ number: Int, _ width: Int) -> String {
            let digits = String(abs(number))
            return (number < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
    }
}
