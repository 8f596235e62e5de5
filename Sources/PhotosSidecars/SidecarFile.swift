import Foundation
import Glibc
import PhotosLinux

/// A sidecar read from disk: the user state it holds, and what the file was (to write it only if it
/// is still that file).
public struct SidecarContents: Sendable {
    /// The library's fields as the sidecar gives them (its own and other tools' for the same facts).
    public var state: SidecarState
    /// `photoshop:SidecarForExtension` (`CR2`): the file the sidecar says it describes, for ``SidecarNames``.
    public var sidecarForExtension: String?
    /// The file as read (device, inode, size, modification time).
    public var identity: FileIdentity
}

/// Reading and writing XMP sidecars. Reading takes any sidecar (the library's, darktable's, digiKam's,
/// Lightroom's, exiftool's). Writing merges: only the library's own properties change
/// (``XMPNamespace/isOwned(namespace:name:)``), every other byte of the file stays as it was, and the
/// file is replaced atomically (a temporary name beside it, `fsync`, `rename`).
///
/// ```swift
/// let path = directory + "/" + SidecarNames.sidecar(for: "IMG_1.JPG", kind: .image, among: entries).name
/// var state = try SidecarFile.read(path)?.state ?? SidecarState()
/// state.isFavorite = true
/// try SidecarFile.write(state, to: path)
/// ```
public enum SidecarFile {
    /// The largest sidecar read: darktable's longest edit histories stay under a megabyte.
    public static let maximumSize = 16 << 20

    /// The sidecar at `path`, or nil when there is no file there.
    public static func read(_ path: String) throws(SidecarError) -> SidecarContents? {
        guard let (bytes, identity) = try load(path, followingLinks: true) else { return nil }
        _ = try scan(bytes, path: path)  // Refuses a DOCTYPE or deep nesting before Exempi sees them.
        return try Exempi.with(path: path) { () throws(SidecarError) -> SidecarContents in
            let tree = try XMPTree(parsing: bytes, path: path)
            return SidecarContents(
                state: SidecarReader.state(of: tree),
                sidecarForExtension: tree.value(XMPNamespace.photoshop, "SidecarForExtension"), identity: identity)
        }
    }

    /// Writes `state` into the sidecar at `path` (creating it when there is none), keeping every
    /// property the library does not own, and returns what the file now holds.
    ///
    /// `expecting` is the sidecar as it was read for the merge (``SidecarContents/identity``; `.some(nil)`
    /// when there was none): if another program replaced it since, nothing is written and the call
    /// throws ``SidecarError/Code-swift.struct/changedWhileWriting``. A sidecar that cannot be read
    /// (``SidecarError/Code-swift.struct/notXMP``) is never overwritten.
    @discardableResult
    public static func write(_ state: SidecarState, to path: String, expecting: FileIdentity?? = .none)
        throws(SidecarError) -> SidecarContents
    {
        guard path.lowercased().hasSuffix(".xmp") else {
            throw SidecarError(code: .notASidecar, message: "not a sidecar: the name does not end in .xmp", path: path)
        }
        let loaded = try load(path, followingLinks: false)
        if case .some(let expected) = expecting, loaded?.1 != expected {
            throw SidecarError(
                code: .changedWhileWriting, message: "the sidecar changed since it was read; nothing was written",
                path: path)
        }
        let original = loaded?.0 ?? Array(SidecarWriter.emptyPacket.utf8)
        let packet = try scan(original, path: path)
        let merged = packet.replacingOwnedProperties { about, indentation in
            SidecarWriter.block(state, about: about, indentation: indentation, declareRDF: !packet.rdfPrefixBound)
        }
        // The merged text must read back as `state`, with every other property as it was.
        try Exempi.with(path: path) { () throws(SidecarError) in
            let before = try XMPTree(parsing: original, path: path).foreignNodes()
            let after = try XMPTree(parsing: merged, path: path)
            let reread = SidecarReader.state(of: after)
            guard after.foreignNodes() == before else {
                throw SidecarError(
                    code: .checkFailed, message: "the merge would change other tools' properties; nothing was written",
                    path: path)
            }
            guard reread == state else {
                throw SidecarError(
                    code: .checkFailed,
                    message: "the merged sidecar reads back as \(reread), not \(state); nothing was written", path: path
                )
            }
        }
        do {
            try FileOperations.replace(path, with: Data(merged), expecting: .some(loaded?.1))
        } catch let error as SystemCallError where error.errno == EAGAIN {
            throw SidecarError(
                code: .changedWhileWriting, message: "the sidecar changed while it was written; nothing was written",
                path: path, cause: error)
        } catch {
            throw SidecarError(code: .systemCallFailed, message: "cannot write the sidecar", path: path, cause: error)
        }
        guard let identity = try? FileOperations.identity(path) else {
            throw SidecarError(code: .systemCallFailed, message: "the sidecar is gone after its write", path: path)
        }
        return SidecarContents(state: state, sidecarForExtension: nil, identity: identity)
    }

    /// The file's bytes and identity, or nil when there is no file.
    /// A write does not follow a symbolic link: it would replace the link with a file.
    private static func load(_ path: String, followingLinks: Bool) throws(SidecarError) -> ([UInt8], FileIdentity)? {
        let identity: FileIdentity
        do {
            guard let found = try FileOperations.identity(path, followingLinks: followingLinks) else { return nil }
            identity = found
        } catch {
            throw SidecarError(code: .systemCallFailed, message: "cannot read the sidecar", path: path, cause: error)
        }
        guard identity.isRegularFile else {
            throw SidecarError(code: .unsupported, message: "not a regular file", path: path)
        }
        guard identity.size <= maximumSize else {
            throw SidecarError(
                code: .tooLarge, message: "\(identity.size) bytes, more than a sidecar's \(maximumSize)", path: path)
        }
        do {
            let fd = try Syscall.openForReading(path)
            defer { Syscall.close(fd) }
            let (_, size) = try Syscall.regularFileSize(fd)
            guard size <= maximumSize else {
                throw SidecarError(
                    code: .tooLarge, message: "\(size) bytes, more than a sidecar's \(maximumSize)", path: path)
            }
            var bytes = [UInt8](repeating: 0, count: size)
            let count = try bytes.withUnsafeMutableBytes { try Syscall.read(fd, into: $0, at: 0) }
            bytes.removeSubrange(count...)
            return (bytes, identity)
        } catch let error as SidecarError {
            throw error
        } catch {
            throw SidecarError(code: .systemCallFailed, message: "cannot read the sidecar", path: path, cause: error)
        }
    }

    private static func scan(_ bytes: [UInt8], path: String) throws(SidecarError) -> XMPPacket {
        do throws(XMPPacket.Failure) {
            return try XMPPacket(bytes)
        } catch {
            switch error {
            case .malformed(let reason):
                throw SidecarError(code: .notXMP, message: "not XMP: \(reason)", path: path)
            case .unsupported(let reason):
                throw SidecarError(code: .unsupported, message: "not editable XMP: \(reason)", path: path)
            }
        }
    }
}
