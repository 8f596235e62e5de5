import ArgumentParser
import Foundation
import Photos
import PhotosStore

extension PhotosCommand {
    /// `photos changes`: print the library's change log.
    struct Changes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print change-log entries: what each committed change inserted, updated and deleted.",
            discussion: """
                Each entry has a token; pass the last one you saw to --since to resume. Without --since, \
                the whole log is printed, or, with --follow, what is committed from now on (as tail -f).
                """)

        @OptionGroup var options: LibraryOptions
        @OptionGroup var daemon: DaemonOptions

        @Option(help: "Only entries after this token (default: from the start; with --follow, from now).")
        var since: Int64?

        @Flag(help: "Keep running and print new entries as they are committed (by any process).")
        var follow = false

        func run() async throws {
            if let source = try daemon.daemon(for: options) { return try run(through: source) }
            let library = try options.open()
            do {
                guard follow else {
                    for entry in try library.database.changes(after: since ?? 0) { try print(entry) }
                    return
                }
                unblockTerminationSignals()
                let start = try since ?? library.database.currentToken()
                for try await entry in library.database.changeFeed(after: start) {
                    try print(entry)
                    // A reader at the other end of a pipe sees each entry as it comes (nil: every stream).
                    fflush(nil)
                }
            } catch let error as StoreError where error.code == .historyExpired {
                let code = PHPhotosError.Code.persistentChangeTokenExpired.rawValue
                throw CLIError("\(error.message) (error \(code))")
            }
        }

        /// The same entries, asked of photosd (its change feed, for --follow).
        func run(through source: DaemonSource) throws {
            if follow { unblockTerminationSignals() }
            // Without --since, photosd follows from now (and lists from the start).
            var query = since.map { [("since", "\($0)")] } ?? []
            if follow { query.append(("follow", "true")) }
            let decoder = JSONDecoder()
            try source.eachLine("/v1/changes", query, follow: follow) { line in
                if options.json {
                    Swift.print(line)
                } else {
                    try print(try decoder.decode(LibraryChange.self, from: Data(line.utf8)))
                }
                if follow { fflush(nil) }
            }
        }

        private func print(_ entry: LibraryChange) throws {
            if options.json {
                try Output.jsonLine(entry)
                return
            }
            for (name, changes) in [("asset", entry.asset), ("album", entry.assetCollection), ("folder", entry.collectionList)] {
                for id in changes.inserted { Swift.print("\(entry.token)\tinserted\t\(name)\t\(id)") }
                for id in changes.updated {
                    let properties = changes.changedProperties[id]?.joined(separator: ",") ?? ""
                    Swift.print("\(entry.token)\tupdated\t\(name)\t\(id)\t\(properties)")
                }
                for id in changes.deleted { Swift.print("\(entry.token)\tdeleted\t\(name)\t\(id)") }
            }
        }
    }
}
