import Glibc
import PhotosCore

extension PathBytes {
    /// The name of an entry `readdir` returned, read in place. The record holds only as many bytes
    /// of `d_name` as the name needs: loading the declared 256-byte field copies past the record,
    /// and past the end of the kernel's buffer when the entry is its last (a crash seen about one
    /// rescan in ten of directories of 1,000 files).
    public static func name(ofEntry entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return string(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }
}
