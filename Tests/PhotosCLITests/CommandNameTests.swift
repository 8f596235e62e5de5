import ArgumentParser
import Testing

@testable import PhotosCLI

/// Every `photos` command names itself. ArgumentParser otherwise derives a name from the type with
/// `String(describing:)`, whose dynamic casts scan every protocol conformance in the binary, at
/// every start of every command (the parser builds the whole tree): about a millisecond each time.
@Suite struct CommandNameTests {
    /// The command and every subcommand under it, with their paths.
    private static func all(_ command: any ParsableCommand.Type, path: String) -> [(String, any ParsableCommand.Type)] {
        [(path, command)]
            + command.configuration.subcommands.flatMap { sub in
                all(sub, path: path + " " + (sub.configuration.commandName ?? "\(sub)"))
            }
    }

    @Test func everyCommandNamesItself() {
        let commands = Self.all(PhotosCommand.self, path: "photos")
        #expect(commands.count > 30)
        for (path, command) in commands {
            #expect(command.configuration.commandName != nil, "\(path) has no commandName")
        }
    }
}
