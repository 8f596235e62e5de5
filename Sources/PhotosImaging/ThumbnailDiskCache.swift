import Foundation
import Glibc
import PhotosCore
import Synchronization

/// Small rendered images kept on disk between runs and shared by every process of the user:
/// `$XDG_CACHE_HOME/photosd/thumbnails/`, so that a grid shown again, by this program or another,
/// after a restart, does not decode its pictures again.
///
/// ```swift
/// let cache = ThumbnailDiskCache(directory: ThumbnailDiskCache.defaultDirectory(), maximumBytes: 512 << 20)
/// if let key = ThumbnailDiskCache.Key(fileAt: path, request), let image = cache.image(for: key) { show(image) }
/// ```
///
/// - **Keys.** An image is found by the file it was made from, as it is now (device, inode, size
///   and modification time to the nanosecond: a file written since has another key, a file renamed
///   keeps its own), by what was asked (size, fill or fit, crop, format, quality: the whole
///   ``ImageRequest``) and by ``ImageRenderer/version``. Each is a file named by the key's 128-bit
///   hash, in one of 256 subdirectories.
/// - **Several processes.** A file is written under a temporary name of this process and renamed
///   into place, so that a reader sees a whole entry or none; two processes writing the same entry
///   write the same image, the last rename wins. Each entry carries a checksum: a damaged or cut
///   one (a crash before the data reached the disk) is a miss, and is removed.
/// - **Bounded.** Serving an entry sets its modification time to now; when the entries written
///   since the last count may pass ``maximumBytes``, the cache counts its files and removes the
///   least recently served until it holds nine tenths of the bound. It removes only its own
///   entries and its own stale temporary files, known by name (in its own subdirectories) and by
///   their first bytes: nothing else in the directory, and nothing outside it.
public final class ThumbnailDiskCache: Sendable {
    /// The directory the entries live under (`…/photosd/thumbnails`).
    public let directory: String
    /// The bound on the entries' bytes (their files' sizes).
    public let maximumBytes: Int

    /// The largest side of a request's box the cache keeps: thumbnails and previews, not whole
    /// pictures.
    public static let largestSide = 1024

    /// What the cache did since it was made (for tests and `photos status`).
    public struct Counts: Sendable, Hashable {
        /// Images served.
        public var hits = 0
        /// Images asked for and not kept (or damaged).
        public var misses = 0
        /// Images kept.
        public var writes = 0
        /// Entries and stale temporary files removed.
        public var removed = 0
    }

