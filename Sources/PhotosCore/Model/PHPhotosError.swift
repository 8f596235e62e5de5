/// An error from the Photos library, with PhotoKit's codes.
///
/// Match a code in a `catch` clause as with PhotoKit:
/// ```swift
/// do { _ = try library.fetchPersistentChanges(since: token) }
/// catch PHPhotosError.persistentChangeTokenExpired { refetchEverything() }
/// ```
public struct PHPhotosError: Error, Sendable, Hashable, CustomStringConvertible {
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

    /// The PhotoKit error domain.
    public static let errorDomain = "PHPhotosErrorDomain"

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, for people.
    public let message: String
    /// The local identifiers involved, if any (PhotoKit's `PHLocalIdentifiersErrorKey`).
    public let localIdentifiers: [String]

    /// Creates an error with a code and a message.
    public init(_ code: Code, _ message: String, localIdentifiers: [String] = []) {
        self.code = code
        self.message = message
        self.localIdentifiers = localIdentifiers
    }

    /// PhotoKit's numeric code.
    public var errorCode: Int { code.rawValue }

    /// The code, its name and the message.
    public var description: String { "PHPhotosError \(code.rawValue) (\(code)): \(message)" }

    /// The code to match in `catch PHPhotosError.internalError`.
    public static var internalError: Code { .internalError }
    /// The code to match in `catch PHPhotosError.userCancelled`.
    public static var userCancelled: Code { .userCancelled }
    /// The code to match in `catch PHPhotosError.persistentChangeTokenExpired`.
    public static var persistentChangeTokenExpired: Code { .persistentChangeTokenExpired }
    /// The code to match in `catch PHPhotosError.libraryVolumeOffline`.
    public static var libraryVolumeOffline: Code { .libraryVolumeOffline }
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
    /// The code to match in `catch PHPhotosError.accessRestricted`.
    public static var accessRestricted: Code { .accessRestricted }
    /// The code to match in `catch PHPhotosError.accessUserDenied`.
    public static var accessUserDenied: Code { .accessUserDenied }
}

/// Lets `catch PHPhotosError.someCode` match a thrown `PHPhotosError` with that code, as in PhotoKit.
public func ~= (code: PHPhotosError.Code, error: any Error) -> Bool {
    (error as? PHPhotosError)?.code == code
}
