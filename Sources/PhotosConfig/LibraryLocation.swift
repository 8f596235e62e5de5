import Foundation
import PhotosStore

/// Which library a program uses, and how it was found: the one rule of photosd and of every
/// `photos` command.
///
/// 1. `--library FILE` (or a `postgresql://` URL: a library kept in PostgreSQL);
/// 2. else `$PHOTOS_LIBRARY`;
/// 3. else the config's `library =` (the file `--config` names, else the default config if present);
/// 4. else, for `photos`, the library photosd serves on its usual socket (the config's `socket`, else
///    the default one), when one answers;
/// 5. else the default, `$XDG_DATA_HOME/photosd/library.sqlite`.
///
/// Errors name the library and how it was found, so that "no library at …" says which rule chose it:
/// ```swift
/// let location = LibraryLocation.named(option: nil, config: file, configPath: path) ?? .standard(url)
/// print(location)   // /srv/photos/library.sqlite (library = in /home/me/.config/photosd/config.toml)
/// ```
public struct LibraryLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the library was found.
    public enum Source: Sendable, Hashable {
        /// `--library`.
        case option
        /// `$PHOTOS_LIBRARY`.
        case environment
        /// The config file at this path.
        case config(String)
        /// photosd, asked on this socket.
        case daemon(String)
        /// The default path.
        case standard
    }

    /// The library file, or a `postgresql://` URL.
    public var path: String
    /// How it was found.
    public var source: Source

    /// A library found by `source`.
    public init(path: String, source: Source) {
        self.path = path
        self.source = source
    }

    /// Steps 1 to 3 of the rule: the library `--library`, `$PHOTOS_LIBRARY` or the config names;
    /// nil when none does.
    public static func named(
        option: String?, config: ConfigFile?, configPath: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> LibraryLocation? {
        if let option { return LibraryLocation(path: option, source: .option) }
        if let path = environment["PHOTOS_LIBRARY"], !path.isEmpty {
            return LibraryLocation(path: path, source: .environment)
        }
        if let library = config?.library, !library.isEmpty {
            return LibraryLocation(path: library, source: .config(configPath))
        }
        return nil
    }

    /// How it was found, in words.
    public var how: String {
        switch source {
        case .option: "--library"
        case .environment: "$PHOTOS_LIBRARY"
        case .config(let file): "library = in \(file)"
        case .daemon(let socket): "served by photosd on \(socket)"
        case .standard: "the default library"
        }
    }

    /// The path (a PostgreSQL URL without its password) and how it was found.
    public var description: String { "\(LibraryDatabase.shown(path)) (\(how))" }

    /// Where this host keeps its own files of the library (photosd's status and lock, the import
    /// folder): the library file itself, or for a library kept in PostgreSQL a stand-in under
    /// `$XDG_DATA_HOME/photosd/postgresql/` (`LibraryDatabase.localPath(forLibrary:)`).
    public var localPath: String { LibraryDatabase.localPath(forLibrary: path) }

    /// Where photosd writes its status for a library, read by `photos status`: `<library>.status.json`,
    /// `libraryPath` being the library's ``localPath``.
    public static func statusPath(forLibrary libraryPath: String) -> String {
        libraryPath + ".status.json"
    }
}
