import Foundation

/// The fuzz input as a file: the renderer and FFmpeg read files (through a descriptor), as photosd
/// does. One file per process, in a directory made for it (`mkdtemp`: never one that was there),
/// rewritten for each input.
enum DecoderInput {
    static let path: String = {
        let parent = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(parent)/photos-fuzz-decoder-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("cannot make a directory in \(parent)") }
        // Removed when libFuzzer exits: the file, then the directory, both made here.
        atexit {
            unlink(DecoderInput.path)
            rmdir((DecoderInput.path as NSString).deletingLastPathComponent)
        }
        return String(cString: made) + "/input"
    }()

    /// Writes the input to ``path``; false when it cannot (nothing is then decoded).
    static func write(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Bool {
        guard let data, size > 0 else { return false }
        return FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    }
}
