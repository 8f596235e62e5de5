import Foundation
import Glibc
import PhotosTestSupport
import Testing

/// One test's home for the real `photosd`: a temporary directory holding the watched root
/// (`Pictures`), the library, the config file and photosd's log, with the steps the daemon suites
/// share (write the config, copy corpus files in, start photosd and wait until it is ready).
///
/// ```swift
/// @Suite struct SomeDaemonTests: DaemonSuite {
///     let fixture: DaemonFixture
///     init() throws { fixture = try DaemonFixture(prefix: "photosd-some") }
///
///     @Test func aCopiedFileIsIngested() async throws {
///         try writeConfig("settle_ms = 0\n")
///         let daemon = try await offPool { [fixture] in try fixture.start() }
///         try put("Camera/2008/Death Valley/FurnaceCreekInn.jpg", at: "inn.jpg")
///         ...
///     }
/// }
/// ```
struct DaemonFixture: Sendable {
    let directory: TemporaryDirectory

    /// The watched root, made empty.
    var root: URL { directory.path("Pictures") }
    /// The library file (made by photosd).
    var libraryURL: URL { directory.path("library.sqlite") }
    var library: String { libraryURL.path }
    /// The config file, once ``writeConfig(_:)`` wrote it.
    var config: URL { directory.path("config.toml") }
    /// photosd's standard error.
    var log: URL { directory.path("photosd.log") }

    /// A fresh directory named after `prefix`, with the root and the `folders` under the directory.
    init(prefix: String, folders: [String] = []) throws {
        directory = try TemporaryDirectory(prefix: prefix)
        for folder in [root] + folders.map(directory.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// Writes the config file whole and renames it into place, so that a daemon reading it (at
    /// SIGHUP) never reads half of it.
    func writeConfig(_ text: String) throws {
        let partial = directory.path(".config.partial")
        try Data(text.utf8).write(to: partial)
        guard rename(partial.path, config.path) == 0 else { throw DaemonError("cannot rename \(partial.path)") }
    }

    /// Copies a corpus file to `relative` under the root, making its directories.
    func put(_ corpusPath: String, at relative: String) throws {
        let destination = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try #require(Corpus.file(corpusPath)), to: destination)
    }

    /// photosd on the library with `arguments` after `--library` (by default: the root watched with
    /// settle 0, and the config once written), its standard error in ``log``; returned ready, its
    /// startup scan done (``PhotosdProcess``). Blocking: call it through ``offPool(_:)`` from a test
    /// that is async.
    func start(_ arguments: [String]? = nil, environment: [String: String] = [:]) throws -> PhotosdProcess {
        let configured = FileManager.default.fileExists(atPath: config.path) ? ["--config", config.path] : []
        let arguments = arguments ?? ["--watch", root.path, "--settle", "0"] + configured
        return try PhotosdProcess(
            arguments: ["--library", library] + arguments, library: library, environment: environment, log: log)
    }

    /// What photosd logged so far.
    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
}

/// A suite whose tests each have a ``DaemonFixture`` (Swift Testing makes one suite value per test,
/// so one fixture per test): its paths and steps read as the suite's own.
protocol DaemonSuite {
    var fixture: DaemonFixture { get }
}

extension DaemonSuite {
    var directory: TemporaryDirectory { fixture.directory }
    var root: URL { fixture.root }
    var libraryURL: URL { fixture.libraryURL }
    var library: String { fixture.library }
    var config: URL { fixture.config }
    var log: URL { fixture.log }

    func writeConfig(_ text: String) throws { try fixture.writeConfig(text) }
    func put(_ corpusPath: String, at relative: String) throws { try fixture.put(corpusPath, at: relative) }
}
