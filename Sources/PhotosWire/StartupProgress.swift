import Foundation

/// How far photosd's startup crawl is: written to `<library>.startup.json` while it runs (the status
/// file appears only once it is done), and kept in the status file's `startup` section after.
///
/// ```json
/// {"pid": 4242, "startedAt": 1767000000, "updatedAt": 1767000012.5, "done": false,
///  "directoriesDone": 120, "directories": 300, "filesSeen": 5000, "ingested": 4000, "rejected": 2, "seconds": 12.5}
/// ```
public struct StartupProgress: Sendable, Codable, Hashable {
    /// The daemon's process id.
    public var pid: Int32
    /// When the crawl started, and when this was written, seconds since 1970.
    public var startedAt: Double
    public var updatedAt: Double
    /// Whether the crawl is over (the daemon is ready).
    public var done: Bool
    /// Directories compared so far, and those found so far (a root's are known once it is listed).
    public var directoriesDone: Int
    public var directories: Int
    /// Files seen, ingested (new to the library) and rejected so far.
    public var filesSeen: Int
    public var ingested: Int
    public var rejected: Int
    /// Seconds since the crawl started.
    public var seconds: Double

    /// A progress report with every value given.
    public init(
        pid: Int32, startedAt: Double, updatedAt: Double, done: Bool, directoriesDone: Int, directories: Int,
        filesSeen: Int, ingested: Int, rejected: Int, seconds: Double
    ) {
        self.pid = pid
        self.startedAt = startedAt
        self.updatedAt = updatedAt
        self.done = done
        self.directoriesDone = directoriesDone
        self.directories = directories
        self.filesSeen = filesSeen
        self.ingested = ingested
        self.rejected = rejected
        self.seconds = seconds
    }

    /// One line for people (systemd's `STATUS=`, `photos status`): "startup crawl: 120 of 300
    /// directories, 5000 files seen, 4000 ingested, 2 rejected, 12 s" (…"done in 12 s" once over).
    public var summary: String {
        let directories = done ? "\(directoriesDone) directories" : "\(directoriesDone) of \(directories) directories"
        let time = done ? "done in \(Self.seconds(seconds))" : Self.seconds(seconds)
        return
            "startup crawl: \(directories), \(filesSeen) files seen, \(ingested) ingested, \(rejected) rejected, \(time)"
    }

    static func seconds(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f s", value) : "\(Int(value.rounded())) s"
    }

    /// The progress file of a library: `<library>.startup.json`.
    public static func path(forLibrary libraryPath: String) -> String {
        libraryPath + ".startup.json"
    }

    /// Reads a progress file.
    public static func read(from path: String) throws -> StartupProgress {
        try JSONDecoder().decode(StartupProgress.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
