import Foundation
import Photos
import Testing

@testable import PhotosServer

/// The one table of PhotoKit codes to HTTP statuses (``APIError/status(for:)``), and each way a
/// route meets a PhotoKit error answering with it: a refused change, a failed read (through
/// ``APIError/from(_:)``, as the error middleware, the listings and the streams do) and a
/// thumbnail that cannot be made.
@Suite struct APIErrorTests {
    static let expected: [PHPhotosError.Code: Int] = [
        .identifierNotFound: 404, .changeNotSupported: 409, .multipleIdentifiersFound: 409,
        .invalidResource: 422, .missingResource: 422, .requestNotSupportedForAsset: 422, .limitExceeded: 422,
        .accessRestricted: 403, .accessUserDenied: 403, .notEnoughSpace: 507,
        .libraryVolumeOffline: 503, .operationInterrupted: 503, .relinquishingLibraryBundleToWriter: 503,
        .switchingSystemPhotoLibrary: 503, .persistentChangeTokenExpired: 410,
        .internalError: 500, .userCancelled: 500, .networkAccessRequired: 500, .networkError: 500,
        .persistentChangeDetailsUnavailable: 500,
    ]

    /// The same code with SQLite's error under it: the library file itself failing.
    static func storeFailure(_ code: PHPhotosError.Code) -> PHPhotosError {
        PHPhotosError(
            code, "why", userInfo: [NSUnderlyingErrorKey: NSError(domain: PHPhotosError.sqliteErrorDomain, code: 11)])
    }

    @Test func theTableHasARowForEveryPhotoKitCode() {
        #expect(Set(Self.expected.keys) == Set(PHPhotosError.Code.allCases))
    }

    @Test(arguments: PHPhotosError.Code.allCases)
    func aRefusedChangeHasItsCodesStatus(code: PHPhotosError.Code) {
        #expect(APIError.status(for: code).code == Self.expected[code], "\(code)")
        let error = APIError.refusedChange(PHPhotosError(code, "why"), where: "changes[3] (op): ")
        #expect(error.status.code == Self.expected[code])
        #expect(error.body.error.code == code.rawValue)
        #expect(error.body.error.message == "changes[3] (op): why")
        // The library file failing under the code: unavailable (or full), whatever the code.
        #expect(
            APIError.refusedChange(Self.storeFailure(code), where: "").status.code
                == (code == .notEnoughSpace ? 507 : 503))
    }

    @Test(arguments: PHPhotosError.Code.allCases)
    func aFailedReadAnswersTheSameStatusAsAChange(code: PHPhotosError.Code) {
        // As the error middleware meets it: any error, whose type is found at run time.
        let thrown: any Error = PHPhotosError(code, "why")
        let error = APIError.from(thrown)
        #expect(error.status.code == Self.expected[code], "\(code)")
        #expect(error.body.error.code == code.rawValue)
        #expect(error.body.error.domain == PHPhotosError.errorDomain)
        #expect(error.body.error.message.contains("why"))
        #expect(APIError.from(Self.storeFailure(code)).status.code == (code == .notEnoughSpace ? 507 : 503))
    }

    @Test(arguments: PHPhotosError.Code.allCases)
    func aThumbnailThatCannotBeMadeAnswersTheTablesStatusButAGoneFileIs404(code: PHPhotosError.Code) {
        let error = ThumbnailRoutes.error(PHPhotosError(code, "why"))
        #expect(error.status.code == (code == .missingResource ? 404 : Self.expected[code]), "\(code)")
        #expect(error.body.error.code == code.rawValue)
        if code != .missingResource, code != .notEnoughSpace {
            #expect(ThumbnailRoutes.error(Self.storeFailure(code)).status.code == 503, "\(code)")
        }
    }
}
