import PhotosLinux

/// Random access to one open file, reading only what the parsers ask for.
///
/// The first ``headLength`` bytes are read at open: they hold the type signature and, for most
/// formats, the headers the extractor needs first (a phone's EXIF block with its thumbnail can be
/// longer: it is read whole, once, when asked for). Reads elsewhere go through a small window cache, so
/// that walking chunk or box headers through a large file costs one `pread` per window, not per
/// header. The descriptor is owned by this object and closed in `deinit`.
final class FileReader {
    /// How much of the file is read up front (and handed to libmagic). 16 KB, not 64: a first scan
    /// copied 64 KB of every file from the page cache, most of it never looked at.
    static let headLength = 16 * 1024
    /// The cache window for reads outside the head.
    private static let windowLength = 16 * 1024
    /// The largest single read a parser may ask for; larger requests mean a corrupt length field.
    static let maximumRead = 32 * 1024 * 1024

    /// The path as given by the caller, used in error messages.
    let path: String
    /// The file's size in bytes when it was opened.
    let size: Int
    /// The first `min(size, headLength)` bytes.
    let head: [UInt8]

    private let fd: Int32
    private var window: [UInt8] = []
    private var windowOffset = 0

    /// Opens `path`, checks that it is a regular file, and reads its head.
    init(path: String) throws(MetadataError) {
        self.path = path
        let fd: Int32
        do {
            fd = try Syscall.openForReading(path)
        } catch {
            throw MetadataError(code: .unreadable, message: "cannot open the file", path: path, cause: error)
        }
        let info: (isRegular: Bool, size: Int)
        do {
            info = try Syscall.regularFileSize(fd)
        } catch {
            Syscall.close(fd)
            throw MetadataError(code: .unreadable, message: "cannot stat the file", path: path, cause: error)
        }
        guard info.isRegular else {
            Syscall.close(fd)
            throw MetadataError(code: .unreadable, message: "not a regular file", path: path)
        }
        let size = info.size
        self.fd = fd
        self.size = size
        do {
            head = try Self.bytes(of: fd, at: 0, count: min(size, Self.headLength))
        } catch {
            Syscall.close(fd)
            throw MetadataError(code: .unreadable, message: "cannot read the file", path: path, cause: error)
        }
    }

    deinit {
        Syscall.close(fd)
    }

    /// Up to `count` bytes at `offset`; fewer when the file ends first, none past the end.
    func read(at offset: Int, count: Int) throws(MetadataError) -> ArraySlice<UInt8> {
        guard offset >= 0, count > 0, offset < size else { return [] }
        guard count <= Self.maximumRead else {
            throw corrupt("a length field asks for \(count) bytes at offset \(offset)")
        }
        let end = min(offset + count, size)
        if end <= head.count {
            return head[offset..<end]
        }
        if offset >= windowOffset, end <= windowOffset + window.count {
            let start = offset - windowOffset
            return window[start..<(start + end - offset)]
        }
        if end - offset <= Self.windowLength / 4 {
            window = try pread(at: offset, count: Self.windowLength)
            windowOffset = offset
            return window[0..<min(end - offset, window.count)]
        }
        return try pread(at: offset, count: end - offset)[...]
    }

    /// Exactly `count` bytes at `offset`, or a `truncated` error naming `what` was being read.
    func readExactly(
        at offset: Int, count: Int, what: @autoclosure () -> String
    ) throws(MetadataError) -> ArraySlice<UInt8> {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw truncated(
                "\(what()) at offset \(offset) (\(count) bytes) runs past the end of the file (\(size) bytes)")
        }
        if count == 0 { return [] }
        let bytes = try read(at: offset, count: count)
        guard bytes.count == count else {
            throw truncated("\(what()) at offset \(offset) could not be read in full: the file shrank while reading")
        }
        return bytes
    }

    /// A `truncated` error for this file.
    func truncated(_ message: String) -> MetadataError {
        MetadataError(code: .truncated, message: message, path: path)
    }

    /// A `corrupt` error for this file.
    func corrupt(_ message: String) -> MetadataError {
        MetadataError(code: .corrupt, message: message, path: path)
    }

    private func pread(at offset: Int, count: Int) throws(MetadataError) -> [UInt8] {
        do {
            return try Self.bytes(of: fd, at: offset, count: min(count, size - offset))
        } catch {
            throw MetadataError(code: .unreadable, message: "read failed at offset \(offset)", path: path, cause: error)
        }
    }

    /// Up to `count` bytes at `offset`, fewer where the file ends, read into an array that was not
    /// zero-filled first (the head of every file read: a memset each).
    private static func bytes(of fd: Int32, at offset: Int, count: Int) throws(SystemCallError) -> [UInt8] {
        var failure: SystemCallError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(SystemCallError) {
                initialized = try Syscall.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }
}
