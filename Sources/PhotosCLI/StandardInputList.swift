import Foundation

/// `-` among a command's arguments: the names it stands for read from standard input, one a line,
/// as `xargs` would pass them but without the argument list's limits. For thousands of assets
/// (`photos assets --json | jq -r .localIdentifier | photos rm -`): the argument parser's cost
/// grows with the square of the arguments (10 s for 16,000), a list on standard input's with
/// their number.
enum StandardInputList {
    /// `arguments` with a lone `-` replaced by the lines of `input` (standard input by default), in
    /// place; empty lines are skipped, and a line's trailing carriage return is dropped.
    static func expanding(_ arguments: [String], input: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() })
        throws -> [String]
    {
        guard let dash = arguments.firstIndex(of: "-") else { return arguments }
        guard arguments.lastIndex(of: "-") == dash else { throw CLIError("give - at most once") }
        var lines: [String] = []
        // Split on the bytes: in a String, "\r\n" is one character, not a "\n".
        for line in input().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            if !text.isEmpty { lines.append(String(decoding: text, as: UTF8.self)) }
        }
        return Array(arguments[..<dash]) + lines + Array(arguments[(dash + 1)...])
    }
}
