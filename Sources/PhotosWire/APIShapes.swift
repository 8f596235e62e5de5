import Foundation
import PhotosCore

/// The socket API's own shapes: its errors, and its listings (`{"assets": [...]}`).
public enum API {
    /// `{"error": {"code", "domain", "message"}}`: what every failed request answers.
    ///
    /// `code` is a `PHPhotosError` code where PhotoKit has one (3105 for an expired token), else the
    /// HTTP status; `domain` says which (`PHPhotosErrorDomain` or `HTTP`).
    public struct ErrorBody: Sendable, Codable, Hashable {
        public struct Detail: Sendable, Codable, Hashable {
            public var code: Int
            public var domain: String
            public var message: String

            public init(code: Int, domain: String, message: String) {
                self.code = code
                self.domain = domain
                self.message = message
            }
        }

        public var error: Detail

        public init(code: Int, domain: String, message: String) {
            error = Detail(code: code, domain: domain, message: message)
        }
    }

    /// `GET /v1/health`.
    public struct Health: Sendable, Codable, Hashable {
        /// `ok`, or `unavailable` when the library cannot be used now.
        public var status: String
        /// The newest change-log token.
        public var token: Int64

        public init(status: String, token: Int64) {
            self.status = status
            self.token = token
        }
    }
}
