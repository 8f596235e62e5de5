import Foundation
import PhotosCore

/// The socket API's own shapes: its errors, and its listings (`{"assets": [...]}`).
public enum API {
    /// The socket photosd serves its API on when neither `--socket` nor the config names one:
    /// `$XDG_RUNTIME_DIR/photosd.sock`, else `/tmp/photosd-UID/photosd.sock`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return (runtime as NSString).appendingPathComponent("photosd.sock")
        }
        return "/tmp/photosd-\(getuid())/photosd.sock"
    }

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
        /// The library file the daemon serves: `photos` uses the socket only for that library.
        public var library: String?

        public init(status: String, token: Int64, library: String? = nil) {
            self.status = status
            self.token = token
            self.library = library
        }
    }
}

extension API {
    /// One record of a live query's stream (`POST /v1/queries`): the initial result, one change's
    /// details, a reset, or the error that ended the stream. Positions follow PhotoKit's rules:
    /// `removed` and `moves[].from` before the change, `inserted`, `moves[].to` and `changed` after.
    public struct LiveQueryRecord: Sendable, Codable, Hashable {
        /// A whole result: the initial one, or the one a reset replaces everything with.
        public struct Listing: Sendable, Codable, Hashable {
            public var assets: [AssetDescription]
            public var count: Int
            /// The change token the initial result is as of (not given with a reset: see the record's).
            public var token: Int64?
        }

        /// An object at its position after the change.
        public struct Placed: Sendable, Codable, Hashable {
            public var index: Int
            public var asset: AssetDescription?
        }

        public struct Move: Sendable, Codable, Hashable {
            public var from: Int
            public var to: Int
        }

        public var initial: Listing?
        /// The change this record describes.
        public var token: Int64?
        /// The result's count after the change.
        public var count: Int?
        public var removed: [Int]?
        public var inserted: [Placed]?
        public var moves: [Move]?
        public var changed: [Placed]?
        public var reset: Listing?
        public var error: ErrorBody.Detail?
    }
}
