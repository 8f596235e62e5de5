import ArgumentParser
import Foundation
import PhotosStore

/// `photos library`: what is done to a library as a whole.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Work on a library as a whole: copy it between a SQLite file and a PostgreSQL database.",
        subcommands: [Copy.self])

    /// `photos library copy SOURCE DESTINATION`.
    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a library, with everything in it, between a SQLite file and a PostgreSQL database.",
            discussion: """
                SOURCE and DESTINATION are each a library file's path or a PostgreSQL URL \
                (postgresql://user[:password]@host[:port]/database, with ?schema=NAME to keep the library \
                in a schema of its own). Every row is copied under its own id: assets, albums and folders \
                keep their identifiers, the change log its tokens (persistent change tokens and hook cursors \
                go on working), and access tokens, the Trash's records and the file journal come along. \
                The source is read in one snapshot; the destination must not hold a library yet (a file \
                that does not exist, a database or schema without one) and is written in one transaction, \
                so a copy that fails leaves nothing behind. No photo is read or written.
                """)

        @Argument(help: ArgumentHelp("The library to copy: a file or a postgresql:// URL.", valueName: "source"))
        var source: String

        @Argument(
            help: ArgumentHelp("Where the copy goes: a new file or a postgresql:// URL.", valueName: "destination"))
        var destination: String

        @Flag(help: "Print what was copied as JSON.")
        var json = false

        func validate() throws {
            try PathArguments.requireNonEmpty([source], "the source")
            try PathArguments.requireNonEmpty([destination], "the destination")
        }

        func run() throws {
            let started = Date()
            let report: LibraryCopy.Report
            do {
                report = try LibraryCopy.copy(from: Self.location(source), to: Self.location(destination)) {
                    table, rows in
                    // Progress of a long copy, table by table; the empty ones are not news.
                    if rows > 0 { FileHandle.standardError.write(Data("copied \(table): \(rows) rows\n".utf8)) }
                }
            } catch let error as StoreError {
                throw CLIError(error.message)
            }
            if json {
                try Output.jsonLine(report)
                return
            }
            let rows = report.rows
            let albums = (rows["collection"] ?? 0)
            print(
                "copied \(report.source) to \(report.destination): \(rows["asset"] ?? 0) assets, "
                    + "\(rows["resource"] ?? 0) files, \(albums) albums and folders, "
                    + "\(rows["change"] ?? 0) change log entries, in "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        }

        /// A path made absolute; a URL as given.
        static func location(_ text: String) -> String {
            let lowered = text.lowercased()
            if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") { return text }
            return URL(fileURLWithPath: text).standardizedFileURL.path
        }
    }
}
