import Foundation
import Glibc
import PhotosCore
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosLinux

/// A folder of photos and a data home of the test's own, so that nothing reaches the real home
/// trash: ``trash`` and the trash-cli commands run by ``TrashTools`` both use
/// `XDG_DATA_HOME=<temporary>/data`.
final class TrashFixture: Sendable {
    let directory: TemporaryDirectory
    /// The folder of photos.
    let photos: String
    /// `XDG_DATA_HOME`.
    let dataHome: String
    /// The Trash of this fixture's data home.
    let trash: Trash

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-trash")
        // Resolved, as the trash records the parent's real path.
        let root = FileOperations.resolved(directory.url.path)!
        photos = root + "/photos"
        dataHome = root + "/data"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        trash = Trash(environment: ["XDG_DATA_HOME": dataHome, "HOME": root + "/home"])
    }

    /// `$XDG_DATA_HOME/Trash`.
    var homeTrash: String { dataHome + "/Trash" }

    /// The environment for a trash-cli command: this fixture's data home, UTF-8 paths.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome
        environment["HOME"] = directory.url.path + "/home"
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }

    /// Writes a file (and its folders) under the photos folder; returns its path.
    @discardableResult
    func write(_ relativePath: String, _ text: String, under base: String? = nil) throws -> String {
        let path = (base ?? photos) + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// The text of the file at `path`, or nil when there is none.
func contents(_ path: String) -> String? {
    guard let bytes = try? TrashFiles.read(path, limit: 1 << 20) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// `lstat` of `path`, or nil.
func identity(_ path: String) -> FileIdentity? {
    (try? FileOperations.identity(path)) ?? nil
}

/// The permission bits and owner of `path` (`lstat`).
func modeAndOwner(_ path: String) -> (mode: UInt32, owner: UInt32)? {
    guard let status = (try? TrashFiles.status(path)) ?? nil else { return nil }
    return (status.mode & 0o7777, status.owner)
}

/// `DeletionDate=` for `date`, made independently of the code under test.
func expectedDeletionDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone.current
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return formatter.string(from: date)
}

/// A value a hook records for the test to read after the operation.
final class Recorded<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)
    /// Records `value`.
    func set(_ value: Value) { storage.withLock { $0 = value } }
    /// What was recorded, if anything.
    var value: Value? { storage.withLock { $0 } }
}

/// A stop requested by a test's ``Trash/stopHook``: the operation ends there, as a killed process.
struct SimulatedCrash: Error, Equatable {
    let step: Trash.Step
}

/// Debian's trash-cli (`trash-put`, `trash-list`, `trash-restore`), the other implementation the
/// Trash must agree with.
enum TrashTools {
    /// Whether trash-cli is installed (scripts/setup installs it); says so loudly when it is not.
    static let isInstalled: Bool = {
        let found = ["trash-put", "trash-list", "trash-restore"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0)
        }
        if !found {
            FileHandle.standardError.write(Data("⚠️  trash-cli is not installed: its tests are SKIPPED\n".utf8))
        }
        return found
    }()

    /// Runs `/usr/bin/<tool>` with `arguments`, `input` on its standard input, off the shared pool.
    static func run(
        _ tool: String, _ arguments: [String], input: String = "", environment: [String: String]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await offPool {
            try TestProcess.run(
                URL(fileURLWithPath: "/usr/bin/" + tool), arguments, environment: environment, input: input)
        }
    }
}
