import PhotosCore
import PhotosStore

/// One hook as the config file declares it (a `[[hooks]]` table), validated: an exec hook (a
/// `command`) or a webhook (a `url` POSTed to, `secret` signing it, `ca_file` trusted for https),
/// never both.
///
/// ```toml
/// [[hooks]]
/// name = "backup-favorites"
/// command = ["/home/me/bin/backup", "--to", "/mnt/backup"]
/// objects = ["asset"]
/// changes = ["inserted", "updated"]
/// predicate = "favorite == YES AND mediaType == 1"
/// albums = ["/home/me/Pictures/Family"]
/// ```
public struct HookDefinition: Sendable, Hashable {
    /// What happened to an object, as a hook's `changes` filter names it.
    public typealias ChangeKind = ChangeScope.ChangeKind

    /// Unique among the hooks; `[a-z0-9-]`, at most 64 characters. The hook's cursor is kept under it.
    public var name: String
    /// The program and its arguments (argv: no shell unless the hook names one); empty for a webhook.
    public var command: [String]
    /// A webhook's URL: the payload is POSTed there instead of given to a program.
    public var url: WebhookURL?
    /// What a webhook signs its bodies with (`X-Photos-Signature`); none sends no signature.
    public var secret: WebhookSecret?
    /// The authorities an https webhook's server certificate is checked against instead of the
    /// system's store (`ca_file`); nil trusts the system's.
    public var caFile: WebhookCAFile?
    /// The object types the hook is told about (`asset`, `assetCollection`, `collectionList`).
    public var objects: Set<PHObjectType> = Set(PHObjectType.allCases)
    /// The kinds of change the hook is told about.
    public var changes: Set<ChangeKind> = Set(ChangeKind.allCases)
    /// A PhotoKit predicate format that assets must match (deleted assets are matched on their last description).
    public var predicate: String?
    /// Only assets in these albums: each a directory path or an album's local identifier.
    public var albums: [String] = []
    /// The most objects in one run.
    public var batch: Int = 500
    /// How long to wait for more changes before a run.
    public var settle: Duration = .zero
    /// How long a run may take; then SIGTERM, and SIGKILL 5 s later (a webhook's POST: then it is abandoned).
    public var timeout: Duration = .seconds(60)
    /// Failed runs in a row after which the hook is parked until `photos hooks resume`.
    public var maxFailures: Int = 5
    /// How much lower than the daemon's the hook's scheduling priority is: added to the daemon's
    /// nice value for the hook and what it starts (at most 19 in all). A busy hook (a thumbnailer,
    /// a face tagger) then takes the CPU only when ingest leaves it; on an idle machine it runs as fast.
    public var nice: Int = 10
    /// A disabled hook does not run and does not hold history back.
    public var enabled: Bool = true
    /// The level of the API token the hook is given in `PHOTOS_TOKEN` (`access`): read-only by
    /// default; read-write, add-only or limited when the config says so. A limited token sees and
    /// changes only the assets of the hook's ``albums`` (the config requires some).
    public var access: AccessLevel = .readOnly

    /// A hook with the defaults for everything but its name and command.
    public init(name: String, command: [String]) {
        self.name = name
        self.command = command
    }

    /// A webhook with the defaults for everything but its name, URL and secret.
    public init(name: String, url: WebhookURL, secret: WebhookSecret? = nil) {
        self.name = name
        self.command = []
        self.url = url
        self.secret = secret
    }
}

extension HookDefinition {
    /// What the hook is told of: its ``objects``, ``changes``, ``predicate`` and ``albums``, the
    /// albums bounding assets only (a hook is told of every album and folder its objects name).
    public var scope: ChangeScope {
        ChangeScope(objects: objects, kinds: changes, predicate: predicate, albums: albums, bound: .assets)
    }

    /// The hook's scope over `database`, its predicate compiled; throws ``HookError`` naming what
    /// is wrong with the predicate. Its albums are looked up at each batch: a directory that
    /// becomes an album later (the daemon's first scan of a new library) counts from then on.
    public func selector(in database: LibraryDatabase) throws -> ChangeScope.Selector {
        try validate()
        return try scope.selector(in: database)
    }

    /// Throws ``HookError`` when the hook's predicate does not compile.
    public func validate() throws {
        do {
            _ = try scope.compiledPredicate()
        } catch {
            throw HookError(hook: name, "predicate \"\(predicate ?? "")\": \(error.message)")
        }
    }
}
