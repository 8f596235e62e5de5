import Crypto
import Foundation
import GRDB
import PhotosCore

/// A bearer token of the daemon's API, as the library keeps it: never the token itself, only its
/// SHA-256, beside what it allows (``AccessLevel`` and, for `limited`, the albums) and its dates.
///
/// ```swift
/// let (token, secret) = try database.createAccessToken(level: .readOnly, name: "backup")
/// print(secret)  // pht_…: shown once, stored nowhere
/// let found = try database.accessToken(secret: secret)  // token, until it expires or is revoked
/// ```
public struct AccessToken: Sendable, Hashable, Codable {
    /// The token's public name for `photos token revoke` (not the secret).
    public var id: String
    /// What the user called it, if anything.
    public var name: String?
    /// ``AccessLevel``'s raw value.
    public var level: String
    /// For `limited`: the local identifiers of its albums, as a JSON array.
    public var albumList: String
    /// SHA-256 of the secret.
    public var secretHash: Data
    /// Seconds since 1970.
    public var createdAt: Double
    /// Seconds since 1970; nil: never expires.
    public var expiresAt: Double?
    /// When a request last used it (updated at most once a minute), seconds since 1970.
    public var lastUsedAt: Double?
    /// Who made it when it was not a person: `hook:NAME` for a hook's token, which the daemon
    /// replaces at each start.
    public var owner: String?

    /// The level, or nil for one this build does not know (a newer build's): then it allows nothing.
    public var accessLevel: AccessLevel? { AccessLevel(rawValue: level) }

