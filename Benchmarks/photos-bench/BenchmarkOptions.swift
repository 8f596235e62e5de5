import Foundation
import PhotosStore

/// The command line of `photos-bench`.
///
/// ```
/// photos-bench [--smoke] [--sizes 100000,1000000] [--dir DIR] [--iterations N] [--changes SIZE] [--json N]
///              [--api SIZE] [--thumbnails ROUNDS] [--large-side PIXELS] [--sidecars TOGGLES]
///              [--postgresql URL]
/// ```
struct BenchmarkOptions: Sendable {
    /// Library sizes to measure, in assets, smallest first.
    var sizes: [Int] = [100_000, 1_000_000]
    /// Where the synthetic libraries are kept between runs.
    var directory = FileManager.default.temporaryDirectory.appendingPathComponent("photos-bench").path
    /// Timed samples per fetch and commit measure (count takes a tenth, at least 5).
    var iterations = 200
    /// The library size at which change observation is measured (issue 5); nil to skip it. It runs
    /// only when this size is one of ``sizes``.
    var changesSize: Int? = 100_000
    /// Assets written as asset JSON by the PhotoKit path and by the description reader (issue 11);
    /// nil to skip it.
    var jsonSize: Int? = 20_000
    /// The library size at which the socket API is measured against the same fetch in process
    /// (issue 12); nil to skip it. It runs only when this size is one of ``sizes``.
    var apiSize: Int? = nil
    /// Rounds of each 12 MP file thumbnailed by ours and by `vipsthumbnail` (issue 13); nil to
    /// skip the thumbnail measures.
    var thumbnailRounds: Int? = nil
    /// Favorite toggles written through to an XMP sidecar, in process; nil to skip the sidecar measure.
    var sidecarToggles: Int? = nil
    /// A PostgreSQL server's URL to measure the smallest library in, beside its file; nil to skip.
    var postgreSQL: String? = nil
    /// The side in pixels of the square JPEG whose thumbnail's peak memory the thumbnail measure takes.
    var largeSide = 10_000
    /// A smoke run (``smokeArguments``): every measure on a tiny library in a directory of its own,
    /// to show that each still runs; no goal is judged.
    var smoke = false
    /// Whether ``directory`` is the smoke run's own, to remove at the end.
    var removesDirectory = false

    /// What `--smoke` stands for: every part on a library of 1,000 assets. The documented runs are
    /// the same command with bigger sizes.
    static let smokeArguments = [
        "--sizes", "1000", "--iterations", "10", "--changes", "1000", "--json", "200", "--api", "1000",
        "--thumbnails", "1", "--large-side", "2000", "--sidecars", "10",
    ]

    static let usage = """
        usage: photos-bench [--smoke] [--sizes 100000,1000000] [--dir DIR] [--iterations N] [--changes SIZE]
                            [--json N] [--api SIZE] [--thumbnails ROUNDS] [--large-side PIXELS]
                            [--sidecars TOGGLES] [--postgresql URL]

          --smoke       every measure on a tiny library, to check that each still runs (CI runs it):
                        --sizes 1000 --iterations 10 --changes 1000 --json 200 --api 1000 --thumbnails 1
                        --large-side 2000 --sidecars 10 (and 10 requests a client where the API's 16 clients make 100),
                        in a new temporary directory removed at the end unless --dir is given; options
                        after it override these; goals are not judged

          --sizes       library sizes in assets, comma separated (default 100000,1000000)
          --dir         where synthetic libraries are kept and reused (default $TMPDIR/photos-bench)
          --iterations  timed samples per fetch and commit measure (default 200)
          --changes     library size at which change observation is measured, one of --sizes;
                        0 skips it (default 100000)
          --json        assets written as asset JSON, old path and new, in a library of their own;
                        0 skips it (default 20000)
          --api         library size at which the socket API is measured beside the same fetch in
                        process, one of --sizes (default: not measured)
          --thumbnails  rounds of each 12 MP corpus JPEG and HEIC made into a 256 px thumbnail, beside
                        vipsthumbnail (libvips-tools) on the same files; with fastFormat and disk-cache
                        p50 and the peak memory for a 100 MP JPEG (default: not measured)
          --large-side  the side in pixels of that large JPEG (default 10000: 100 MP)
          --sidecars    favorite toggles of a corpus JPEG under a root with write = "sidecars", each
                        through PhotoKit to its XMP sidecar on disk, beside the same toggle under
                        write = "none" and a bare durable write of the sidecar's bytes (default: not
                        measured)
          --postgresql  a PostgreSQL server (postgresql://user@host:port/db) to copy the smallest library
                        into, in a schema of its own dropped at the end: a fetch of 50 and a commit until
                        another host's follower is woken, beside the same on the file (default: not
                        measured)
        """

