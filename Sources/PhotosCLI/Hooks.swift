import ArgumentParser
import Foundation
import Photos
import PhotosConfig
import PhotosHooks
import PhotosStore
import PhotosWire

extension PhotosCommand {
    /// `photos hooks`: the daemon's exec hooks, their cursors and their failures.
    struct Hooks: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hooks",
            abstract: "Show and steer photosd's exec hooks: cursors, lag, last runs, parked hooks.",
            discussion: """
                Hooks are declared as [[hooks]] tables in photosd's config file; their cursors live in \
                the library, so these commands work whether or not the daemon runs. A running daemon \
                notices resume and replay at once.
                """,
            subcommands: [List.self, Status.self, Resume.self, Replay.self, Run.self], defaultSubcommand: List.self)
    }
}

/// The options of every `photos hooks` command: the library and the config that declares the hooks.
struct HookOptions: ParsableArguments {
    @OptionGroup var library: LibraryOptions

    /// The config file (`--config`, else the default one); one that does not exist at the default
    /// path is an empty one.
    func configFile() throws -> ConfigFile {
        try library.configFile().file ?? ConfigFile()
    }

    /// The hooks the config declares.
    func hooks() throws -> [HookDefinition] { try configFile().hooks }

    /// The configured hook named `name`.
    func hook(named name: String) throws -> HookDefinition {
        guard let hook = try hooks().first(where: { $0.name == name }) else {
            throw CLIError("no hook named \(name) in \(library.config ?? ConfigFile.defaultPath())")
        }
        return hook
    }

    /// Each configured hook, then each hook the library knows that the config no longer has.
    func statuses(_ database: LibraryDatabase) throws -> [HookStatus] {
        let configured = try hooks()
        let rows = Dictionary(uniqueKeysWithValues: try database.hookStates().map { ($0.name, $0) })
        var statuses = try configured.map { hook in
            let row = rows[hook.name]
            return HookStatus(
                name: hook.name, command: hook.command, url: hook.url?.text, enabled: hook.enabled, state: row,
                lag: try row.map { try database.changeCount(after: $0.cursor) })
        }
        let names = Set(configured.map(\.name))
        for row in rows.values.sorted(by: { $0.name < $1.name }) where !names.contains(row.name) {
            statuses.append(HookStatus(name: row.name, command: nil, enabled: false, state: row, lag: nil))
        }
        return statuses
    }
}

extension PhotosCommand.Hooks {
    /// `photos hooks list`: the configured hooks, checked against the library.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the configured hooks (a bad config is reported with its file, line and key).")

        @OptionGroup var options: HookOptions

