import ArgumentParser

/// A command whose last argument is a list a shell can make long: `photos import DCIM/*/*`,
/// `photos rm $(…)`, `photos favorite` of a query's identifiers.
protocol EndsInAList: ParsableCommand {
    /// The property holding the list's values, in the order given.
    static var list: WritableKeyPath<Self, [String]> { get }
}

extension EndsInAList {
    /// The list's values, in the order given.
    var listed: [String] {
        get { self[keyPath: Self.list] }
        set { self[keyPath: Self.list] = newValue }
    }
}

/// Parses a command line whose list of names is long without the argument parser's square cost.
///
/// swift-argument-parser (1.8) copies the values of a repeated argument parsed so far, and the set
/// of places they came from, for each new value: N names cost N² (16,000 file names took 12 s
/// before the command started). A line longer than ``threshold`` is parsed with only the first
/// ``kept`` of its trailing names (the arguments after the last one that starts with `-`); the
/// others are appended to the parsed command's list (``EndsInAList``) and the command is validated
/// again. Anything else (an error, help, a command without a list, a list that does not end the
/// line) is parsed again from the whole line, exactly as the parser alone would.
///
/// ```swift
/// let command = try await LongCommandLine.parse(Array(CommandLine.arguments.dropFirst()), as: PhotosCommand.self)
/// ```
enum LongCommandLine {
    /// Lines up to this many arguments go to the parser whole: below it the square is small.
    static let threshold = 256
    /// Trailing names the parser sees: enough for two subcommand names and an option's value before
    /// the list's first name.
    static let kept = 4

    /// The command `arguments` (without the program's name) make, parsed from `root`.
    static func parse(_ arguments: [String], as root: any AsyncParsableCommand.Type) async throws
        -> any ParsableCommand
    {
        guard let (head, rest) = split(arguments) else { return try await root.asyncParseAsRoot(arguments) }
        if let command = try? await root.asyncParseAsRoot(head), var list = command as? any EndsInAList,
            list.listed.last == head.last
        {
            list.listed += rest
            if (try? list.validate()) != nil { return list }
        }
        return try await root.asyncParseAsRoot(arguments)
    }

    /// `arguments` as the line the parser sees and the names set aside after it; nil when the line
    /// is short or its trailing names are few.
    static func split(_ arguments: [String]) -> (head: [String], rest: [String])? {
        guard arguments.count > threshold else { return nil }
        let start = (arguments.lastIndex { $0.hasPrefix("-") } ?? -1) + 1
        let end = start + kept
        guard end < arguments.count else { return nil }
        return (Array(arguments[..<end]), Array(arguments[end...]))
    }
}

// The commands whose last argument is a list of names.

extension Remove: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.assets } }
extension TrashCommand.Restore: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.assets } }
extension TrashCommand.Empty: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.assets } }
extension PhotosCommand.Favorite: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.assets } }
extension PhotosCommand.Export: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.identifiers } }
extension PhotosCommand.Import: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.sources } }
extension PhotosCommand.Scan: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.roots } }
extension PhotosCommand.Rebuild: EndsInAList { static var list: WritableKeyPath<Self, [String]> { \.roots } }
