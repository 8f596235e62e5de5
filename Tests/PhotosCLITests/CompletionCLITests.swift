import Foundation
import PhotosTestSupport
import Testing

/// `photos completion SHELL` prints a script the shell accepts, naming every command.
struct CompletionCLITests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func eachShellGetsAScriptThatNamesTheCommands(shell: String) async throws {
        let result = try await offPool { try BuiltProducts.run("photos", ["completion", shell]) }
        #expect(result.status == 0, "\(result.stderr)")
        for command in ["scan", "assets", "albums", "changes", "watch-query", "hooks", "token", "completion"] {
            #expect(result.stdout.contains(command), "\(shell): \(command)")
        }
        // bash itself parses its script (the others' shells are not on every machine).
        if shell == "bash" {
            let directory = try TemporaryDirectory(prefix: "photos-completion")
            let file = directory.path("photos.bash")
            try Data(result.stdout.utf8).write(to: file)
            let check = TestProcess()
            check.executableURL = URL(fileURLWithPath: "/bin/bash")
            check.arguments = ["-n", file.path]
            try check.run()
            try await offPool { check.waitUntilExit() }
            #expect(check.terminationStatus == 0)
        }
    }

    @Test func anUnknownShellIsRefused() async throws {
        let result = try await offPool { try BuiltProducts.run("photos", ["completion", "tcsh"]) }
        #expect(result.status != 0)
        #expect(result.stderr.contains("unknown shell 'tcsh': bash, zsh or fish"), "\(result.stderr)")
    }
}
