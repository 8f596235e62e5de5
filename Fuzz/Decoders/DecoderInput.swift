import Foundation

/// The fuzz input as a file: the renderer and FFmpeg read files (through a descriptor), as photosd
/// does. One file per process, rewritten for each input.
enum DecoderInput {
    static let path: String = {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        return "\(directory)/photos-fuzz-decoder-\(getpid())"
    }()

    /// Writes the input to ``path``; false when it cannot (nothing is then decoded).
    static func write(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Bool {
        guard let data, size > 0 else { return false }
        return FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    }
}
