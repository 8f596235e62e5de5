import ArgumentParser

extension PhotosCommand {
    /// `photos completion SHELL`: the shell's completion script for `photos`, made by
    /// swift-argument-parser from the commands themselves, so it never falls behind them.
    struct Completion: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "completion",
            abstract: "Print the completion script of a shell (bash, zsh or fish) for photos.",
            discussion: """
                bash: photos completion bash > ~/.local/share/bash-completion/completions/photos
                zsh:  photos completion zsh > ~/.zfunc/_photos   (with fpath+=~/.zfunc before compinit)
                fish: photos completion fish > ~/.config/fish/completions/photos.fish
                photosd --generate-completion-script SHELL does the same for photosd.
                """)

        @Argument(help: ArgumentHelp("bash, zsh or fish.", valueName: "shell"))
        var shell: String

        func validate() throws {
            guard CompletionShell(rawValue: shell) != nil else {
                throw ValidationError("unknown shell '\(shell)': bash, zsh or fish")
            }
        }

        func run() throws {
            print(PhotosCommand.completionScript(for: CompletionShell(rawValue: shell)!))
        }
    }
}
