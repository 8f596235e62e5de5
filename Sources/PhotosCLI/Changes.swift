import ArgumentParser
import Foundation
import Photos

extension PhotosCommand {
    /// `photos changes`: print the library's change log.
    struct Changes: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print change-log entries: what each committed change inserted, updated and deleted.",
            discussion: "Each entry has a token; pass the last one you saw to --since to resume.")

        @OptionGroup var options: LibraryOptions

        @Option(help: "Only entries after this token (default: from the start).")
        var since: Int64 = 0

        @Flag(help: "Keep running and print new entries as they are committed.")
        var follow = false

        func run() throws {
            let library = try options.open()
            var token = since
            repeat {
                let entries: [LibraryChange]
                do {
                    entries = try library.database.changes(after: token)
                } catch let error as PHPhotosError where error.code == .persistentChangeTokenExpired {
                    throw CLIError("\(error.message) (error \(error.errorCode))")
                }
                for entry in entries {
                    try print(entry)
                    token = entry.token
                }
                if follow { Thread.sleep(forTimeInterval: 0.2) }
            } while follow
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
