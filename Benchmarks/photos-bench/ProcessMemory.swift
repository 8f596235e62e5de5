import Foundation

/// This process's memory, as Linux reports it.
enum ProcessMemory {
    /// Resident set size in bytes: the second field of `/proc/self/statm`, in pages.
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Returns the C heap's free pages to the kernel (`malloc_trim(0)`), so that memory freed
    /// earlier is not silently reused by what is measured next and the resident size grows by what
    /// it allocates. Looked up at run time: Swift's Glibc module does not import `malloc.h`.
    static func releaseFreeMemory() {
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}

extension Int {
    /// Bytes as mebibytes.
    var megabytes: Double { Double(self) / 1_048_576 }
}
