import ArgumentParser
import Foundation
import Photos

/// `photos`: query and follow a photo library from the command line.
@main
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Query a PhotoKit-style photo library: assets, albums, folders and its change log.",
        discussion: """
            Without --library, the default library is used: $PHOTOS_LIBRARY, else \
            $XDG_DATA_HOME/photosd/library.sqlite (the one photosd and PHPhotoLibrary.shared() use).
            """,
        version: "photos \(PhotosVersion.current)",
        subcommands: [Scan.self, Assets.self, Albums.self, Folders.self, Rejected.self, Duplicates.self, Thumbnail.self, Export.self, Changes.self, WatchQuery.self, Status.self, Hooks.self, Token.self]
    )
}

/// Options every subcommand shares.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The library file.", valueName: "file"))
    var library: String?

    @Flag(name: .long, help: "Print one JSON object per line instead of a table.")
    var json = false

    /// Opens the library, refusing to create one that does not exist.
    func open() throws -> PHPhotoLibrary {
        let url = library.map { URL(fileURLWithPath: $0) } ?? PHPhotoLibrary.defaultLibraryURL()
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CLIError("no library at \(url.path) (make one with `photos scan` or photosd, or pass --library)")
        }
        do {
            return try PHPhotoLibrary(url: url)
        } catch {
            throw CLIError("cannot open the library at \(url.path): \(error)")
        }
    }

    /// Throws the library's unavailability reason, if a fetch found one: an empty listing of a
    /// library that cannot be read is a failure, never an empty library.
    ///
    /// Offline roots are not a failure of the library: their assets are listed, with a warning.
    func requireAvailable(_ library: PHPhotoLibrary) throws {
        guard let reason = library.unavailabilityReason else { return }
        if let error = reason as? PHPhotosError, error.code == .libraryVolumeOffline,
            let root = error.filePath, root != library.database.path
        {
            FileHandle.standardError.write(Data("warning: \(error.message)\n".utf8))
            return
        }
        throw CLIError("cannot read the library at \(library.database.path ?? "memory"): \(reason)")
    }

    /// The asset with this local identifier, hidden or a burst member alike (what `thumbnail` and
    /// `export` name); an error for one the library does not hold, or cannot read.
    func asset(_ identifier: String, in library: PHPhotoLibrary) throws -> PHAsset {
        let fetchOptions = PHFetchOptions()
        fetchOptions.photoLibrary = library
        fetchOptions.includeHiddenAssets = true
        fetchOptions.includeAllBurstAssets = true
        guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: fetchOptions).firstObject
        else {
            try requireAvailable(library)
            throw CLIError("no asset \(identifier)")
        }
        return asset
    }
}

/// An error message for the user, printed as `Error: …` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes JSON lines or aligned tables to standard output.
///
/// Tables show names escaped (``PathBytes/displayed(_:)``): a control character, an escape
/// sequence or a newline in a file name is printed as `\n`, `\x1B`..., never sent to the terminal,
/// and a byte that is not UTF-8 as `\xE9`. JSON keeps names as the library's strings (JSON escapes
/// controls itself; an undecodable byte is its code point U+EF80–U+EFFF, see ``PathBytes``).
enum Output {
    static func jsonLine(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
    }

    /// `text` as a table cell or a line of output shows it: one line, no terminal controls.
    static func escaped(_ text: String) -> String { PathBytes.displayed(text) }

    static func table(_ header: [String], _ rows: [[String]]) {
        let rows = rows.map { $0.map(escaped) }
        var widths = header.map(PathBytes.columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], PathBytes.columns(cell)) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1
                    ? cell : cell + String(repeating: " ", count: max(0, widths[index] - PathBytes.columns(cell)))
            }.joined(separator: "  ")
        }
        print(line(header))
        for row in rows { print(line(row)) }
    }
}

/// Lets SIGTERM, SIGINT and SIGHUP end an endless follow. A parent that starts `photos` from a
/// thread blocking them (any libdispatch worker, through Foundation's `Process`) passes that mask
/// on, and the signals would stay pending forever.
///
/// The corresponding C function is `pthread_sigmask`.
func unblockTerminationSignals() {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
}
