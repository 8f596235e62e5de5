import Foundation
import PhotosWire

extension API.TokenDescription {
    /// The description of a stored token: never its secret.
    public init(_ token: AccessToken, now: Date = Date()) {
        let utc = { (seconds: Double) in ISO8601.string(Date(timeIntervalSince1970: seconds), offset: 0) }
        self.init(
            id: token.id, name: token.name, access: token.level, albums: token.albums, created: utc(token.createdAt),
            expires: token.expiresAt.map(utc), lastUsed: token.lastUsedAt.map(utc), owner: token.owner,
            expired: token.isExpired(at: now))
    }
}
