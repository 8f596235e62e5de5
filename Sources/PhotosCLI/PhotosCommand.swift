import ArgumentParser
import Foundation
import Photos
import PhotosConfig
import PhotosCore
import PhotosStore
import PhotosWire

/// `photos`: query and follow a photo library from the command line.
@main
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Query a PhotoKit-style photo library: assets, albums, folders and its change log.",
        discussion: """
            The library is --library, else $PHOTOS_LIBRARY, else the config's library (--config, else \
            $XDG_CONFIG_HOME/photosd/config.toml), else the one photosd serves on its usual socket, else \
            $XDG_DATA_HOME/photosd/library.sqlite (the one PHPhotoLibrary.shared() uses): the rule photosd follows too.
            """,
        version: "photos \(PhotosVersion.current)",
        subcommands: [
            Scan.self, Assets.self, Albums.self, Folders.self, Rejected.self, Duplicates.self, Thumbnail.self,
            Export.self, Import.self, ImportsCommand.self, Move.self, Remove.self, TrashCommand.self, Favorite.self,
            Rate.self, Rebuild.self, LibraryCommand.self,
            Changes.self,
            WatchQuery.self, Status.self, Hooks.self, Token.self, Open.self, Completion.self,
        ]
    )

    /// Parses the command line (a long list of names through ``LongCommandLine``) and runs the command.
    static func main() async {
        do {
            // Each argument as its bytes say (``PathBytes``), not as `CommandLine.arguments` repairs
            // them: a path whose name is not UTF-8 (`caf\xE9.jpg`) names its file.
            let arguments = (1..<Int(CommandLine.argc)).compactMap { index in
                CommandLine.unsafeArgv[index].map { PathBytes.string(cString: $0) }
            }
            var command = try await LongCommandLine.parse(arguments, as: Self.self)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// Options every subcommand shares.
struct LibraryOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library file, or a postgresql:// URL for a library kept in PostgreSQL.", valueName: "file"))
    var library: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "photosd's config file, for its library, socket and hooks (default: $XDG_CONFIG_HOME/photosd/config.toml).",
            valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        try PathArguments.requireNonEmpty(library.map { [$0] } ?? [], "--library")
        try PathArguments.requireNonEmpty(config.map { [$0] } ?? [], "--config")
    }

    /// The config file (``ConfigFile/load(named:environment:)``): `--config`, else the default one if present.
    func configFile(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> (file: ConfigFile?, path: String)
    {
        do {
            return try ConfigFile.load(named: config, environment: environment)
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// The library this command uses, by the one rule (``LibraryLocation``): `--library`,
    /// `$PHOTOS_LIBRARY`, the config's `library`, the library photosd serves on its usual socket,
    /// the default.
    func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LibraryLocation {
        try LibraryOptions.locate(
            library: library, config: configFile(environment: environment), environment: environment)
    }

    /// The rule, for a command with options of its own (`photos scan`).
    static func locate(
        library: String?, config: (file: ConfigFile?, path: String),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> LibraryLocation {
        if let named = LibraryLocation.named(
            option: library, config: config.file, configPath: config.path, environment: environment)
        {
            return named
        }
        let socket = DaemonOptions.usualSocket(config.file, environment: environment)
        if let served = DaemonOptions.servedLibrary(socket: socket) {
            return LibraryLocation(path: served, source: .daemon(socket))
        }
        return LibraryLocation(path: PHPhotoLibrary.defaultLibraryURL(environment: environment).path, source: .standard)
    }

    /// Opens the library, refusing to create one that does not exist unless `creating`: the error
    /// says which library it looked for, how it found it, and which one a running photosd serves.
    /// `orEmpty`: a library file that does not exist is an empty library in memory, made for a
    /// command that writes nothing (`photos import --dry-run`), and no file is made.
    func open(
        creating: Bool = false, orEmpty: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PHPhotoLibrary {
        let config = try configFile(environment: environment)
        let location = Self.locate(library: library, config: config, environment: environment)
        // A file is looked for here; a library kept in PostgreSQL is asked of its server below.
        let kept = LibraryDatabase.isPostgreSQL(location.path)
        let exists = kept || FileManager.default.fileExists(atPath: location.path)
        guard creating || orEmpty || exists else {
            throw CLIError(
                Self.missing(location, socket: DaemonOptions.usualSocket(config.file, environment: environment)))
        }
        // The config's time zone for dates without an offset, as photosd reads it: without it, the
        // file printed a date in the system's zone that the daemon printed in the config's.
        var configuration = PHPhotoLibrary.Configuration()
        configuration.timeZone = Self.timeZone(config.file)
        // What the library may write under each root: the config's, as photosd reads it.
        configuration.roots = config.file?.libraryRoots ?? []
        configuration.trashDays = config.file?.trashDays ?? configuration.trashDays
        configuration.ignore = config.file?.ignore ?? []
        if orEmpty, !exists {
            configuration.thumbnailCacheDirectory = nil
            return PHPhotoLibrary(database: try LibraryDatabase(), configuration: configuration)
        }
        do {
            return try PHPhotoLibrary(location: location.path, creating: creating, configuration: configuration)
        } catch let error as StoreError where kept && error.code == .notFound {
            // The server's reason when it gave one (no such database, a schema name it cannot be):
            // "no library" alone sent people to make one where the address was wrong.
            guard error.message.hasPrefix("no library at ") else {
                throw CLIError("cannot open the library at \(location): \(error.message)")
            }
            throw CLIError(
                Self.missing(location, socket: DaemonOptions.usualSocket(config.file, environment: environment)))
        } catch {
            throw CLIError("cannot open the library at \(location): \(PHPhotoLibrary.photosError(error))")
        }
    }

    /// The zone for file dates with no UTC offset: the config's `time_zone`, else the system's
    /// (photosd's rule, so the file and the daemon print the same dates).
    static func timeZone(_ config: ConfigFile?) -> TimeZone {
        config?.timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
    }

    /// "no library at …": which library, found how, and the one photosd serves on `socket`, if it runs.
    static func missing(_ location: LibraryLocation, socket: String) -> String {
        let message = "no library at \(location)"
        if case .daemon = location.source {
        } else if let served = DaemonOptions.servedLibrary(socket: socket) {
            return message
                + "; photosd on \(socket) serves \(served) (pass --library \(served), or the --config it runs with)"
        }
        return message + " (make one with `photos scan` or photosd, or pass --library or --config)"
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
        throw CLIError("cannot read the library at \(library.database.location): \(reason)")
    }

    /// The asset `text` names (``ObjectResolver``: an identifier, a unique prefix, or one of its
    /// files), hidden or a burst member alike (what `thumbnail` and `export` name); an error for one
    /// the library does not hold, or cannot read.
    func asset(_ text: String, in library: PHPhotoLibrary) throws -> PHAsset {
        let identifier = try ObjectResolver(.library(library)).asset(text)
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

    /// A change refused (or its plan, a dry run's): its message as the change's refusal reads,
    /// whether the library file or photosd refused it, without PhotoKit's code.
    init(refusal error: any Error) {
        description = (error as? PHPhotosError)?.message ?? "\(error)"
    }
}

/// What `--json` prints for each file a command moves, removes or leaves, or would with `--dry-run`
/// (`photos rm`, `mv`, `import`, `trash restore` and `trash empty`): one object a line.
struct FileActionLine: Encodable {
    /// What happens to the file: `trash`, `remove`, `delete` (an asset none of whose files is on
    /// disk), `restore`, `erase`, `forget` (a deleted asset with nothing left in the Trash), `keep`
    /// (a deleted asset whose photo is back at its path, not erased), `move`,
    /// `copy`, `rename`, `skip` (a duplicate; an asset a restore finds in the library already),
    /// `reject`, `leave` (a file that stays: a restore's that could not go back stays in the Trash).
    var action: String
    /// The asset or album, when the file is one's.
    var localIdentifier: String?
    /// The file or directory as it is (or was).
    var from: String?
    /// Where it goes.
    var to: String?
    /// Why it stays where it is (`skip`, `reject`, `leave`), or what it is a duplicate of.
    var reason: String?
    /// Whether nothing was done: a `--dry-run`'s plan.
    var dryRun: Bool
    /// The change token of the change that did it, where the command knows it.
    var token: Int64?
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

    /// A table of `rows` under `header`, columns aligned; each cell is escaped here (``escaped(_:)``),
    /// so callers give the text as it is.
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