    /// Parses `arguments` (without the program name); throws a message for the user on a bad one.
    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        var directoryGiven = false
        while let flag = remaining.popFirst() {
            if flag == "-h" || flag == "--help" { throw UsageError(message: nil) }
            if flag == "--smoke" {
                smoke = true
                remaining = Self.smokeArguments[...] + remaining
                continue
            }
            guard let value = remaining.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            switch flag {
            case "--sizes":
                let sizes = value.split(separator: ",").compactMap { Int($0.filter { $0 != "_" }) }
                guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
                    throw UsageError(message: "--sizes wants positive integers, got \(value)")
                }
                self.sizes = sizes.sorted()
            case "--dir":
                directory = (value as NSString).expandingTildeInPath
                directoryGiven = true
            case "--iterations":
                guard let count = Int(value), count >= 10 else {
                    throw UsageError(message: "--iterations wants an integer of at least 10, got \(value)")
                }
                iterations = count
            case "--changes":
                guard let size = Int(value.filter { $0 != "_" }), size >= 0 else {
                    throw UsageError(message: "--changes wants a library size, or 0, got \(value)")
                }
                changesSize = size == 0 ? nil : size
            case "--json":
                guard let size = Int(value.filter { $0 != "_" }), size >= 0 else {
                    throw UsageError(message: "--json wants a number of assets, or 0, got \(value)")
                }
                jsonSize = size == 0 ? nil : size
            case "--api":
                guard let size = Int(value.filter { $0 != "_" }), size >= 0 else {
                    throw UsageError(message: "--api wants a number of assets, or 0, got \(value)")
                }
                apiSize = size == 0 ? nil : size
            case "--postgresql":
                guard value.hasPrefix("postgres") else {
                    throw UsageError(message: "--postgresql wants a postgresql:// URL, got \(value)")
                }
                postgreSQL = value
            case "--large-side":
                guard let side = Int(value), side >= 256 else {
                    throw UsageError(message: "--large-side wants a number of pixels of at least 256, got \(value)")
                }
                largeSide = side
            case "--thumbnails":
                guard let rounds = Int(value), rounds >= 0 else {
                    throw UsageError(message: "--thumbnails wants a number of rounds, or 0, got \(value)")
                }
                thumbnailRounds = rounds == 0 ? nil : rounds
            case "--sidecars":
                guard let toggles = Int(value), toggles >= 0 else {
                    throw UsageError(message: "--sidecars wants a number of toggles, or 0, got \(value)")
                }
                sidecarToggles = toggles == 0 ? nil : toggles
            default:
                throw UsageError(message: "unknown option \(flag)")
            }
        }
        if smoke && !directoryGiven {
            let template = FileManager.default.temporaryDirectory.appendingPathComponent("photos-bench-smoke-XXXXXX")
                .path
            var bytes = Array(template.utf8CString)
            guard mkdtemp(&bytes) != nil else {
                throw UsageError(message: "--smoke cannot make a directory under \(template)")
            }
            directory = String(cString: bytes)
            removesDirectory = true
        }
    }

    /// Timed samples for the unfiltered count, which reads every id of the library.
    var countIterations: Int { max(5, iterations / 10) }

    /// The command that repeats this run.
    var commandLine: String {
        "swift run -c release --scratch-path .build-bench photos-bench " + (smoke ? "--smoke " : "") + "--sizes "
            + sizes.map(String.init).joined(separator: ",") + (removesDirectory ? "" : " --dir \(directory)")
            + " --iterations \(iterations)"
            + " --changes \(changesSize ?? 0) --json \(jsonSize ?? 0)" + (apiSize.map { " --api \($0)" } ?? "")
            + (thumbnailRounds.map { " --thumbnails \($0)" } ?? "")
            + (largeSide == 10_000 ? "" : " --large-side \(largeSide)")
            + (sidecarToggles.map { " --sidecars \($0)" } ?? "")
            // The server's URL without its password.
            + (postgreSQL.map { " --postgresql \((try? PostgreSQLAddress($0).description) ?? "URL")" } ?? "")
    }
}

/// A bad command line, or a request for help (no message).
struct UsageError: Error {
    let message: String?
}
