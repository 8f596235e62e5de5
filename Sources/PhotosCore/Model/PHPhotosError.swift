import Foundation

/// PhotoKit's error domain: the `domain` of every `PHPhotosError` seen as an `NSError`.
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// The `userInfo` key under which a `PHPhotosError` lists the local identifiers involved.
public let PHLocalIdentifiersErrorKey = "PHLocalIdentifiersErrorKey"

/// An error from the Photos library, with PhotoKit's codes, bridged to `NSError` as on Apple's systems.
///
/// Match a code in a `catch` clause as with PhotoKit:
/// ```swift
/// do { _ = try library.fetchPersistentChanges(since: token) }
/// catch PHPhotosError.persistentChangeTokenExpired { refetchEverything() }
/// catch let error as PHPhotosError where error.code == .notEnoughSpace { askForSpace() }
/// ```
/// Seen as an `NSError`, its `domain` is ``PHPhotosErrorDomain`` and its `code` PhotoKit's raw code;
/// the cause travels in `userInfo`: `NSUnderlyingErrorKey` (an `NSError` of the `SQLite` or
/// `NSPOSIXErrorDomain` domain with SQLite's code or the errno), `NSFilePathErrorKey` (the library
/// file) and `NSLocalizedDescriptionKey` (the message).
public struct PHPhotosError: CustomNSError, Sendable, Hashable, CustomStringConvertible {
    /// PhotoKit's error codes (`PHPhotosErrorDomain`).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case internalError = -1
        case userCancelled = 3072
        case persistentChangeTokenExpired = 3105
        case libraryVolumeOffline = 3114
        case relinquishingLibraryBundleToWriter = 3142
        case switchingSystemPhotoLibrary = 3143
        case networkAccessRequired = 3164
        case networkError = 3169
        case identifierNotFound = 3201
        case multipleIdentifiersFound = 3202
        case persistentChangeDetailsUnavailable = 3210
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case limitExceeded = 3307
        case accessRestricted = 3310
        case accessUserDenied = 3311
    }

    /// Holds `userInfo`'s values. They are set once, when the error is made, and never mutated:
    /// Foundation value types (String, numbers, arrays of strings) and immutable `NSError`s,
    /// which is what makes sharing them across threads safe.
    private struct Info: @unchecked Sendable {
        let values: [String: Any]
    }

    /// The PhotoKit error domain (``PHPhotosErrorDomain``).
    public static let errorDomain = PHPhotosErrorDomain

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people (`NSLocalizedDescriptionKey`).
    public let message: String
    /// The local identifiers involved, if any (PhotoKit's ``PHLocalIdentifiersErrorKey``).
    public let localIdentifiers: [String]
    private let info: Info

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String, localIdentifiers: [String] = []) {
        self.init(code, message, localIdentifiers: localIdentifiers, userInfo: [:])
    }

    /// Creates an error with a code, a message and more of the cause in `userInfo` (for example
    /// `NSUnderlyingErrorKey`, `NSFilePathErrorKey`).
    public init(_ code: Code, _ message: String, localIdentifiers: [String] = [], userInfo: [String: Any]) {
        self.code = code
        self.message = message
        self.localIdentifiers = localIdentifiers
        var values = userInfo
        values[NSLocalizedDescriptionKey] = message
        if !localIdentifiers.isEmpty { values[PHLocalIdentifiersErrorKey] = localIdentifiers }
        info = Info(values: values)
    }

    /// Creates an error as PhotoKit's bridged error is made: `PHPhotosError(.notEnoughSpace)`,
    /// `PHPhotosError(.identifierNotFound, userInfo: [PHLocalIdentifiersErrorKey: ids])`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(
            code, userInfo[NSLocalizedDescriptionKey] as? String ?? Self.defaultMessage(code),
            localIdentifiers: userInfo[PHLocalIdentifiersErrorKey] as? [String] ?? [], userInfo: userInfo)
    }

    /// PhotoKit's numeric code.
    public var errorCode: Int { code.rawValue }

    /// The error's `userInfo`, as an `NSError` carries it.
    public var errorUserInfo: [String: Any] { info.values }

    /// The error's `userInfo` (PhotoKit's bridged error spells it so).
    public var userInfo: [String: Any] { info.values }

    /// The cause below this error (`NSUnderlyingErrorKey`), if known.
    public var underlyingError: (any Error)? { info.values[NSUnderlyingErrorKey] as? any Error }

    /// The file the error is about (`NSFilePathErrorKey`), if any.
    public var filePath: String? { info.values[NSFilePathErrorKey] as? String }

    /// The code, its name and the message.
    public var description: String {
        var text = "PHPhotosError \(code.rawValue) (\(code)): \(message)"
        if let underlying = info.values[NSUnderlyingErrorKey] as? NSError {
            text += " [\(underlying.domain) \(underlying.code)]"
        }
        return text
    }

    /// Errors are equal when code, message and identifiers are (the cause is not compared).
    public static func == (lhs: PHPhotosError, rhs: PHPhotosError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.localIdentifiers == rhs.localIdentifiers
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(localIdentifiers)
    }

    private static func defaultMessage(_ code: Code) -> String {
        switch code {
        case .internalError: "an internal error occurred"
        case .userCancelled: "the user cancelled the operation"
        case .persistentChangeTokenExpired: "the change token is older than the history kept"
        case .libraryVolumeOffline: "the library's volume is offline"
        case .relinquishingLibraryBundleToWriter: "the library is being handed to another writer"
        case .switchingSystemPhotoLibrary: "the system photo library is being switched"
        case .networkAccessRequired: "network access is required"
        case .networkError: "a network error occurred"
        case .identifierNotFound: "no object has this identifier"
        case .multipleIdentifiersFound: "several objects have this identifier"
        case .persistentChangeDetailsUnavailable: "the details of this change are not available"
        case .changeNotSupported: "the change is not supported"
        case .operationInterrupted: "the operation was interrupted"
        case .invalidResource: "the resource is not valid"
        case .missingResource: "the resource is missing"
        case .notEnoughSpace: "there is not enough space"
        case .requestNotSupportedForAsset: "the request is not supported for this asset"
        case .limitExceeded: "a limit was exceeded"
        case .accessRestricted: "access is restricted"
        case .accessUserDenied: "the user denied access"
        }
    }

    /// The code to match in `catch PHPhotosError.internalError`.
    public static var internalError: Code { .internalError }
    /// The code to match in `catch PHPhotosError.userCancelled`.
    public static var userCancelled: Code { .userCancelled }
    /// The code to match in `catch PHPhotosError.persistentChangeTokenExpired`.
    public static var persistentChangeTokenExpired: Code { .persistentChangeTokenExpired }
    /// The code to match in `catch PHPhotosError.libraryVolumeOffline`.
    public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
    /// The code to match in `catch PHPhotosError.relinquishingLibraryBundleToWriter`.
    public static var relinquishingLibraryBundleToWriter: Code { .relinquishingLibraryBundleToWriter }
    /// The code to match in `catch PHPhotosError.switchingSystemPhotoLibrary`.
    public static var switchingSystemPhotoLibrary: Code { .switchingSystemPhotoLibrary }
    /// The code to match in `catch PHPhotosError.networkAccessRequired`.
    public static var networkAccessRequired: Code { .networkAccessRequired }
    /// The code to match in `catch PHPhotosError.networkError`.
    public static var networkError: Code { .networkError }
    /// The code to match in `catch PHPhotosError.identifierNotFound`.
    public static var identifierNotFound: Code { .identifierNotFound }
    /// The code to match in `catch PHPhotosError.multipleIdentifiersFound`.
    public static var multipleIdentifiersFound: Code { .multipleIdentifiersFound }
    /// The code to match in `catch PHPhotosError.persistentChangeDetailsUnavailable`.
    public static var persistentChangeDetailsUnavailable: Code { .persistentChangeDetailsUnavailable }
    /// The code to match in `catch PHPhotosError.changeNotSupported`.
    public static var changeNotSupported: Code { .changeNotSupported }
    /// The code to match in `catch PHPhotosError.operationInterrupted`.
    public static var operationInterrupted: Code { .operationInterrupted }
    /// The code to match in `catch PHPhotosError.invalidResource`.
    public static var invalidResource: Code { .invalidResource }
    /// The code to match in `catch PHPhotosError.missingResource`.
    public static var missingResource: Code { .missingResource }
    /// The code to match in `catch PHPhotosError.notEnoughSpace`.
    public static var notEnoughSpace: Code { .notEnoughSpace }
    /// The code to match in `catch PHPhotosError.requestNotSupportedForAsset`.
    public static var requestNotSupportedForAsset: Code { .requestNotSupportedForAsset }
    /// The code to match in `catch PHPhotosError.limitExceeded`.
    public static var limitExceeded: Code { .limitExceeded }
    /// The code to match in `catch PHPhotosError.accessRestricted`.
    public static var accessRestricted: Code { .accessRestricted }
    /// The code to match in `catch PHPhotosError.accessUserDenied`.
    public static var accessUserDenied: Code { .accessUserDenied }
}

/// Lets `catch PHPhotosError.someCode` match a thrown `PHPhotosError` with that code, as in PhotoKit.
public func ~= (code: PHPhotosError.Code, error: any Error) -> Bool {
    (error as? PHPhotosError)?.code == code
}
