import Foundation
import Synchronization

/// A fresh directory under the system's temporary directory, removed when released, or when the
/// test process exits if it never is (a suite's shared fixture in a `static let`) or its removal
/// failed (a file made in it while it was being removed).
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory.
    public init(prefix: String = "photos-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        LeftBehind.shared.add(url.path)
    }

    /// A path inside the directory.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        if (try? FileManager.default.removeItem(at: url)) != nil { LeftBehind.shared.remove(url.path) }
    }
}

/// Directories the test process made and has not removed yet, removed as it exits.
public final class LeftBehind: Sendable {
    /// The process's one list; its exit handler is installed with it.
    public static let shared: LeftBehind = {
        let list = LeftBehind()
        atexit { LeftBehind.shared.removeAll() }
        return list
    }()

    private let paths = Mutex<Set<String>>([])

    /// Removes `path` (a directory or a file) when the process exits, unless ``remove(_:)`` says it is gone.
    public func add(_ path: String) { _ = paths.withLock { $0.insert(path) } }

    /// `path` is removed already.
    public func remove(_ path: String) { _ = paths.withLock { $0.remove(path) } }

    /// Removes what is left.
    func removeAll() {
        for path in paths.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// The shared test corpus, `../shared/corpus` beside the package, and its oracle `truth.json`.
public enum Corpus {
    /// The package's root directory.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The corpus directory, or nil (with a loud message) when it is not there.
    public static var root: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        FileHandle.standardError.write(Data("⚠️  ../shared/corpus is missing: corpus tests are SKIPPED\n".utf8))
        return nil
    }

    /// Whether the corpus is present.
    public static var isAvailable: Bool { root != nil }

    /// A file of the corpus, by its path relative to the corpus root.
    public static func file(_ relativePath: String) -> URL? {
        root?.appendingPathComponent(relativePath)
    }
}

/// Built products of this package (`.build/debug/photos` and the examples), for tests that run them.
public enum BuiltProducts {
    /// The directory holding the built executables: the one holding the running test bundle.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["PHOTOS_BUILT_PRODUCTS"] {
            return URL(fileURLWithPath: override)
        }
        var url = Bundle.main.bundleURL
        if url.pathExtension == "xctest" { url.deleteLastPathComponent() }
        for candidate in [url, packageRoot.appendingPathComponent(".build/debug")]
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("photos").path) {
            return candidate
        }
        return url
    }

    static var packageRoot: URL { Corpus.packageRoot }

    /// A cache home of the test run's own: programs the tests run write their caches (the
    /// thumbnail cache) there, never in the user's `~/.cache`.
    public static let cacheHome: String = {
        let path = NSTemporaryDirectory() + "photos-test-cache-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        LeftBehind.shared.add(path)
        return path
    }()

    /// Runs a built executable and returns its exit status, standard output and standard error.
    /// Unless `environment` says otherwise, its `XDG_CACHE_HOME` is ``cacheHome``. `input` is its
    /// standard input when given (else the test's).
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        var env = ProcessInfo.processInfo.environment
        env["XDG_CACHE_HOME"] = cacheHome
        env.merge(environment) { $1 }
        return try TestProcess.run(directory.appendingPathComponent(name), arguments, environment: env, input: input)
    }
}
