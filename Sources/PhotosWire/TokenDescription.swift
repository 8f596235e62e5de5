import Foundation
import PhotosCore

extension API {
    /// An access token as `photos token list --json` shows it: never its secret.
    public struct TokenDescription: Sendable, Codable, Hashable {
        /// What `photos token revoke` takes.
        public var id: String
        /// The name given at `photos token create --name` (a hook's token: `hook NAME`).
        public var name: String?
        /// `read-write`, `read-only`, `add-only` or `limited`.
        public var access: String
        /// The albums of a `limited` token (local identifiers); empty for the others.
        public var albums: [String]
        /// ISO 8601, UTC.
        public var created: String
        /// ISO 8601, UTC; null: never.
        public var expires: String?
        /// ISO 8601, UTC, to the minute; null: never used.
        public var lastUsed: String?
        /// `hook:NAME` for a token photosd made for a hook at its start.
        public var owner: String?
        /// Whether it has expired (an expired token is refused; revoke it to remove it).
        public var expired: Bool

        /// A description with every value given (`PhotosStore` makes one from a stored token).
        public init(
            id: String, name: String?, access: String, albums: [String], created: String, expires: String?,
            lastUsed: String?, owner: String?, expired: Bool
        ) {
            self.id = id
            self.name = name
            self.access = access
            self.albums = albums
            self.created = created
            self.expires = expires
            self.lastUsed = lastUsed
            self.owner = owner
            self.expired = expired
        }
    }

    /// What `photos token create --json` prints: the new token's description and, this once, its
    /// secret under `token`, in one object.
    public struct CreatedToken: Sendable, Codable, Hashable {
        /// The secret to send as `Authorization: Bearer TOKEN`.
        public var token: String
        /// The token as `photos token list` shows it.
        public var stored: TokenDescription

        /// A new token's secret and description.
        public init(token: String, stored: TokenDescription) {
            self.token = token
            self.stored = stored
        }

        private enum CodingKeys: String, CodingKey { case token }

        public init(from decoder: any Decoder) throws {
            token = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .token)
            stored = try TokenDescription(from: decoder)
        }

        /// The description's fields and `token` beside them.
        public func encode(to encoder: any Encoder) throws {
            try stored.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
        }
    }
}
