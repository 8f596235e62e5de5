import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosStore
import PhotosWire

/// A request the API refuses or cannot serve: an HTTP status and the `{"error": ...}` body
/// (``API/ErrorBody``). Every route throws these; nothing else reaches the client.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var body: API.ErrorBody
    /// Headers the answer carries beside the body (`Allow` with a 405).
    var headers: HTTPFields = [:]

    /// An error with the HTTP status as its code.
    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        body = API.ErrorBody(code: status.code, domain: "HTTP", message: message)
    }

    /// A PhotoKit error, with its code, under `status`.
    init(_ status: HTTPResponse.Status, photos code: PHPhotosError.Code, _ message: String) {
        self.status = status
        body = API.ErrorBody(code: code.rawValue, domain: PHPhotosError.errorDomain, message: message)
    }

    /// A 405 for a path served with other methods, which the `Allow` header lists.
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method]) -> APIError
    {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        var error = APIError(.methodNotAllowed, "\(method.rawValue) is not served at \(path); it answers \(names)")
        error.headers[.allow] = names
        return error
    }

    /// What a store or library failure means to a client: an expired token is 410 with 3105; a
    /// PhotoKit error keeps its code, under the status ``status(of:)`` gives it; anything else is 500.
    static func from(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? StoreError, error.code == .historyExpired {
            return APIError(.gone, photos: .persistentChangeTokenExpired, error.message)
        }
        if let error = error as? PHPhotosError {
            return APIError(status(of: error), photos: error.code, "\(error)")
        }
        return APIError(.internalServerError, "\(error)")
    }

    /// A change the library refused: PhotoKit's code, under the status ``status(of:)`` gives it;
    /// `prefix` names the operation when one is known.
    static func refusedChange(_ error: PHPhotosError, where prefix: String) -> APIError {
        APIError(status(of: error), photos: error.code, prefix + error.message)
    }

    /// The HTTP status of a PhotoKit error, wherever a route meets one (a change, a listing, a
    /// thumbnail): its code's, from ``status(for:)``, except that a failure of the library file
    /// itself (SQLite's error under PhotoKit's: a damaged page is 3302, as a damaged resource is)
    /// is the library being unavailable, not the request being wrong: 503, or 507 for a full disk,
    /// whatever the code.
    static func status(of error: PHPhotosError) -> HTTPResponse.Status {
        let underlying = error.underlyingError as? NSError
        if underlying?.domain == PHPhotosError.sqliteErrorDomain, error.code != .notEnoughSpace {
            return .serviceUnavailable
        }
        return status(for: error.code)
    }

    /// The HTTP status of each PhotoKit code: the one table the API answers PhotoKit's errors with.
    ///
    /// | PhotoKit code | status |
    /// |---|---|
    /// | `identifierNotFound` (3201) | 404 |
    /// | `changeNotSupported` (3300), `multipleIdentifiersFound` (3202) | 409 |
    /// | `invalidResource` (3302), `missingResource` (3303), `requestNotSupportedForAsset` (3306) | 422 |
    /// | `limitExceeded` (3307) | 422 |
    /// | `accessRestricted` (3310), `accessUserDenied` (3311) | 403 |
    /// | `notEnoughSpace` (3305) | 507 |
    /// | `libraryVolumeOffline` (3114), `operationInterrupted` (3301) | 503 |
    /// | the library being handed over (3142, 3143) | 503 |
    /// | `persistentChangeTokenExpired` (3105) | 410 |
    /// | anything else (`internalError`) | 500 |
    static func status(for code: PHPhotosError.Code) -> HTTPResponse.Status {
        switch code {
        case .identifierNotFound: .notFound
        case .changeNotSupported, .multipleIdentifiersFound: .conflict
        case .invalidResource, .missingResource, .requestNotSupportedForAsset, .limitExceeded: .unprocessableContent
        case .accessRestricted, .accessUserDenied: .forbidden
        case .notEnoughSpace: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .libraryVolumeOffline, .operationInterrupted, .relinquishingLibraryBundleToWriter,
            .switchingSystemPhotoLibrary:
            .serviceUnavailable
        case .persistentChangeTokenExpired: .gone
        case .internalError, .userCancelled, .networkAccessRequired, .networkError,
            .persistentChangeDetailsUnavailable:
            .internalServerError
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let bytes = (try? WireJSON.makeEncoder().encode(body)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
