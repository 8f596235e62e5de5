import PhotosLinux

/// What kind of file system a path is on, to know whether inotify will report its changes.
///
/// inotify only sees changes made through this machine's kernel: on NFS, SMB/CIFS and FUSE mounts
/// changes made elsewhere are silent, so such roots are crawled periodically instead.
public enum FileSystemKind: Sendable, Hashable {
    case local
    case network(String)

    /// The kind of the file system holding `path` (local when `statfs` fails).
    ///
    /// The corresponding C call is `statfs`.
    public static func of(_ path: String) -> FileSystemKind {
        guard let type = Syscall.fileSystemType(path) else { return .local }
        switch type {
        case 0x6969: return .network("nfs")
        case 0xFF53_4D42: return .network("cifs")
        case 0xFE53_4D42: return .network("smb2")
        case 0x517B: return .network("smb")
        case 0x6573_5546: return .network("fuse")
        case 0x0BD0_0BD0: return .network("lustre")
        case 0x0102_1997: return .network("9p")
        case 0x7461_636F: return .network("ocfs2")
        default: return .local
        }
    }
}