    /// The albums of a `limited` token.
    public var albums: [String] {
        // Every token but a limited one's has none: no decoder made for each request.
        guard albumList != "[]" else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(albumList.utf8))) ?? []
    }

    /// Whether the token has expired at `now`.
    public func isExpired(at now: Date = Date()) -> Bool {
        expiresAt.map { now.timeIntervalSince1970 >= $0 } ?? false
    }

    /// The prefix of every secret: a token is recognisable in a leaked log or config.
    public static let secretPrefix = "pht_"

    /// A new secret: 32 bytes from the system's random source (getrandom), base64url without padding.
    public static func makeSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return secretPrefix + base64URL(bytes)
    }

    /// What the library stores of a secret.
    public static func hash(ofSecret secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A token's row, read and written through the engine-neutral ``StoreConnection``.
extension AccessToken {
    /// The columns of a token's row, in the order ``init(row:)`` reads them and ``values`` gives them.
    static let columnNames = [
        "id", "name", "level", "albumList", "secretHash", "createdAt", "expiresAt", "lastUsedAt", "owner",
    ]

    /// ``columnNames`` as a result list.
    static let columns = SQLText.list(columnNames)

    /// The token whose `secretHash` is the one parameter: what each request's look-up runs.
    static let selectBySecretHash = "SELECT \(columns) FROM accessToken WHERE secretHash = ?"

    /// A token from a row that selected ``columns``.
    init(row: StoreRow) throws {
        id = try row.text(0)
        name = row.optionalText(1)
        level = try row.text(2)
        albumList = try row.text(3)
        secretHash = Data(row.optionalBytes(4) ?? [])
        createdAt = row.optionalDouble(5) ?? 0
        expiresAt = row.optionalDouble(6)
        lastUsedAt = row.optionalDouble(7)
        owner = row.optionalText(8)
    }

    /// The row's values, in the order of ``columns``.
    var values: [SQLValue] {
        [
            .text(id), name.map(SQLValue.text) ?? .null, .text(level), .text(albumList), .blob(Array(secretHash)),
            .double(createdAt), expiresAt.map(SQLValue.double) ?? .null, lastUsedAt.map(SQLValue.double) ?? .null,
            owner.map(SQLValue.text) ?? .null,
        ]
    }
}

extension LibraryDatabase {
    /// The table of access tokens.
    static func registerTokenMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13: access tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accessToken (
                        id TEXT PRIMARY KEY,
                        name TEXT,
                        level TEXT NOT NULL,
                        albumList TEXT NOT NULL DEFAULT '[]',
                        secretHash BLOB NOT NULL UNIQUE,
                        createdAt REAL NOT NULL,
                        expiresAt REAL,
                        lastUsedAt REAL,
                        owner TEXT
                    ) WITHOUT ROWID;
                    """)
        }
    }

    /// Makes a token; returns it and its secret, which is shown once and kept nowhere.
    public func createAccessToken(
        level: AccessLevel, albums: [String] = [], name: String? = nil, expiresAt: Date? = nil, owner: String? = nil,
        now: Date = Date()
    ) throws -> (token: AccessToken, secret: String) {
        let secret = AccessToken.makeSecret()
        var generator = SystemRandomNumberGenerator()
        let id =
            "tok-"
            + (0..<6).map { _ in
                String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator))
            }.joined()
        let albumList = String(decoding: try JSONEncoder().encode(albums), as: UTF8.self)
        let token = AccessToken(
            id: id, name: name, level: level.rawValue, albumList: albumList,
            secretHash: AccessToken.hash(ofSecret: secret), createdAt: now.timeIntervalSince1970,
            expiresAt: expiresAt?.timeIntervalSince1970, lastUsedAt: nil, owner: owner)
        _ = try bookkeeping { db in
            try db.execute(
                SQLText.insert(into: "accessToken", AccessToken.columnNames), token.values)
        }
        return (token, secret)
    }

    /// Every token, oldest first.
    public func accessTokens() throws -> [AccessToken] {
        try read { db in
            try db.rows(
                "SELECT \(AccessToken.columns) FROM accessToken ORDER BY createdAt, id", [], AccessToken.init(row:))
        }
    }

    /// The token whose secret this is, unless it is unknown, revoked or expired at `now`.
    public func accessToken(secret: String, now: Date = Date()) throws -> AccessToken? {
        let hash = AccessToken.hash(ofSecret: secret)
        let token: AccessToken?
        if let lookups {
            do {
                token = try lookups.token(secretHash: hash)
            } catch {
                throw StoreError.wrap(error, path: path)
            }
        } else {
            token = try read { db in
                try db.firstRow(AccessToken.selectBySecretHash, [.blob(Array(hash))], AccessToken.init(row:))
            }
        }
        guard let token, !token.isExpired(at: now) else { return nil }
        return token
    }

    /// The token with this id, unless it is unknown, revoked or expired at `now`: what a stream
    /// opened with it asks before each thing it sends.
    public func accessToken(id: String, now: Date = Date()) throws -> AccessToken? {
        let token = try read { db in
            try db.firstRow(
                "SELECT \(AccessToken.columns) FROM accessToken WHERE id = ?", [.text(id)], AccessToken.init(row:))
        }
        guard let token, !token.isExpired(at: now) else { return nil }
        return token
    }

    /// Records that a request used the token.
    public func touchAccessToken(_ id: String, at now: Date = Date()) throws {
        _ = try bookkeeping { db in
            try db.execute(
                "UPDATE accessToken SET lastUsedAt = ? WHERE id = ?", [.double(now.timeIntervalSince1970), .text(id)])
        }
    }

    /// Revokes (deletes) a token: its secret stops working at once. Throws `notFound` for an unknown id.
    public func revokeAccessToken(_ id: String) throws {
        try bookkeeping { db in
            guard try db.execute("DELETE FROM accessToken WHERE id = ?", [.text(id)]) > 0 else {
                throw StoreError(.notFound, "no token \(id) (see `photos token list`)")
            }
        }
    }

    /// Replaces the albums a `limited` token sees (local identifiers), at once for every request
    /// after this one: a hook's token follows its albums as scans make them. Throws `notFound` for
    /// an unknown id.
    public func setAccessTokenAlbums(_ id: String, albums: [String]) throws {
        let albumList = String(decoding: try JSONEncoder().encode(albums), as: UTF8.self)
        try bookkeeping { db in
            guard
                try db.execute("UPDATE accessToken SET albumList = ? WHERE id = ?", [.text(albumList), .text(id)]) > 0
            else { throw StoreError(.notFound, "no token \(id) (see `photos token list`)") }
        }
    }

    /// Revokes every token made for `owner` (a hook's, when the daemon starts again); returns how many.
    @discardableResult
    public func revokeAccessTokens(owner: String) throws -> Int {
        try bookkeeping { db in
            try db.execute("DELETE FROM accessToken WHERE owner = ?", [.text(owner)])
        }
    }
}

// MARK: What a limited token sees

extension LibraryDatabase {
    /// The albums a limited token may name, as stored: each of `entries` (an album's local
    /// identifier, or a directory album's path) as its album's local identifier; or why not, for
    /// an entry that names no album of the library, or a smart album (whose members a limited
    /// token never sees): the reason `photos token create` and `POST /v1/logins` give.
    public func limitedTokenAlbums(_ entries: [String]) throws -> (identifiers: [String], refusal: String?) {
        let resolved = try resolveAlbums(entries)
        guard resolved.missing.isEmpty else {
            return ([], "no album \(resolved.missing.joined(separator: ", ")) in the library")
        }
        let identifiers = try albumIdentifiers(rowIDs: resolved.ids)
        let smart = Set(SmartAlbum.all.map(\.localIdentifier))
        if let album = identifiers.first(where: smart.contains) {
            return (
                [],
                "\(album) is a smart album: a limited token sees the members of albums of the library or of "
                    + "directories"
            )
        }
        return (identifiers, nil)
    }

    /// The local identifiers of these albums' rows, in order (rows that are gone are left out).
    public func albumIdentifiers(rowIDs: [Int64]) throws -> [String] {
        try read { db in
            try rowIDs.compactMap { id in
                try db.scalarText("SELECT localIdentifier FROM collection WHERE id = ?", [.int(id)])
            }
        }
    }

    /// Whether the asset with this local identifier is a member of one of these albums: one
    /// lookup, not the albums' members.
    public func asset(_ identifier: String, isInAlbums albums: [String]) throws -> Bool {
        guard !albums.isEmpty else { return false }
        return try read { db in
            try db.scalarInt64(
                """
                SELECT EXISTS (SELECT 1 FROM asset
                JOIN collection_asset ON collection_asset.assetId = asset.id
                JOIN collection ON collection.id = collection_asset.collectionId
                WHERE asset.localIdentifier = ? AND collection.isList = 0
                    AND collection.localIdentifier IN (\(db.dialect.elementsOfJSONArray())))
                """, [.text(identifier), .text(JSONText.array(albums))]) ?? 0 != 0
        }
    }

    /// The local identifiers of the assets in these albums (by local identifier) now.
    public func assetIdentifiers(inAlbums albums: [String]) throws -> Set<String> {
        guard !albums.isEmpty else { return [] }
        return try read { db in
            Set(
                try db.rows(
                    """
                    SELECT DISTINCT asset.localIdentifier FROM asset
                    JOIN collection_asset ON collection_asset.assetId = asset.id
                    JOIN collection ON collection.id = collection_asset.collectionId
                    WHERE collection.localIdentifier IN (\(db.dialect.elementsOfJSONArray()))
                    """, [.text(JSONText.array(albums))]
                ) { try $0.text(0) })
        }
    }
}