    /// `$XDG_CACHE_HOME/photosd/thumbnails`, or `~/.cache/photosd/thumbnails` without it.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        return base + "/photosd/thumbnails"
    }

    /// A cache in `directory` (made when first written, mode 0700) of at most `maximumBytes`.
    /// Prefer ``shared(directory:maximumBytes:)``: one instance a directory in a process keeps one
    /// count of what the process wrote.
    public init(directory: String, maximumBytes: Int) {
        self.directory = directory
        self.maximumBytes = max(0, maximumBytes)
    }

    private static let instances = Mutex<[String: ThumbnailDiskCache]>([:])

    /// This process's cache of `directory` with that bound.
    public static func shared(directory: String, maximumBytes: Int) -> ThumbnailDiskCache {
        instances.withLock { instances in
            let key = "\(maximumBytes) \(directory)"
            if let cache = instances[key] { return cache }
            let cache = ThumbnailDiskCache(directory: directory, maximumBytes: maximumBytes)
            instances[key] = cache
            return cache
        }
    }

    private struct State {
        var counts = Counts()
        /// Bytes written since the files were last counted, plus what they held then; nil until
        /// first counted.
        var estimate: Int?
    }

    private let state = Mutex(State())

    /// What the cache did so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// The entries' bytes as last counted by ``trim()``, plus what was written since; nil before
    /// the first count.
    public var estimatedBytes: Int? { state.withLock { $0.estimate } }

    // MARK: Keys

    /// What an entry is found by.
    public struct Key: Sendable, Hashable {
        /// The hex name of the entry (32 digits).
        public let name: String

        /// The key of `request` made from the file at `path` as it is now; nil when the file cannot
        /// be looked at, or when the request is not a small image (``largestSide``).
        public init?(fileAt path: String, _ request: ImageRequest) {
            guard let target = request.target, max(target.width, target.height) <= ThumbnailDiskCache.largestSide
            else { return nil }
            var status = stat()
            guard PathBytes.withCString(path, { stat($0, &status) }) == 0 else { return nil }
            var text = "v\(ImageRenderer.version) \(status.st_dev) \(status.st_ino) \(status.st_size) "
            text += "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(target.width)x\(target.height) "
            text += "\(request.fill ? "fill" : "fit") \(request.format?.rawValue ?? "auto") q\(request.quality)"
            if let crop = request.crop {
                text +=
                    " crop \(crop.x.bitPattern) \(crop.y.bitPattern) \(crop.width.bitPattern) \(crop.height.bitPattern)"
            }
            name =
                Self.hex(Self.fnv1a(text.utf8, seed: 0xcbf2_9ce4_8422_2325))
                + Self.hex(Self.fnv1a(text.utf8, seed: 0x8422_2325_cbf2_9ce4))
        }

        static func fnv1a(_ bytes: some Sequence<UInt8>, seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }

        private static func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }

    /// The entry's file: `directory/ab/ab….thumb`.
    func path(of key: Key) -> String {
        "\(directory)/\(key.name.prefix(2))/\(key.name).thumb"
    }

    // MARK: Reading and writing

    /// The image kept for `key`, or nil. A damaged entry is removed when it is provably the
    /// cache's (it begins as entries do, or is empty, as a crash can leave a renamed file); any
    /// other file at the name is a miss and is left alone.
    public func image(for key: Key) -> RenderedImage? {
        let path = path(of: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            state.withLock { $0.counts.misses += 1 }
            return nil
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= Entry.headerSize, status.st_size <= 64 << 20,
            let bytes = Self.read(descriptor, count: Int(status.st_size)), let image = Entry.decode(bytes)
        else {
            if status.st_mode & S_IFMT == S_IFREG, status.st_size == 0 || Self.isWrittenByCache(path) { unlink(path) }
            state.withLock { $0.counts.misses += 1 }
            return nil
        }
        // Served now: the least recently served go first.
        futimens(descriptor, nil)
        state.withLock { $0.counts.hits += 1 }
        return image
    }

    /// Whether an entry is kept for `key` (not checked, not counted as served).
    public func contains(_ key: Key) -> Bool {
        access(path(of: key), F_OK) == 0
    }

    /// Keeps `image` for `key`, then trims the cache when it may have passed its bound. Failures
    /// (a full disk, a directory that cannot be made) leave the cache as it was: it is a cache.
    public func store(_ image: RenderedImage, for key: Key) {
        guard maximumBytes > 0 else { return }
        let bytes = Entry.encode(image)
        guard bytes.count <= maximumBytes / 4 else { return }
        let path = path(of: key)
        let folder = (path as NSString).deletingLastPathComponent
        guard Self.makeDirectory(directory), Self.makeDirectory(folder) else { return }
        let temporary = "\(folder)/.tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return }
        let written = bytes.withUnsafeBytes { Self.write(descriptor, $0) }
        close(descriptor)
        // An entry of the cache's is replaced; a file of anyone else's at the name never is.
        var existing = stat()
        let replaceable =
            lstat(path, &existing) != 0
            || (existing.st_mode & S_IFMT == S_IFREG && (existing.st_size == 0 || Self.isWrittenByCache(path)))
        guard written, replaceable, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        let due = state.withLock { state -> Bool in
            state.counts.writes += 1
            guard let estimate = state.estimate else { return true }
            state.estimate = estimate + bytes.count
            return estimate + bytes.count > maximumBytes
        }
        if due { trim() }
    }

    /// Counts the entries and, past the bound, removes the least recently served until they hold
    /// nine tenths of it; also removes temporary files an hour old (a writer that died). Returns
    /// the bytes kept.
    @discardableResult
    public func trim() -> Int {
        var entries: [(path: String, size: Int, served: timespec)] = []
        var stale: [String] = []
        let hourAgo = time(nil) - 3600
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        where folder.count == 2 && folder.allSatisfy(\.isHexDigit) {
            let folderPath = "\(directory)/\(folder)"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? [] {
                let isEntry = Self.isEntryName(name, in: folder)
                guard isEntry || Self.isTemporaryName(name) else { continue }
                var status = stat()
                let path = "\(folderPath)/\(name)"
                guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
                if isEntry {
                    entries.append((path, Int(status.st_size), status.st_mtim))
                } else if status.st_mtim.tv_sec < hourAgo {
                    stale.append(path)
                }
            }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        var removed = 0
        for path in stale where Self.isWrittenByCache(path) && unlink(path) == 0 { removed += 1 }
        if total > maximumBytes {
            let goal = maximumBytes / 10 * 9
            entries.sort { ($0.served.tv_sec, $0.served.tv_nsec) < ($1.served.tv_sec, $1.served.tv_nsec) }
            for entry in entries where total > goal && Self.isWrittenByCache(entry.path) {
                // Another process may have removed it first: either way it is gone.
                if unlink(entry.path) == 0 { removed += 1 }
                total -= entry.size
            }
        }
        state.withLock {
            $0.estimate = total
            $0.counts.removed += removed
        }
        return total
    }

    /// An entry's name: 32 hex digits, `.thumb`, in the folder of its first two.
    static func isEntryName(_ name: String, in folder: String) -> Bool {
        name.utf8.count == 38 && name.hasSuffix(".thumb") && name.hasPrefix(folder)
            && name.utf8.prefix(32).allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// A temporary name of ``store(_:for:)``: `.tmp-PID-NUMBER`.
    static func isTemporaryName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == ".tmp"
            && parts[1...].allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether the file begins as every entry does (`PHTC`): what the cache removes must be
    /// its own by name and by content.
    static func isWrittenByCache(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 4)
        return head.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 4) } == 4 && head == Entry.magic
    }

    private static func makeDirectory(_ path: String) -> Bool {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return true }
        guard errno == ENOENT else { return false }
        return makeDirectory((path as NSString).deletingLastPathComponent)
            && (mkdir(path, 0o700) == 0 || errno == EEXIST)
    }

    private static func read(_ descriptor: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + done, count - done) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    private static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let put = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if put < 0, errno == EINTR { continue }
            guard put > 0 else { return false }
            done += put
        }
        return true
    }
}

