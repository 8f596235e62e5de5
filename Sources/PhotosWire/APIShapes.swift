import Foundation
import PhotosCore

/// The socket API's own shapes: its errors, and its listings (`{"assets": [...]}`).
public enum API {
    /// The socket photosd serves its API on when neither `--socket` nor the config names one:
    /// `$XDG_RUNTIME_DIR/photosd.sock`, else `/tmp/photosd-UID/photosd.sock`.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String
    {
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
        /// The error itself.
        public struct Detail: Sendable, Codable, Hashable {
            /// A `PHPhotosError` code, or the HTTP status.
            public var code: Int
            /// `PHPhotosErrorDomain` or `HTTP`: what `code` is.
            public var domain: String
            /// What went wrong, for a person.
            public var message: String

            /// An error with every value given.
            public init(code: Int, domain: String, message: String) {
                self.code = code
                self.domain = domain
                self.message = message
            }
        }

        /// The error.
        public var error: Detail

        /// The body of an error with these values.
        public init(code: Int, domain: String, message: String) {
            error = Detail(code: code, domain: domain, message: message)
        }
    }

    /// The version of the API's paths (`/v1/...`), as the OpenAPI document's `info.version` gives it.
    public static let version = "1"

    /// `GET /v1/health`: what a monitor reads when the answer is 200 (a 503 is the API's error,
    /// whose message says why the daemon cannot serve).
    public struct Health: Sendable, Codable, Hashable {
        /// `ok`, or `starting` while the startup scan runs (the library is open and the roots are
        /// watched; the status file is not written yet).
        public var status: String
        /// The newest change-log token.
        public var token: Int64
        /// The library file the daemon serves (a library kept in PostgreSQL: its URL without the
        /// password): `photos` uses the socket only for that library.
        public var library: String?
        /// The daemon's version (``PhotosCore/PhotosVersion/current``).
        public var version: String?
        /// What is wrong without stopping the daemon from serving: a root that is offline while
        /// others are watched.
        public var warnings: [String]?

        /// A health answer with every value given.
        public init(
            status: String, token: Int64, library: String? = nil, version: String? = nil, warnings: [String]? = nil
        ) {
            self.status = status
            self.token = token
            self.library = library
            self.version = version
            self.warnings = warnings
        }
    }

    /// `GET /v1/version`: which photosd answers, and which version of the API it speaks.
    public struct Version: Sendable, Codable, Hashable {
        /// Always `photosd`.
        public var name: String
        /// The daemon's version, `MAJOR.MINOR.PATCH` (what `photosd --version` prints).
        public var version: String
        /// The API's version (``API/version``): the `v1` of the paths.
        public var apiVersion: String

        /// This build's version.
        public static let current = Version(name: "photosd", version: PhotosVersion.current, apiVersion: API.version)
    }

    /// `POST /v1/logins`: a one-time URL that logs a browser in, and the token its session holds.
    public struct Login: Sendable, Codable, Hashable {
        /// The URL to open: it works once, until ``urlExpiresAt``.
        public var url: String
        /// The session's token's public name (`photos token revoke` ends the session).
        public var token: String
        /// The session's access level.
        public var access: String
        /// When the session ends (ISO 8601).
        public var expiresAt: String
        /// When the URL stops working (ISO 8601).
        public var urlExpiresAt: String

        /// A login of `access`, whose `url` holds until `urlExpiresAt` and its session until `expiresAt`.
        public init(url: String, token: String, access: String, expiresAt: String, urlExpiresAt: String) {
            self.url = url
            self.token = token
            self.access = access
            self.expiresAt = expiresAt
            self.urlExpiresAt = urlExpiresAt
        }
    }

