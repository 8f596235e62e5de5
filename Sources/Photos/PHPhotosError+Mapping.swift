import Foundation
import PhotosCore
import PhotosLinux
import PhotosMetadata
import PhotosStore

/// The one place where the errors of the modules below the public API become PhotoKit's codes.
///
/// | cause | PhotoKit code |
/// |---|---|
/// | `SQLITE_FULL`, `ENOSPC`, `EDQUOT` | `notEnoughSpace` (3305) |
/// | `SQLITE_BUSY`, `SQLITE_LOCKED` past the busy timeout; `SQLITE_INTERRUPT` | `operationInterrupted` (3301) |
/// | `SQLITE_CORRUPT`, `SQLITE_NOTADB` | `invalidResource` (3302) |
/// | `SQLITE_READONLY`, `EROFS`, `EACCES`, `EPERM` | `accessRestricted` (3310) |
/// | `SQLITE_CANTOPEN`, `SQLITE_IOERR`, `EIO`, no library at the path | `libraryVolumeOffline` (3114) |
/// | a library made by a newer build (unknown migrations, higher `user_version`) | `changeNotSupported` (3300) |
/// | change history pruned past the token; a token of another library | `persistentChangeTokenExpired` (3105) |
/// | a resource file that is missing / cannot be read as media | `missingResource` (3303) / `invalidResource` (3302) |
/// | a failed call in the import folder (`SystemCallError`) | by its errno, as above; else `invalidResource` |
/// | anything else (a bug, not a state of the library) | `internalError` (-1), the cause in `userInfo` |
extension PHPhotoLibrary {
    /// Any error as the `PHPhotosError` the public API throws, its cause in `userInfo`.
    package static func photosError(_ error: any Error) -> PHPhotosError {
        switch error {
        case let error as PHPhotosError:
            return error
        case let error as StoreError:
            return PHPhotosError(error)
        case let error as SystemCallError:
            // The import folder's own calls (staging, placing, removing imported files).
            let posix = NSError(
                domain: NSPOSIXErrorDomain, code: Int(error.errno),
                userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(error.errno))])
            return PHPhotosError(
                PHPhotosError.code(forErrno: error.errno) ?? .invalidResource, error.description,
                userInfo: [NSUnderlyingErrorKey: posix, NSFilePathErrorKey: error.path ?? ""])
        case let error as MetadataError:
            return PHPhotosError(
                .invalidResource, "\(error)", userInfo: [NSUnderlyingErrorKey: error as NSError])
        default:
            let nsError = error as NSError
            if let code = fileCode(nsError) {
                var userInfo: [String: Any] = [NSUnderlyingErrorKey: nsError]
                if let path = nsError.userInfo[NSFilePathErrorKey] as? String { userInfo[NSFilePathErrorKey] = path }
                return PHPhotosError(code, nsError.localizedDescription, userInfo: userInfo)
            }
            return PHPhotosError(.internalError, "\(error)", userInfo: [NSUnderlyingErrorKey: nsError])
        }
    }

    /// The PhotoKit code of a file-system failure reported by Foundation or a system call.
    private static func fileCode(_ error: NSError) -> PHPhotosError.Code? {
        if error.domain == NSPOSIXErrorDomain {
            return PHPhotosError.code(forErrno: Int32(error.code))
        }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
            let code = PHPhotosError.code(forErrno: Int32(posix.code))
        {
            return code
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileWriteOutOfSpace: return .notEnoughSpace
        case .fileNoSuchFile, .fileReadNoSuchFile: return .missingResource
        case .fileReadNoPermission, .fileWriteNoPermission, .fileWriteVolumeReadOnly: return .accessRestricted
        default: return nil
        }
    }
}

extension PHPhotosError {
    /// The PhotoKit code for each kind of store failure (the table on `PHPhotoLibrary.photosError`).
    static func code(for code: StoreError.Code) -> Code {
        switch code {
        case .full: .notEnoughSpace
        case .busy, .interrupted: .operationInterrupted
        case .corrupt: .invalidResource
        case .readOnly, .permissionDenied: .accessRestricted
        case .unreachable, .notFound: .libraryVolumeOffline
        case .newerSchema: .changeNotSupported
        case .missingColumn: .invalidResource
        case .historyExpired: .persistentChangeTokenExpired
        case .other: .internalError
        }
    }

    /// The PhotoKit code of a system error number, when one fits.
    static func code(forErrno number: Int32) -> Code? {
        switch number {
        case ENOSPC, EDQUOT: .notEnoughSpace
        case EACCES, EPERM, EROFS: .accessRestricted
        case ENOENT: .missingResource
        case EIO, ENXIO, ENODEV, ESTALE: .libraryVolumeOffline
        case EINTR: .operationInterrupted
        default: nil
        }
    }

    /// A store failure with PhotoKit's code; SQLite's code and message, the errno and the library
    /// file in `userInfo` (`NSUnderlyingErrorKey`, `NSFilePathErrorKey`).
    init(_ error: StoreError) {
        var userInfo: [String: Any] = [:]
        var posix: NSError?
        if let number = error.errno {
            posix = NSError(
                domain: NSPOSIXErrorDomain, code: Int(number),
                userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(number))])
        }
        if let sqliteCode = error.sqliteCode {
            var sqliteInfo: [String: Any] = [
                NSLocalizedDescriptionKey: error.sqliteMessage ?? "SQLite error \(sqliteCode)"
            ]
            if let posix { sqliteInfo[NSUnderlyingErrorKey] = posix }
            userInfo[NSUnderlyingErrorKey] = NSError(
                domain: Self.sqliteErrorDomain, code: Int(sqliteCode), userInfo: sqliteInfo)
        } else if let posix {
            userInfo[NSUnderlyingErrorKey] = posix
        }
        if let path = error.path { userInfo[NSFilePathErrorKey] = path }
        self.init(Self.code(for: error.code), error.message, userInfo: userInfo)
    }

    /// The domain of the `NSUnderlyingErrorKey` error of a failure SQLite reported; its code is
    /// SQLite's extended result code (`SQLITE_FULL` is 13, `SQLITE_NOTADB` 26...).
    public static let sqliteErrorDomain = "SQLite"
}
