import Foundation
import PhotosCore

extension API {
    /// A deleted asset in Recently Deleted, its files and where each is in the Trash: a line of
    /// `photos trash list --json`, an element of `GET /v1/trash`.
    ///
    /// ```json
    /// {"localIdentifier": "…/L0/001", "deletionDate": "2026-11-28T22:00:00+00:00",
    ///  "files": [{"path": "/home/me/Pictures/IMG_1.JPG",
    ///             "trashPath": "/home/me/.local/share/Trash/files/IMG_1.JPG"}]}
    /// ```
    public struct TrashedAsset: Sendable, Codable, Hashable {
        /// One file of the asset.
        public struct File: Sendable, Codable, Hashable {
            /// Where the file was, and goes back to when the asset is restored.
            public var path: String
            /// Where it is in the Trash (its trash's `files/`); absent while the deletion has not moved
            /// it there yet.
            public var trashPath: String?

            /// A file with every value given.
            public init(path: String, trashPath: String?) {
                self.path = path
                self.trashPath = trashPath
            }
        }

        /// The asset's local identifier, the one it has again when restored.
        public var localIdentifier: String
        /// When it was deleted (ISO 8601, UTC).
        public var deletionDate: String
        /// Its files, in the order they were trashed.
        public var files: [File]

        /// A trashed asset with every value given.
        public init(localIdentifier: String, deletionDate: String, files: [File]) {
            self.localIdentifier = localIdentifier
            self.deletionDate = deletionDate
            self.files = files
        }
    }

    /// `GET /v1/trash`: every asset in Recently Deleted, the latest deletion first.
    public struct TrashListing: Sendable, Codable, Hashable {
        /// The trashed assets.
        public var assets: [TrashedAsset]

        /// A listing of these assets.
        public init(assets: [TrashedAsset]) {
            self.assets = assets
        }
    }

    /// The body of `POST /v1/trash/restore` (`identifiers` required, at least one) and of
    /// `POST /v1/trash/empty` (`identifiers` absent: every trashed asset).
    public struct TrashRequest: Sendable, Codable, Hashable {
        /// The trashed assets' local identifiers.
        public var identifiers: [String]?
        /// Say what would be done; change nothing.
        public var dryRun: Bool?

        /// A request with every value given.
        public init(identifiers: [String]?, dryRun: Bool? = nil) {
            self.identifiers = identifiers
            self.dryRun = dryRun
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case identifiers, dryRun
        }

        /// Strict: a field it does not know is refused, never skipped (a misspelt `identifiers`
        /// would otherwise make an emptying of some trashed assets an emptying of all of them).
        public init(from decoder: any Decoder) throws {
            try StrictFields.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue), in: "a trash request")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            identifiers = try container.decodeIfPresent([String].self, forKey: .identifiers)
            dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun)
        }
    }

    /// What `POST /v1/trash/restore` or `POST /v1/trash/empty` did (or, with `dryRun`, would do),
    /// asset by asset.
    public struct TrashResult: Sendable, Codable, Hashable {
        /// One asset and its files: for a restore, the paths its files went back to; for an empty,
        /// the files erased from the Trash (none when nothing of it was left there).
        public struct Asset: Sendable, Codable, Hashable {
            /// The asset's local identifier.
            public var localIdentifier: String
            /// Its files' paths.
            public var files: [String]

            /// An asset with every value given.
            public init(localIdentifier: String, files: [String]) {
                self.localIdentifier = localIdentifier
                self.files = files
            }
        }

        /// An asset a restore could not bring back: it stays in Recently Deleted.
        public struct Failure: Sendable, Codable, Hashable {
            /// The asset's local identifier.
            public var localIdentifier: String
            /// The file that could not go back, where it was to go.
            public var path: String?
            /// Where that file is in the Trash.
            public var trashPath: String?
            /// Why, as the API's errors say it (a `PHPhotosError` code, its domain, the message).
            public var error: ErrorBody.Detail

            /// A failure with every value given.
            public init(localIdentifier: String, path: String?, trashPath: String?, error: ErrorBody.Detail) {
                self.localIdentifier = localIdentifier
                self.path = path
                self.trashPath = trashPath
                self.error = error
            }
        }

        /// Whether nothing was done (the request's `dryRun`).
        public var dryRun: Bool
        /// The assets, in the order they were handled.
        public var assets: [Asset]
        /// Restore: the identifiers named that were not in Recently Deleted because they are in the
        /// library (restored already: a restore that stopped, another tool, the scan); absent when none.
        public var alreadyRestored: [String]?
        /// Restore: the assets that could not come back (a file taking a path after the restore
        /// checked it), each with why; absent when none. The others were restored.
        public var failed: [Failure]?

        /// A result with every value given.
        public init(dryRun: Bool, assets: [Asset], alreadyRestored: [String]? = nil, failed: [Failure]? = nil) {
            self.dryRun = dryRun
            self.assets = assets
            self.alreadyRestored = alreadyRestored
            self.failed = failed
        }

        /// A result from what the library handled: each asset's identifier and its files' paths.
        public init(dryRun: Bool, handled: [(String, [String])]) {
            self.init(dryRun: dryRun, assets: handled.map { Asset(localIdentifier: $0.0, files: $0.1) })
        }
    }

    /// The answer of `POST /v1/trash/restore` when an asset could not come back: the API's error
    /// (``ErrorBody``, the first failure's) with what the restore did all the same, `result`.
    ///
    /// ```json
    /// {"error": {"code": 3310, "domain": "PHPhotosErrorDomain", "message": "cannot restore …"},
    ///  "result": {"dryRun": false, "assets": [{"localIdentifier": "…/L0/001", "files": ["…"]}],
    ///             "failed": [{"localIdentifier": "…/L0/002", "path": "…", "error": {…}}]}}
    /// ```
    public struct TrashRestoreFailure: Sendable, Codable, Hashable {
        /// The first failure, as every error of the API is said.
        public var error: ErrorBody.Detail
        /// The assets restored, those restored already, and every failure.
        public var result: TrashResult

        /// A failure with every value given.
        public init(error: ErrorBody.Detail, result: TrashResult) {
            self.error = error
            self.result = result
        }
    }
}
