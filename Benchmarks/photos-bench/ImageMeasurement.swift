import Foundation
import Photos
import PhotosImaging
import PhotosTestSupport
import Synchronization

/// Thumbnails (issue 13): 256 px thumbnails a second (of wall time, and of CPU time: the rate per
/// core) from 12 MP JPEGs and HEICs, each beside `vipsthumbnail` (Debian's libvips-tools) on the
/// same files in the same run, one request at a time;
/// `fastFormat` and disk-cache hit p50 through `PHImageManager`; and the peak memory of one
/// thumbnail of a 100 MP JPEG, in a process of its own, beside `vipsthumbnail`'s.
///
/// The files are the corpus' (`../shared/corpus`): two 12 MP phone JPEGs and two 12 MP iPhone
/// HEICs. The 100 MP JPEG (10000x10000) is made once with the `vips` command and kept in the
/// bench's directory.
struct ImageMeasurement {
    /// The goals.
    enum Goal {
        static let rateOverVips = 1.0
        static let fastFormatP50 = 2.0
        static let cacheHitP50 = 1.0
        static let peakMegabytes = 150.0
    }

    static let jpegs = ["Phone/DCIM/Camera/20180530_212539.jpg", "Phone/DCIM/Camera/20201027_132333.jpg"]
    static let heics = ["Phone/DCIM/100APPLE/IMG_0815.HEIC", "Phone/DCIM/100APPLE/IMG_2682.HEIC"]

    /// Times each file is thumbnailed per timed round.
    let rounds: Int
    let iterations: Int
    let directory: String
    let table: ResultTable
    /// The side of the large JPEG whose thumbnail's peak memory is measured: 10,000 (100 MP) unless a
    /// smoke run asks for less.
    var largeSide = 10_000
    /// Whether a measure that cannot be taken (no GNU time for the peak memory) fails the run, as in
    /// a smoke run, rather than being left out.
    var requiresEveryMeasure = false

    /// The box thumbnails fit in, as `vipsthumbnail -s 256x256` fits them.
    static let box = PixelSize(width: 256, height: 256)

    func run() throws {
        guard let corpus = Corpus.root else { throw BenchmarkError("thumbnails: ../shared/corpus is missing") }
        guard let vipsthumbnail = Self.which("vipsthumbnail"), let vips = Self.which("vips") else {
            throw BenchmarkError("thumbnails: vipsthumbnail is missing (apt-get install libvips-tools)")
        }
        print("thumbnails: \(rounds) rounds of each file, one thread; baseline \(vipsthumbnail)")
        // A directory of the bench's own (mkdtemp: never one that was there), removed at the end.
        let output = try Scratch.directory(in: directory, prefix: "photos-bench-thumbnails")
        defer { try? FileManager.default.removeItem(atPath: output) }

        for (name, files) in [("12 MP JPEG", Self.jpegs), ("12 MP HEIC", Self.heics)] {
            let paths = files.map { corpus.appendingPathComponent($0).path }
            let ours = try ourRate(paths)
            let theirs = try vipsRate(vipsthumbnail, paths, output: output)
            table.add(
                ResultRow(
                    "thumbnails: \(name) (floor = vips)", size: paths.count, value: ours.wall, floor: theirs.wall,
                    unit: "per s"))
            table.add(
                ResultRow(
                    "thumbnails: \(name), per CPU s", size: paths.count, value: ours.cpu, floor: theirs.cpu,
                    unit: "per CPU s"))
            print(
                "  \(name): ours \(Int(ours.wall)) thumbnails/s (\(Int(ours.cpu)) a CPU second), vipsthumbnail "
                    + "\(Int(theirs.wall)) (\(Int(theirs.cpu))): \(ratio(ours.wall, theirs.wall)) wall, "
                    + "\(ratio(ours.cpu, theirs.cpu)) CPU")
        }

        let jpeg = corpus.appendingPathComponent(Self.jpegs[0])
        let heic = corpus.appendingPathComponent(Self.heics[0])
        let files = try FileAssetLibrary(
            files: [jpeg, heic], thumbnailCache: (output as NSString).appendingPathComponent("cache"))
        for (name, file) in [("JPEG", jpeg), ("HEIC", heic)] {
            let fast = try requestTimes(files, file, delivery: .fastFormat)
            table.add(ResultRow("thumbnail: fastFormat, \(name)", size: 1, fast, floor: nil))
            let hit = try requestTimes(files, file, delivery: .highQualityFormat)
            table.add(ResultRow("thumbnail: disk cache hit, \(name)", size: 1, hit, floor: nil))
            print(
                "  \(name): fastFormat p50 \(ResultTable.format(fast.p50)) ms, disk cache hit p50 "
                    + "\(ResultTable.format(hit.p50)) ms")
        }

        let large = try largeJPEG(vips)
        let ours = try Child.run(CommandLine.arguments[0], ["--render-once", large])
        let theirs = try Child.run(vipsthumbnail, ["-s", "256x256", "-o", output + "/%s-100mp.jpg[Q=85,strip]", large])
        guard ours.status == 0, theirs.status == 0 else {
            throw BenchmarkError("\(largeName): ours exited \(ours.status), vipsthumbnail \(theirs.status)")
        }
        guard let ourPeak = ours.peakMegabytes, let theirPeak = theirs.peakMegabytes else {
            if requiresEveryMeasure {
                throw BenchmarkError(
                    "\(largeName): peak memory not measured: /usr/bin/time is missing (apt-get install time)")
            }
            print("  \(largeName): peak memory not measured: /usr/bin/time is missing (apt-get install time)")
            return
        }
        table.add(ResultRow(Self.peakMeasure(side: largeSide), size: 1, value: ourPeak, floor: theirPeak, unit: "MB"))
        print(
            "  \(largeName): ours peak \(Int(ourPeak)) MB in \(ResultTable.format(ours.seconds * 1000)) ms, "
                + "vipsthumbnail \(Int(theirPeak)) MB in \(ResultTable.format(theirs.seconds * 1000)) ms")
    }

