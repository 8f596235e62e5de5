import Foundation
import Glibc
import Photos
import PhotosTestSupport
import Testing

/// Whether this test can run here.
private var corpusPythonAndCurl: Bool {
    Corpus.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
}

/// Thumbnails of small files that decode to gigabytes, asked of the real photosd over its socket:
/// two interlaced 16-bit RGBA PNGs of 14000x14000 (a few megabytes each, 1.5 GB each decoded,
/// since libvips decodes an interlaced PNG whole) at once. The daemon's peak memory (VmHWM) stays
/// under 512 MB and each answer is a refusal that says why; a PNG that fits the budget, and a
/// camera JPEG, are still thumbnailed.
@Suite(.serialized, .enabled(if: corpusPythonAndCurl, "needs ../shared/corpus, /usr/bin/python3 and curl"))
struct DecodeMemoryDaemonTests: DaemonSuite {
    /// Writes an Adam7-interlaced PNG of zeros: `path width height channels depth`. Streamed: the
    /// writer never holds the picture.
    static let interlacedPNG = """
        import struct, sys, zlib
        path, width, height, channels, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        color = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
        out = open(path, "wb")
        out.write(b"\\x89PNG\\r\\n\\x1a\\n")
        out.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 1)))
        pixel = channels * depth // 8
        compressor = zlib.compressobj(1)
        pending = []
        def emit(data):
            pending.append(compressor.compress(data))
            if sum(len(p) for p in pending) > 1 << 20:
                out.write(chunk(b"IDAT", b"".join(pending)))
                pending.clear()
        for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
            columns = (width - x0 + dx - 1) // dx if width > x0 else 0
            rows = (height - y0 + dy - 1) // dy if height > y0 else 0
            if columns == 0 or rows == 0:
                continue
            row = bytes(1 + columns * pixel)
            per = max(1, (8 << 20) // len(row))
            block = row * per
            left = rows
            while left > 0:
                n = min(per, left)
                emit(block if n == per else row * n)
                left -= n
        pending.append(compressor.flush())
        out.write(chunk(b"IDAT", b"".join(pending)))
        out.write(chunk(b"IEND", b""))
        out.close()
        """

    let fixture: DaemonFixture
    var socket: String { directory.path("photosd.sock").path }

    init() throws { fixture = try DaemonFixture(prefix: "photosd-decode-memory") }

    func writePNG(_ name: String, side: Int, channels: Int = 4, depth: Int = 16) throws {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c", Self.interlacedPNG, root.appendingPathComponent(name).path, "\(side)", "\(side)", "\(channels)",
            "\(depth)",
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }

    /// `GET /v1/assets/{id}/thumbnail?size=256` with curl: the status and the body.
    static func thumbnail(_ socket: String, _ identifier: String, into file: String) throws -> TestProcess {
        let process = TestProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        let escaped = identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? identifier
        process.arguments = [
            "-s", "--max-time", "300", "--unix-socket", socket, "-o", file, "-w", "%{http_code}",
            "http://photosd/v1/assets/\(escaped)/thumbnail?size=256",
        ]
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    static func finish(_ process: TestProcess) -> Int {
        let status = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: status, as: UTF8.self)) ?? 0
    }

    /// The process's peak resident memory, in bytes (`VmHWM`).
    static func peakMemory(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    @Test func twoInterlacedSixteenBitPNGsAreRefusedWithinHalfAGigabyteAndOrdinaryFilesStillThumbnail() async throws {
        // Blocking work (vips, photosd, curl) waits off Swift's pool, which every suite shares.
        try await offPool {
            try self.writePNG("bomb-1.png", side: 14000)
            try self.writePNG("bomb-2.png", side: 14000)
            // Interlaced and 16-bit too, but 26 MB decoded: within the budget.
            try self.writePNG("fits.png", side: 1800)
        }
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")),
            to: root.appendingPathComponent("inn.jpg"))
        let (library, socket, cache) = (library, socket, directory.path("cache").path)
        let daemon = try await offPool { [fixture] in
            try fixture.start(
                ["--watch", fixture.root.path, "--socket", socket], environment: ["XDG_CACHE_HOME": cache])
        }
        let photos = try PHPhotoLibrary(url: URL(fileURLWithPath: library))
        let options = PHFetchOptions()
        options.photoLibrary = photos
        nonisolated(unsafe) let fetchOptions = options
        try await offPool {
            try daemon.waitWhileRunning("the four files to be ingested") {
                PHAsset.fetchAssets(with: fetchOptions).count == 4 && FileManager.default.fileExists(atPath: socket)
            }
        }
        var identifiers: [String: String] = [:]
        PHAsset.fetchAssets(with: options).enumerateObjects { asset, _, _ in
            let name = PHAssetResource.assetResources(for: asset).first?.originalFilename ?? ""
            identifiers[name] = asset.localIdentifier
        }
        let pid = daemon.process.processIdentifier
        let before = try Self.peakMemory(of: pid)

        // Both bombs at once, as two clients would.
        let (one, two) = (try #require(identifiers["bomb-1.png"]), try #require(identifiers["bomb-2.png"]))
        let (firstOutput, secondOutput) = (directory.path("1").path, directory.path("2").path)
        let statuses = try await offPool {
            let first = try Self.thumbnail(socket, one, into: firstOutput)
            let second = try Self.thumbnail(socket, two, into: secondOutput)
            return [Self.finish(first), Self.finish(second)]
        }
        let peak = try Self.peakMemory(of: pid)
        #expect(peak < 512 << 20, "photosd peaked at \(peak >> 20) MB (from \(before >> 20) MB)")
        for (status, body) in zip(statuses, ["1", "2"]) {
            let text = (try? String(contentsOf: directory.path(body), encoding: .utf8)) ?? ""
            // A refusal that says why (a thumbnail would be fine too, if it came within the bound).
            if status != 200 {
                #expect(status == 422, "\(text)")
                #expect(text.contains("an interlaced PNG is decoded whole: 14000x14000 pixels"), "\(text)")
                #expect(text.contains("decode memory budget"), "\(text)")
            }
        }

        for name in ["fits.png", "inn.jpg"] {
            let output = directory.path("out-\(name)").path
            let identifier = try #require(identifiers[name])
            let status = try await offPool { Self.finish(try Self.thumbnail(socket, identifier, into: output)) }
            #expect(status == 200, "\(name): \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(
                data.starts(with: [0xFF, 0xD8]) || data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name): not an image")
        }
        #expect(try Self.peakMemory(of: pid) < 512 << 20)
        try await offPool { try daemon.stop() }
    }
}
