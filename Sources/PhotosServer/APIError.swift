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
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method]) -> APIError {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        var error = APIError(.methodNotAllowed, "\(method.rawValue) is not served at \(path); it answers \(names)")
        error.headers[.allow] = names
        return error
    }

    /// What a store or library failure means to a client: an expired token is 410 with 3105, a
    /// library that cannot be read is 503.
    static func from(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        if let error = error as? StoreError, error.code == .historyExpired {
            return APIError(.gone, photos: .persistentChangeTokenExpired, error.message)
        }
        if let error = error as? PHPhotosError {
            return APIError(.serviceUnavailable, photos: error.code, "\(error)")
        }
        return APIError(.internalServerError, "\(error)")
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let bytes = (try? WireJSON.makeEncoder().encode(body)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
