#if canImport(Glibc)
    import Glibc
#endif

@testable import PhotosMetadata

/// The fuzz input as a file the metadata readers can open: one unlinked file in `/dev/shm` (or the temporary
/// directory), rewritten for every input and opened through `/proc/self/fd`, so each run reads a real descriptor
/// the way `photos scan` does, without touching the disk.
enum FuzzInput {
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    nonisolated(unsafe) private static var path = ""

    /// Replaces the file's content with `size` bytes at `data` and returns a path that opens it.
    static func file(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        if descriptor < 0 {
            let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
            let name = "\(directory)/photos-fuzz-\(getpid())"
            descriptor = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            precondition(descriptor >= 0, "cannot create \(name)")
            unlink(name)
            path = "/proc/self/fd/\(descriptor)"
        }
        precondition(ftruncate(descriptor, 0) == 0)
        var written = 0
        while written < size, let data {
            let count = pwrite(descriptor, data + written, size - written, off_t(written))
            precondition(count > 0, "pwrite failed")
            written += count
        }
        return path
    }

    /// The input's bytes, for targets that parse memory.
    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

/// Runs the extractor with the container type fixed, so every input reaches that family's parser; a rejection is
/// the expected outcome for most inputs, a trap or a sanitizer report is the finding.
enum FuzzExtract {
    static let extractor = MetadataExtractor()

    static func run(_ data: UnsafePointer<UInt8>?, _ size: Int, as types: [FileType]) {
        let path = FuzzInput.file(data, size)
        for type in types {
            do {
                let reader = try FileReader(path: path)
                _ = try extractor.extract(reader, type: type)
            } catch {
                precondition(!error.message.isEmpty, "a rejection without a reason")
            }
        }
    }
}