    /// `GET /`: what the API is, and where its description and endpoints are.
    public struct Index: Sendable, Codable, Hashable {
        /// Always `photosd`.
        public var name: String
        /// The daemon's version.
        public var version: String
        /// The API's version.
        public var apiVersion: String
        /// The OpenAPI document's path (`/v1/openapi.json`).
        public var openapi: String
        /// Each operation the API serves, `METHOD PATH` with the document's templates
        /// (`GET /v1/assets/{id}`), in the document's order of paths.
        public var endpoints: [String]

        /// An index of `endpoints`.
        public init(endpoints: [String]) {
            let version = Version.current
            name = version.name
            self.version = version.version
            apiVersion = version.apiVersion
            openapi = "/v1/openapi.json"
            self.endpoints = endpoints
        }
    }
}

extension API {
    /// One record of a live query's stream (`POST /v1/queries`): the initial result, one change's
    /// details, a reset, or the error that ended the stream. Positions follow PhotoKit's rules:
    /// `removed` and `moves[].from` before the change, `inserted`, `moves[].to` and `changed` after.
    ///
    /// A query of assets gives `assets` and `asset`; one of albums `albums` and `album`; one of
    /// folders `folders` and `folder`.
    public struct LiveQueryRecord: Sendable, Codable, Hashable {
        /// A whole result: the initial one, or the one a reset replaces everything with.
        public struct Listing: Sendable, Codable, Hashable {
            /// The assets of a query of assets (empty for one of albums or folders).
            public var assets: [AssetDescription]
            /// The albums of a query of albums.
            public var albums: [CollectionDescription]?
            /// The folders of a query of folders.
            public var folders: [CollectionDescription]?
            /// How many objects the result holds.
            public var count: Int
            /// The change token the initial result is as of (not given with a reset: see the record's).
            public var token: Int64?

            private enum CodingKeys: String, CodingKey { case assets, albums, folders, count, token }

            /// Decodes a listing of any kind (`assets` is required only when it is one of assets).
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                albums = try container.decodeIfPresent([CollectionDescription].self, forKey: .albums)
                folders = try container.decodeIfPresent([CollectionDescription].self, forKey: .folders)
                // Required in a query of assets, as before albums and folders could be followed.
                assets =
                    albums == nil && folders == nil
                    ? try container.decode([AssetDescription].self, forKey: .assets) : []
                count = try container.decode(Int.self, forKey: .count)
                token = try container.decodeIfPresent(Int64.self, forKey: .token)
            }

            /// Encodes the listing under its kind's key only.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                if albums == nil && folders == nil { try container.encode(assets, forKey: .assets) }
                try container.encodeIfPresent(albums, forKey: .albums)
                try container.encodeIfPresent(folders, forKey: .folders)
                try container.encode(count, forKey: .count)
                try container.encodeIfPresent(token, forKey: .token)
            }
        }

        /// An object at its position after the change (null when deleted since).
        public struct Placed: Sendable, Codable, Hashable {
            /// The position after the change.
            public var index: Int
            /// The asset there, in a query of assets.
            public var asset: AssetDescription?
            /// The album there, in a query of albums.
            public var album: CollectionDescription?
            /// The folder there, in a query of folders.
            public var folder: CollectionDescription?
        }

        /// An object that moved: from its position before the change to its position after it.
        public struct Move: Sendable, Codable, Hashable {
            /// The position before the change.
            public var from: Int
            /// The position after the change.
            public var to: Int
        }

        /// The result as the query began (the stream's first record).
        public var initial: Listing?
        /// The change this record describes.
        public var token: Int64?
        /// The result's count after the change.
        public var count: Int?
        /// Positions before the change of the objects it removed.
        public var removed: [Int]?
        /// The objects it inserted, at their positions after it.
        public var inserted: [Placed]?
        /// The objects it moved.
        public var moves: [Move]?
        /// The objects it changed, at their positions after it, as they are now.
        public var changed: [Placed]?
        /// The whole result after a change PhotoKit has no incremental details for.
        public var reset: Listing?
        /// The error that ended the stream.
        public var error: ErrorBody.Detail?
    }
}
