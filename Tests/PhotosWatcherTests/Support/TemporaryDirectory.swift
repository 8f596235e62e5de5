import Foundation
import Glibc

/// A fresh directory under the system's temporary directory, removed when released.
final class TemporaryDirectory: Sendable {
    /// Its absolute path, with symbolic links resolved (`mkdtemp` under `$TMPDIR` or `/tmp`).
    let path: String

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/photos-watcher-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw CocoaError(.fileWriteUnknown) }
        let made = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let resolved = realpath(made, nil) else { throw CocoaError(.fileWriteUnknown) }
        defer { free(resolved) }
        path = String(cString: resolved)
    }

    /// `path/relative`.
    func callAsFunction(_ relative: String) -> String { path + "/" + relative }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Writes `bytes` with plain `open`, `write`, `close` (not Foundation's atomic write, which would
/// rename a temporary file into place): the events a camera import or `cp` causes.
func writeFile(_ path: String, _ bytes: [UInt8] = Array(repeating: 0xFF, count: 64)) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw POSIXError(.EIO) }
}

/// `mkdir -p`.
func makeDirectories(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
}

/// `mv`, as one `rename`.
func move(_ from: String, _ to: String) throws {
    guard rename(from, to) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
