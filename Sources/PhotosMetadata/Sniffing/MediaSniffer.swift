internal import CMagic
import Synchronization

/// Tells what a file is from its content, with libmagic.
///
/// One sniffer owns one libmagic cookie and closes it when released. libmagic cookies are not
/// thread-safe, so the cookie is used under a lock: share a sniffer between tasks freely, but for
/// parallel sniffing give each worker its own (``MetadataExtractor`` keeps a small pool).
///
/// Only the first 64 KiB of the file are read. The file's extension is consulted only where the
/// content is ambiguous (camera RAW files that libmagic calls `image/tiff`, data it does not
/// know at all); a PNG named `.jpg` is a PNG.
///
/// ```swift
/// let sniffer = try MediaSniffer()
/// let type = sniffer.sniff(path: "/photos/DSC_0070.NEF")
/// // mimeType "image/x-nikon-nef", kind .image, uniformTypeIdentifier "com.nikon.raw-image"
/// ```
public final class MediaSniffer: Sendable {
    private let cookie: Mutex<OpaquePointer>

    /// Opens a libmagic cookie and loads the system's magic database.
    ///
    /// - Throws: ``MetadataError/Code/libraryUnavailable`` when libmagic cannot be opened or its
    ///   database cannot be loaded.
    public init() throws(MetadataError) {
        guard let cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS) else {
            throw MetadataError(code: .libraryUnavailable, message: "magic_open failed", path: "")
        }
        guard magic_load(cookie, nil) == 0 else {
            let reason = magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
            magic_close(cookie)
            throw MetadataError(
                code: .libraryUnavailable, message: "libmagic cannot load its database: \(reason)", path: ""
            )
        }
        self.cookie = Mutex(cookie)
    }

    deinit {
        cookie.withLock { magic_close($0) }
    }

    /// The type of the file at `path`.
    ///
    /// A file that cannot be read is `application/octet-stream` of kind ``MediaKind/other``; an
    /// empty file is `inode/x-empty`. Use ``MetadataExtractor/extract(path:)`` to learn why a
    /// file cannot be read.
    public func sniff(path: String) -> SniffResult {
        guard let reader = try? FileReader(path: path) else {
            return SniffResult(mimeType: "application/octet-stream", kind: .other, uniformTypeIdentifier: nil)
        }
        return fileType(head: reader.head[...], path: path).sniffResult
    }

    /// Whether a file's name claims a media type the sniffer knows (`IMG_0001.JPG`, `clip.mts`): a
    /// file so named that cannot be read is rejected, where another is only not media.
    public static func nameClaimsMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return FileType.withExtension(String(name[name.index(after: dot)...])) != nil
    }

    /// The type of a file whose first bytes are `head` and whose path is `path`.
    func fileType(head: ArraySlice<UInt8>, path: String) -> FileType {
        let fileExtension = Self.fileExtension(of: path)
        if let settled = TypeClassifier.settledBySignature(head: head, fileExtension: fileExtension) { return settled }
        return TypeClassifier.classify(magicMIMEType: magicMIMEType(head), head: head, fileExtension: fileExtension)
    }

    /// libmagic's MIME type for `bytes`.
    func magicMIMEType(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.isEmpty { return "inode/x-empty" }
        return cookie.withLock { cookie in
            bytes.withUnsafeBytes { buffer in
                guard let answer = magic_buffer(cookie, buffer.baseAddress, buffer.count) else {
                    return "application/octet-stream"
                }
                return String(cString: answer)
            }
        }
    }

    /// The extension of the last path component, without the dot; empty for none or a dot file.
    static func fileExtension(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
