import Foundation
import Glibc
import PhotosLinux

/// Bind mounts for tests of another mount of one file system (a container's volume) and of a
/// folder whose file system goes away and comes back: a directory mounted over another, and
/// detached (`umount -l`) as a pulled card is. Needs the privilege to mount (root in CI's container).
///
/// ```swift
/// @Test(.enabled(if: BindMount.isAvailable, "\(BindMount.skipReason)"))
/// func aCardComesBack() throws {
///     try BindMount.mount(card, at: drop)
///     defer { BindMount.unmount(drop) }
/// }
/// ```
public enum BindMount {
    /// Whether this process may bind-mount: tried once on a scratch pair of directories.
    public static let isAvailable: Bool = {
        guard let scratch = try? TemporaryDirectory(prefix: "bind-probe") else { return false }
        let source = scratch.path("a").path
        let target = scratch.path("b").path
        try? FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false)
        try? FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        guard Glibc.mount(source, target, nil, UInt(MS_BIND), nil) == 0 else { return false }
        unmount(target)
        return true
    }()

    /// Said when the tests that need it are skipped.
    public static let skipReason =
        "SKIPPED, NOT TESTED: this needs a bind mount, which this process may not make (not root?)"

    /// Mounts `source` at `target` (both directories); `readOnly`, as a card whose write-protect
    /// tab is on: its files can be read, and nothing in it removed (`EROFS`).
    public static func mount(_ source: String, at target: String, readOnly: Bool = false) throws {
        guard Glibc.mount(source, target, nil, UInt(MS_BIND), nil) == 0 else {
            throw SystemCallError(call: "mount", path: target, errno: errno)
        }
        guard readOnly else { return }
        guard Glibc.mount(source, target, nil, UInt(MS_BIND | MS_REMOUNT | MS_RDONLY), nil) == 0 else {
            let code = errno
            unmount(target)
            throw SystemCallError(call: "mount", path: target, errno: code)
        }
    }

    /// Detaches the mounts at `target` at once, open files and all (`umount -l`), however many a
    /// test that stopped halfway left stacked there; nothing if none is there.
    public static func unmount(_ target: String) {
        while umount2(target, Int32(MNT_DETACH)) == 0 {}
    }
}
