import Foundation

/// A small tmpfs mounted for a test (needs root): a second file system, or one that fills up.
public enum TmpfsMount {
    /// Mounts a tmpfs of `size` (`mount -o size=`, e.g. `600k`) at `path`; false when it cannot.
    public static func mount(at path: String, size: String = "16m") -> Bool {
        run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) == 0
    }

    /// Unmounts what is mounted at `path`.
    public static func unmount(_ path: String) {
        _ = run("/bin/umount", ["--lazy", path])
    }

    private static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