    /// Thumbnails a second of wall time and of CPU time (every thread's: libheif decodes tiles on
    /// threads of its own).
    struct Rate {
        var wall = 0.0
        var cpu = 0.0
    }

    /// Our renderer's rates, the best of three rounds, after one untimed round.
    private func ourRate(_ paths: [String]) throws -> Rate {
        let renderer = ImageRenderer()
        let request = ImageRequest(target: Self.box)
        for path in paths { consume(try renderer.render(fileAt: path, request)) }
        var best = Rate()
        for _ in 0..<3 {
            let cpuBefore = Self.cpuSeconds()
            let (_, duration) = try timed {
                for _ in 0..<rounds {
                    for path in paths { consume(try renderer.render(fileAt: path, request)) }
                }
            }
            let count = Double(rounds * paths.count)
            best.wall = max(best.wall, count / (duration.milliseconds / 1000))
            best.cpu = max(best.cpu, count / max(Self.cpuSeconds() - cpuBefore, 1e-9))
        }
        return best
    }

    /// This process's user and system time, every thread's.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// `vipsthumbnail`'s, on one thread, given every file `rounds` times in one process (its
    /// start-up counted once), best of three; its output as ours is: sRGB, quality 85, no metadata.
    private func vipsRate(_ vipsthumbnail: String, _ paths: [String], output: String) throws -> Rate {
        let arguments =
            ["-s", "256x256", "--export-profile", "srgb", "--vips-concurrency=1", "-o", output + "/%s.jpg[Q=85,strip]"]
            + Array(repeating: paths, count: rounds).flatMap { $0 }
        var best = Rate()
        for _ in 0..<3 {
            let child = try Child.run(vipsthumbnail, arguments, environment: ["VIPS_CONCURRENCY": "1"])
            guard child.status == 0 else { throw BenchmarkError("vipsthumbnail exited \(child.status)") }
            let count = Double(rounds * paths.count)
            best.wall = max(best.wall, count / child.seconds)
            if let cpu = child.cpuSeconds { best.cpu = max(best.cpu, count / max(cpu, 1e-9)) }
        }
        return best
    }

    /// Synchronous 256 px aspectFill requests through `PHImageManager`, in ms: `fastFormat`, or
    /// high quality after one request has filled the disk cache (every later one is a hit).
    private func requestTimes(_ library: FileAssetLibrary, _ file: URL, delivery: PHImageRequestOptionsDeliveryMode)
        throws -> Samples
    {
        let manager = PHImageManager()
        let asset = library.asset(file)
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = delivery
        let delivered = Mutex(false)
        func request() throws {
            delivered.withLock { $0 = false }
            manager.requestImage(
                for: asset, targetSize: CGSize(width: 256, height: 256), contentMode: .aspectFill, options: options
            ) { image, _ in delivered.withLock { $0 = image != nil } }
            guard delivered.withLock({ $0 }) else { throw BenchmarkError("no image of \(file.lastPathComponent)") }
        }
        try request()
        var samples = Samples()
        for _ in 0..<iterations { samples.append(try timed { try request() }.duration) }
        return samples
    }