/// An entry's bytes: `PHTC`, a layout version, the image's format, flags (alpha, from the embedded
/// thumbnail), width and height, the data's length and its FNV-1a checksum (little endian), then
/// the encoded image.
enum Entry {
    static let magic: [UInt8] = Array("PHTC".utf8)
    static let layout: UInt8 = 1
    static let headerSize = 4 + 1 + 1 + 1 + 4 + 4 + 8 + 8

    static func encode(_ image: RenderedImage) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(headerSize + image.data.count)
        bytes.append(layout)
        bytes.append(UInt8(ImageFormat.allCases.firstIndex(of: image.format)!))
        bytes.append((image.hasAlpha ? 1 : 0) | (image.isFromEmbeddedThumbnail ? 2 : 0))
        append(UInt32(image.size.width), to: &bytes)
        append(UInt32(image.size.height), to: &bytes)
        append(UInt64(image.data.count), to: &bytes)
        append(ThumbnailDiskCache.Key.fnv1a(image.data, seed: 0xcbf2_9ce4_8422_2325), to: &bytes)
        bytes += image.data
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> RenderedImage? {
        guard bytes.count >= headerSize, Array(bytes[0..<4]) == magic, bytes[4] == layout,
            Int(bytes[5]) < ImageFormat.allCases.count
        else { return nil }
        let width = Int(read(UInt32.self, bytes, at: 7))
        let height = Int(read(UInt32.self, bytes, at: 11))
        let length = Int(read(UInt64.self, bytes, at: 15))
        let checksum = read(UInt64.self, bytes, at: 23)
        guard length == bytes.count - headerSize, width > 0, height > 0 else { return nil }
        let data = Array(bytes[headerSize...])
        guard ThumbnailDiskCache.Key.fnv1a(data, seed: 0xcbf2_9ce4_8422_2325) == checksum else { return nil }
        return RenderedImage(
            size: PixelSize(width: width, height: height), data: data, format: ImageFormat.allCases[Int(bytes[5])],
            hasAlpha: bytes[6] & 1 != 0, isFromEmbeddedThumbnail: bytes[6] & 2 != 0)
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func read<Value: FixedWidthInteger>(_: Value.Type, _ bytes: [UInt8], at offset: Int) -> Value {
        var value = Value.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + MemoryLayout<Value>.size]) }
        return Value(littleEndian: value)
    }
}