        func run() throws {
            let config = try options.configFile()
            let hooks = config.hooks
            let library = try options.library.open()
            // The check the daemon makes at startup: each album a hook names is in this library.
            do {
                try config.validateAlbums(in: library.database, watchedRoots: config.roots)
            } catch {
                throw CLIError("\(error)")
            }
            if options.library.json {
                for status in try options.statuses(library.database) { try Output.jsonLine(status) }
                return
            }
            Output.table(
                ["NAME", "OBJECTS", "CHANGES", "FILTER", "COMMAND"],
                hooks.map { hook in
                    [
                        hook.name, hook.objects.map(\.hookName).sorted().joined(separator: ","),
                        hook.changes.map(\.rawValue).sorted().joined(separator: ","),
                        ([hook.predicate].compactMap { $0 } + hook.albums.map { "in \($0)" }).joined(separator: "; "),
                        hook.url.map { "POST \($0)" } ?? hook.command.joined(separator: " "),
                    ].map { $0.isEmpty ? "-" : $0 }
                })
        }
    }

    /// `photos hooks status`: where each hook stands.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show each hook's cursor, lag in changes, last run and exit, and why it is parked.")

        @OptionGroup var options: HookOptions

        func run() throws {
            let library = try options.library.open()
            let statuses = try options.statuses(library.database)
            if options.library.json {
                for status in statuses { try Output.jsonLine(status) }
                return
            }
            HookStatusTable.print(statuses)
        }
    }

    /// `photos hooks resume NAME`: unparks a hook.
    struct Resume: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume",
            abstract: "Unpark a hook: forget its failures and run it again from its cursor.")

        @OptionGroup var options: HookOptions

        @Argument(help: "The hook's name.")
        var name: String

        func run() throws {
            let library = try options.library.open()
            let state: HookState
            do {
                state = try library.database.resumeHook(name)
            } catch {
                throw CLIError("\(error)")
            }
            if options.library.json {
                try Output.jsonLine(HookStatus(name: name, command: nil, enabled: true, state: state, lag: nil))
            } else {
                print("resumed \(name) from token \(state.cursor)")
            }
        }
    }

    /// `photos hooks replay NAME --since TOKEN`: moves a hook's cursor back.
    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Move a hook's cursor, so that it is given the changes after TOKEN again.",
            discussion: "A token older than the kept history gives the hook one run with \"expired\": true.")

        @OptionGroup var options: HookOptions

        @Argument(help: "The hook's name.")
        var name: String

        @Option(
            name: .long, parsing: .unconditional,
            help: ArgumentHelp("The token to give changes after.", valueName: "token"))
        var since: Int64

        func validate() throws {
            if since < 0 { throw ValidationError("--since takes a token: a whole number from 0") }
        }

        func run() throws {
            let library = try options.library.open()
            let state: HookState
            do {
                state = try library.database.moveHookCursor(name, to: since)
            } catch {
                throw CLIError("\(error)")
            }
            if options.library.json {
                try Output.jsonLine(HookStatus(name: name, command: nil, enabled: true, state: state, lag: nil))
            } else {
                print("\(name) will be given the changes after token \(state.cursor)")
            }
        }
    }

    /// `photos hooks run NAME --dry-run`: the payload of the next run.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Print the JSON payload the hook's next run would get on standard input.")

        @OptionGroup var options: HookOptions

        @Argument(help: "The hook's name.")
        var name: String

        @Flag(name: .long, help: "Print the payload; run nothing, move nothing (required: the daemon runs hooks).")
        var dryRun = false

        func validate() throws {
            guard dryRun else {
                throw ValidationError("hooks run only by photosd, one run at a time; pass --dry-run to see the payload")
            }
        }

        func run() throws {
            let hook = try options.hook(named: name)
            let library = try options.library.open()
            let pending: (since: Int64, until: Int64, payload: [UInt8])?
            do {
                pending = try HookRunner.pendingPayload(for: hook, database: library.database)
            } catch {
                throw CLIError("\(error)")
            }
            guard let pending else {
                FileHandle.standardError.write(Data("\(name): nothing to deliver after its cursor\n".utf8))
                return
            }
            FileHandle.standardOutput.write(Data(pending.payload + [UInt8(ascii: "\n")]))
        }
    }
}

/// The hooks as a table, for `photos hooks status` and `photos status`.
enum HookStatusTable {
    static func print(_ statuses: [HookStatus]) {
        Output.table(
            ["HOOK", "STATE", "CURSOR", "LAG", "RUNS OK", "FAILED IN A ROW", "LAST RUN", "LAST EXIT"],
            statuses.map { status in
                [
                    status.name, status.state, status.cursor.map(String.init) ?? "-",
                    status.lag.map(String.init) ?? "-",
                    "\(status.runs)", "\(status.failures)", status.lastRunAt ?? "-",
                    status.lastOutcome ?? "-",
                ]
            })
        for status in statuses {
            if let reason = status.parkedReason {
                Swift.print("\(status.name) is parked: \(Output.escaped(reason))")
                Swift.print("  (fix it, then `photos hooks resume \(status.name)`)")
            }
        }
    }
}