    /// The large JPEG's name in the output: "100 MP JPEG" at the full run's size.
    var largeName: String { "\(largeSide * largeSide / 1_000_000) MP JPEG" }

    /// The name of the large JPEG's peak-memory measure in the table.
    static func peakMeasure(side: Int) -> String { "thumbnail peak: \(side * side / 1_000_000) MP JPEG" }

    /// The large JPEG, made once: three planes of noise (the hardest case for a decoder).
    private func largeJPEG(_ vips: String) throws -> String {
        let name = largeSide == 10_000 ? "photos-bench-100mp.jpg" : "photos-bench-\(largeSide)px.jpg"
        let path = (directory as NSString).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: path) { return path }
        print("  making a \(largeSide)x\(largeSide) JPEG with vips (once)")
        let work = try Scratch.directory(in: directory, prefix: "photos-bench-large")
        defer { try? FileManager.default.removeItem(atPath: work) }
        var planes: [String] = []
        for band in 0..<3 {
            let noise = "\(work)/noise\(band).v", plane = "\(work)/plane\(band).v"
            for step in [
                ["gaussnoise", noise, "\(largeSide)", "\(largeSide)", "--mean", "128", "--sigma", "\(20 + band * 10)"],
                ["cast", noise, plane, "uchar"],
            ] {
                guard try Child.run(vips, step).status == 0 else { throw BenchmarkError("vips \(step[0]) failed") }
            }
            planes.append(plane)
        }
        let joined = "\(work)/rgb.v"
        guard try Child.run(vips, ["bandjoin", planes.joined(separator: " "), joined]).status == 0,
            try Child.run(vips, ["copy", joined, path + "[Q=90]"]).status == 0
        else { throw BenchmarkError("vips could not make the \(largeName)") }
        return path
    }

    /// What `--render-once FILE` does in the child: one 256 px thumbnail, and nothing else.
    static func renderOnce(_ path: String) throws {
        let image = try ImageRenderer().render(fileAt: path, ImageRequest(target: box))
        consume(image)
    }

    private func ratio(_ ours: Double, _ theirs: Double) -> String {
        String(format: "%.2fx", ours / max(theirs, 1e-9))
    }

    static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A child process, timed, with its own peak resident size.
///
/// The peak is GNU time's (`/usr/bin/time -f %M`, Debian's `time`): a child this process spawns
/// itself inherits this process's high-water mark at exec (Linux keeps `maxrss` across it), so
/// `wait4`'s figure would be the bench's own. time is small, and its child's figure is the child's.
enum Child {
    struct Outcome {
        let status: Int32
        let seconds: Double
        /// Nil when GNU time is not installed.
        let peakMegabytes: Double?
        /// User and system time, when GNU time is installed.
        let cpuSeconds: Double?
    }

    static let gnuTime = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        let scratch = try Scratch.directory(
            in: FileManager.default.temporaryDirectory.path, prefix: "photos-bench-time")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let report = scratch + "/report"
        let process = Process()
        if let gnuTime {
            process.executableURL = URL(fileURLWithPath: gnuTime)
            process.arguments = ["-f", "%M %U %S", "-o", report, path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Quiet: the bench prints its own lines.
        process.standardOutput = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - start).milliseconds / 1000
        // The last line: "KILOBYTES USER SYSTEM" (a line before it tells of a signal, if any).
        let fields =
            (try? String(contentsOfFile: report, encoding: .utf8))?
            .split(whereSeparator: \.isNewline).last?.split(separator: " ").compactMap { Double($0) } ?? []
        return Outcome(
            status: process.terminationStatus, seconds: seconds,
            peakMegabytes: fields.count == 3 ? fields[0] / 1024 : nil,
            cpuSeconds: fields.count == 3 ? fields[1] + fields[2] : nil)
    }
}

/// Directories the bench makes for itself and removes: `mkdtemp` gives a new one, so what is
/// removed was never a user's.
enum Scratch {
    static func directory(in parent: String, prefix: String) throws -> String {
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchmarkError("cannot make a directory in \(parent): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
