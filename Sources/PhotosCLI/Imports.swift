import ArgumentParser
import Foundation
import PhotosClient
import PhotosConfig
import PhotosWire

/// `photos imports status`: the watched import folders of a running photosd (`[[imports]]`).
struct ImportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports",
        abstract: "Show the watched import folders ([[imports]]) and where each stands.",
        subcommands: [Status.self])

    /// The imports as a table: folder, root, state, and the counts of the last run.
    static func table(_ imports: [ImportStatus]) {
        Output.table(
            [
                "FROM", "TO", "MODE", "STATE", "IMPORTED", "DUPLICATES", "REJECTED", "LEFT", "PENDING", "LAST RUN",
                "ERROR",
            ],
            imports.map { entry in
                [
                    entry.from, entry.to, entry.mode,
                    entry.reason.map { "\(entry.state) (\($0))" } ?? entry.state, "\(entry.imported)",
                    "\(entry.duplicates)", "\(entry.rejected)", "\(entry.left)", "\(entry.pending)",
                    entry.lastRun.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? "-",
                    entry.lastError.map(Output.escaped) ?? "-",
                ]
            })
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Each watched import folder: watched or not (and why), photos imported since photosd "
                + "started, and what its last run left (duplicates, rejected, other files, files still being "
                + "written).")

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        func run() throws {
            let imports: [ImportStatus]
            // Asked of photosd when it serves the library, else read from its status file.
            if let source = try daemon.daemon(for: options) {
                let reply = try APIConnection.request(
                    source.socket, "GET", "/v1/imports", headers: source.authorization, trusting: source.peers)
                guard reply.status == 200 else { throw CLIError(reply.errorMessage) }
                imports = try JSONDecoder().decode(ImportListing.self, from: Data(reply.body)).imports
            } else {
                let location = try options.locate()
                let path = LibraryLocation.statusPath(forLibrary: location.localPath)
                guard FileManager.default.fileExists(atPath: path) else {
                    throw CLIError("no status at \(path): photosd has not run on the library \(location)")
                }
                do {
                    imports = try DaemonStatus.read(from: path).imports ?? []
                } catch {
                    throw CLIError("cannot read the status at \(path): \(error)")
                }
            }
            if options.json {
                for entry in imports { try Output.jsonLine(entry) }
                return
            }
            guard !imports.isEmpty else {
                print("no watched import folder: the configuration has no [[imports]]")
                return
            }
            ImportsCommand.table(imports)
        }
    }
}
