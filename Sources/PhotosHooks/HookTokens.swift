import Logging
import PhotosCore
import PhotosStore
import Synchronization

/// The API tokens photosd gives its exec hooks, in `PHOTOS_SOCKET` and `PHOTOS_TOKEN`: one per
/// enabled hook, at the level its `access` key names, made anew at each start.
///
/// A `limited` hook's token sees the albums its `albums` key names. Those that are no album when
/// photosd starts (a directory the first scan has not reached) are logged, and the token covers
/// the others; before each run the hook's albums are resolved again and the token follows them, so
/// an album that a scan makes is seen from the hook's next run on. A token none of whose albums
/// exists yet sees nothing (empty listings, 404 for any asset or album) until one does.
///
/// ```swift
/// let tokens = try HookTokens.mint(for: hooks, socketPath: socket, database: database, logger: logger)
/// let runner = HookRunner(hooks: hooks, database: database, libraryPath: path, logger: logger, tokens: tokens)
/// ```
public final class HookTokens: Sendable {
    /// One hook's token.
    public struct Token: Sendable, Hashable {
        /// The stored token's id (`photos token list`).
        public var id: String
        /// What the hook sends as `Authorization: Bearer`.
        public var secret: String
        /// For a limited token: the local identifiers of the albums it sees now.
        public var albums: [String]
    }

    /// The socket the hooks are told about; empty when the API is off (no tokens then).
    public let socketPath: String
    /// Each hook's token, by hook name.
    private let tokens: Mutex<[String: Token]>

    /// No tokens: hooks get no `PHOTOS_SOCKET` nor `PHOTOS_TOKEN`.
    public convenience init() {
        self.init(socketPath: "", tokens: [:])
    }

    init(socketPath: String, tokens: [String: Token]) {
        self.socketPath = socketPath
        self.tokens = Mutex(tokens)
    }

    /// Revokes the tokens earlier starts made for hooks (owner `hook:NAME`) and makes one per
    /// enabled exec hook of `hooks`, at its `access` level; none when `socketPath` is empty (the
    /// API is off). A webhook is given no token: it runs no program that could send one.
    ///
    /// `hooks` have their albums resolved as ``HookDefinition/albums`` holds them after the config
    /// is checked against the library: local identifiers, or directories that are no album yet.
    public static func mint(
        for hooks: [HookDefinition], socketPath: String, database: LibraryDatabase, logger: Logger
    ) throws -> HookTokens {
        for token in try database.accessTokens() where token.owner?.hasPrefix("hook:") == true {
            try database.revokeAccessToken(token.id)
        }
        guard !socketPath.isEmpty else { return HookTokens() }
        var tokens: [String: Token] = [:]
        for hook in hooks where hook.enabled && hook.url == nil {
            tokens[hook.name] = try make(for: hook, database: database, logger: logger)
        }
        if !tokens.isEmpty { logger.debug("hook tokens made", metadata: ["hooks": "\(tokens.count)"]) }
        return HookTokens(socketPath: socketPath, tokens: tokens)
    }

    /// Brings the tokens up to `hooks` after a reload of the configuration: the tokens of the hooks
    /// named in `renew` (added or changed: their level or albums may differ) and of hooks no longer
    /// in `hooks` are revoked, and the enabled exec hooks named in `renew` get new ones. Nothing
    /// when the API is off.
    public func reissue(
        for hooks: [HookDefinition], renew: Set<String>, database: LibraryDatabase, logger: Logger
    ) throws {
        guard !socketPath.isEmpty else { return }
        let configured = Set(hooks.filter(\.enabled).map(\.name))
        let stale = tokens.withLock { tokens in
            tokens.filter { renew.contains($0.key) || !configured.contains($0.key) }
        }
        for (name, token) in stale {
            try database.revokeAccessToken(token.id)
            tokens.withLock { _ = $0.removeValue(forKey: name) }
        }
        for hook in hooks where hook.enabled && hook.url == nil && renew.contains(hook.name) {
            let token = try Self.make(for: hook, database: database, logger: logger)
            tokens.withLock { $0[hook.name] = token }
        }
    }

    /// A new token for `hook`, of the level its `access` names.
    private static func make(for hook: HookDefinition, database: LibraryDatabase, logger: Logger) throws -> Token {
        var albums: [String] = []
        if hook.access == .limited {
            let missing: [String]
            (albums, missing) = try resolve(hook.albums, in: database)
            if !missing.isEmpty {
                logger.warning(
                    albums.isEmpty
                        ? "none of the hook's albums is an album yet: its limited token sees nothing until one is"
                        : "some of the hook's albums are no album yet: its limited token sees them once they are",
                    metadata: ["hook": "\(hook.name)", "albums": "\(missing.joined(separator: ", "))"])
            }
        }
        let (token, secret) = try database.createAccessToken(
            level: hook.access, albums: albums, name: "hook \(hook.name)", owner: "hook:\(hook.name)")
        return Token(id: token.id, secret: secret, albums: albums)
    }

    /// The hook's token, if it has one.
    public func token(for hook: String) -> Token? {
        tokens.withLock { $0[hook] }
    }

    /// `PHOTOS_SOCKET` and `PHOTOS_TOKEN` for the hook; empty when it has no token.
    public func environment(for hook: String) -> [String: String] {
        guard let token = token(for: hook) else { return [:] }
        return ["PHOTOS_SOCKET": socketPath, "PHOTOS_TOKEN": token.secret]
    }

    /// Brings a limited hook's token up to its albums as the library has them now, before a run.
    /// Returns the albums the token sees when they changed, nil when they did not (or the hook's
    /// token is not limited). Blocking store reads, and a write only on a change.
    public func refreshAlbums(of hook: HookDefinition, in database: LibraryDatabase) throws -> [String]? {
        guard hook.access == .limited, let token = token(for: hook.name) else { return nil }
        let (albums, _) = try Self.resolve(hook.albums, in: database)
        guard albums != token.albums else { return nil }
        try database.setAccessTokenAlbums(token.id, albums: albums)
        tokens.withLock { $0[hook.name]?.albums = albums }
        return albums
    }

    /// The local identifiers of the albums `entries` name now, and the entries that name none.
    static func resolve(_ entries: [String], in database: LibraryDatabase) throws
        -> (albums: [String], missing: [String])
    {
        let resolved = try database.resolveAlbums(entries)
        var albums: [String] = []
        // A directory and the album's identifier may both be named: one album.
        for album in try database.albumIdentifiers(rowIDs: resolved.ids) where !albums.contains(album) {
            albums.append(album)
        }
        return (albums, resolved.missing)
    }
}
