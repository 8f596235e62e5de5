import Foundation
import Glibc

/// The directory photosd's socket goes in when `$XDG_RUNTIME_DIR` is not set: `/tmp/photosd-UID`,
/// made private (owned by the daemon's user, mode 0700), or refused.
///
/// `/tmp` is everyone's. Another user can make `/tmp/photosd-UID` before the daemon does, and serve
/// a program of theirs on the socket path inside: the user's clients would send it their token
/// and print its answers. So the directory is taken only when it is the user's own and nobody
/// else can enter it; one made here is made 0700. It is examined with `lstat`: a symbolic link at
/// that name is refused, never followed. A directory `$XDG_RUNTIME_DIR` or `--socket` names is the
/// user's choice and is left as it is.
///
/// ```swift
/// try SocketDirectory.claim(forSocket: "/tmp/photosd-1000/photosd.sock")
/// // photosd: /tmp/photosd-1000 is owned by uid 65534, not by this user (uid 1000)...
/// ```
public enum SocketDirectory {
    /// The fallback directory of `uid`'s socket (``API/defaultSocketPath(environment:)`` without `$XDG_RUNTIME_DIR`).
    public static func fallback(uid: uid_t = getuid()) -> String {
        "/tmp/photosd-\(uid)"
    }

    /// Makes sure the directory of `socketPath`, when it is the fallback directory, is this user's
    /// alone: made (0700) when missing, else owned by `uid`, a directory (not a link) and of mode
    /// 0700. Any other socket path is not looked at.
    public static func claim(forSocket socketPath: String, uid: uid_t = getuid()) throws(SocketDirectoryError) {
        let directory = (socketPath as NSString).deletingLastPathComponent
        guard directory == fallback(uid: uid) else { return }
        var info = stat()
        if lstat(directory, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw SocketDirectoryError(.unusable, path: directory, errno: code) }
            // 0700 whatever the umask: mkdir's mode can only lose bits to it, so it is set after.
            if mkdir(directory, 0o700) != 0, errno != EEXIST {
                throw SocketDirectoryError(.unusable, path: directory, errno: errno)
            }
            // Made here (or by a racer: then examined like any found one). /tmp's sticky bit keeps
            // another user from replacing a directory of ours between these calls.
            if lstat(directory, &info) == 0, info.st_uid == uid, info.st_mode & S_IFMT == S_IFDIR {
                chmod(directory, 0o700)
            }
            guard lstat(directory, &info) == 0 else {
                throw SocketDirectoryError(.unusable, path: directory, errno: errno)
            }
        }
        try check(info, path: directory, uid: uid)
    }

    /// The rule on what `lstat` said of the directory.
    static func check(_ info: stat, path: String, uid: uid_t) throws(SocketDirectoryError) {
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a directory"
            throw SocketDirectoryError(.notADirectory, path: path, detail: "it is \(what)")
        }
        guard info.st_uid == uid else {
            throw SocketDirectoryError(
                .notOwned, path: path, detail: "it is owned by uid \(info.st_uid), not by this user (uid \(uid))")
        }
        let mode = info.st_mode & 0o7777
        guard mode == 0o700 else {
            throw SocketDirectoryError(
                .notPrivate, path: path,
                detail: "its mode is \(String(mode, radix: 8, uppercase: false).leftPadded(4)), not 0700")
        }
    }
}

/// photosd will not put its socket in the fallback directory: someone else's, or open to others.
///
/// ```swift
/// // /tmp/photosd-1000: it is owned by uid 65534, not by this user (uid 1000); photosd does not put
/// // its socket there, since another user's program could take it. Remove the directory, or set
/// // XDG_RUNTIME_DIR, or choose a socket with --socket or the config's socket.
/// ```
public struct SocketDirectoryError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the directory.
    public enum Code: Sendable, Hashable {
        /// A symbolic link or a file where the directory should be.
        case notADirectory
        /// Another user's directory.
        case notOwned
        /// The user's, but others may enter or write it (mode other than 0700).
        case notPrivate
        /// It cannot be made or examined (errno in the message).
        case unusable
    }

    /// What is wrong.
    public let code: Code
    /// The directory.
    public let path: String
    /// Why, in a few words.
    public let detail: String

    init(_ code: Code, path: String, detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    init(_ code: Code, path: String, errno: Int32) {
        self.init(code, path: path, detail: String(cString: strerror(errno)))
    }

    /// The directory, the reason, and what to do.
    public var description: String {
        "\(path): \(detail); photosd does not put its socket there, since another user's program could take it. "
            + "Remove the directory (if it is yours to remove), or set XDG_RUNTIME_DIR, or choose a socket with "
            + "--socket or the config's socket"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
