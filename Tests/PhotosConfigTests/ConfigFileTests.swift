import Foundation
import PhotosConfig
import PhotosCore
import PhotosHooks
import PhotosStore
import PhotosTestSupport
import Testing

@Suite struct ConfigFileTests {
    @Test func readsEveryKey() throws {
        let config = try ConfigFile.parse(
            """
            # photosd
            library = "/srv/photos/library.sqlite"   # where the library lives
            roots = [
                "/home/me/Pictures",
                '/mnt/camera # not a comment',
            ]
            ignore = ["*.xmp", "@eaDir"]
            settle_ms = 1_000
            poll_interval_s = 120
            time_zone = "Europe/Paris"
            hook_history_limit = 50_000
            socket = "/run/user/1000/photosd.sock"
            thumbnail_sizes = [256, 512, 256]
            thumbnail_cache_mb = 0
            decode_memory_mb = 128
            socket_optional = true
            listen_optional = true
            """)
        #expect(config.library == "/srv/photos/library.sqlite")
        #expect(config.roots == ["/home/me/Pictures", "/mnt/camera # not a comment"])
        #expect(config.ignore == ["*.xmp", "@eaDir"])
        #expect(config.settleMilliseconds == 1000 && config.pollIntervalSeconds == 120)
        #expect(config.timeZone == "Europe/Paris")
        #expect(config.hookHistoryLimit == 50_000)
        #expect(config.socket == "/run/user/1000/photosd.sock")
        #expect(config.thumbnailSizes == [256, 512], "each size once")
        #expect(config.thumbnailCacheMegabytes == 0)
        #expect(config.decodeMemoryMegabytes == 128)
        #expect(config.socketOptional && config.listenOptional)
        #expect(config.hooks.isEmpty)
    }

    @Test func rootsAreDirectoriesOrTablesWithWhatTheLibraryMayWrite() throws {
        let inline = try ConfigFile.parse(
            """
            roots = [
                "/home/me/Pictures/",
                { path = "/mnt/camera", write = "sidecars" },
                { path = "/srv/photos", write = "files" },
                { path = "/srv/scans" },
            ]
            """)
        #expect(
            inline.libraryRoots == [
                LibraryRoot(path: "/home/me/Pictures", write: .none),
                LibraryRoot(path: "/mnt/camera", write: .sidecars),
                LibraryRoot(path: "/srv/photos", write: .files), LibraryRoot(path: "/srv/scans", write: .none),
            ])
        #expect(inline.roots == ["/home/me/Pictures", "/mnt/camera", "/srv/photos", "/srv/scans"], "standardized")
        let tables = try ConfigFile.parse(
            """
            library = "/srv/photos/library.sqlite"

            [[roots]]
            path = "/srv/photos"
            write = "files"

            [[roots]]
            path = "/srv/photos/Archive"
            """)
        #expect(
            tables.libraryRoots == [
                LibraryRoot(path: "/srv/photos", write: .files), LibraryRoot(path: "/srv/photos/Archive", write: .none),
            ])
        let roots = LibraryRoots(tables.libraryRoots)
        #expect(roots.policy(for: "/srv/photos/2024/a.jpg") == .files)
        #expect(roots.policy(for: "/srv/photos/Archive/b.jpg") == .none, "the innermost root decides")
        #expect(roots.policy(for: "/srv/photosynth/c.jpg") == .none, "a name that only starts like a root")
        #expect(roots.root(of: "/srv/photos")?.write == .files, "the root itself")
    }

    @Test func anEmptyFileGivesNoValues() throws {
        let config = try ConfigFile.parse("# nothing here\n")
        #expect(config.library == nil && config.roots.isEmpty && config.ignore.isEmpty)
        #expect(config.settleMilliseconds == nil && config.pollIntervalSeconds == nil && config.timeZone == nil)
        #expect(config.hookHistoryLimit == nil && config.hooks.isEmpty)
        #expect(!config.socketOptional && !config.listenOptional, "a listener is required unless marked optional")
    }

    @Test func aHookTakesEveryAccessLevelAndALimitedOneItsAlbums() throws {
        let config = try ConfigFile.parse(
            Self.twoHooks + """
                name = "tagger"
                command = ["/x"]
                access = "limited"
                albums = ["/home/me/Pictures/Family", "2F1D4C1E-7E1B-4C0C-9E7B-3C7E2A1B0C11/L0/040"]
                """)
        #expect(config.hooks.map(\.access) == [.readOnly, .limited], "read-only unless the config says")
        #expect(config.hooks[1].albums == ["/home/me/Pictures/Family", "2F1D4C1E-7E1B-4C0C-9E7B-3C7E2A1B0C11/L0/040"])
        for level in ["read-only", "read-write", "add-only"] {
            let hook = try ConfigFile.parse(Self.second + "access = \"\(level)\"").hooks[1]
            #expect(hook.access.rawValue == level && hook.albums.isEmpty)
        }
    }

    @Test func twoHooksParseToTheirDefinitions() throws {
        let config = try ConfigFile.parse(
            """
            roots = ["/home/me/Pictures"]

            [[hooks]]
            name = "backup-favorites"                # unique
            command = ["/home/me/bin/backup", "--to", "/mnt/backup"]
            objects = ["asset"]
            changes = ["inserted", "updated"]
            predicate = "favorite == YES AND mediaType == 1"
            albums = ["/home/me/Pictures/Family", "2F1D4C1E-7E1B-4C0C-9E7B-3C7E2A1B0C11/L0/040"]
            batch = 50
            settle_ms = 250
            timeout_s = 30
            max_failures = 3
            nice = 0
            enabled = false

            [[hooks]]
            name = "log-2"
            command = ["/bin/sh", "-c", "cat >> /tmp/log"]
            """)
        var backup = HookDefinition(name: "backup-favorites", command: ["/home/me/bin/backup", "--to", "/mnt/backup"])
        backup.objects = [.asset]
        backup.changes = [.inserted, .updated]
        backup.predicate = "favorite == YES AND mediaType == 1"
        backup.albums = ["/home/me/Pictures/Family", "2F1D4C1E-7E1B-4C0C-9E7B-3C7E2A1B0C11/L0/040"]
        backup.batch = 50
        backup.settle = .milliseconds(250)
        backup.timeout = .seconds(30)
        backup.maxFailures = 3
        backup.nice = 0
        backup.enabled = false
        let log = HookDefinition(name: "log-2", command: ["/bin/sh", "-c", "cat >> /tmp/log"])
        #expect(config.hooks == [backup, log])
        #expect(config.roots == ["/home/me/Pictures"], "top-level keys before the first table stay top-level")
        // The defaults a hook gets for what it leaves out.
        #expect(log.objects == [.asset, .assetCollection, .collectionList])
        #expect(log.changes == [.inserted, .updated, .deleted])
        #expect(log.predicate == nil && log.albums.isEmpty && log.batch == 500 && log.settle == .zero)
        #expect(log.timeout == .seconds(60) && log.maxFailures == 5 && log.nice == 10 && log.enabled)
    }

    /// Two hooks that parse; the bad configs below add lines to the second one, from line 8 on.
    static let twoHooks = """
        roots = ["/p"]

        [[hooks]]
        name = "first"
        command = ["/bin/true"]

        [[hooks]]

        """

    /// The two hooks, the second with a name and a command; what follows starts on line 10.
    static let second = twoHooks + "name = \"second\"\ncommand = [\"/x\"]\n"

    /// The two hooks, the second a webhook; what follows starts on line 10.
    static let webhook = twoHooks + "name = \"second\"\nurl = \"http://127.0.0.1:8080/photos\"\n"
    /// The two hooks, the second an https webhook; what follows starts on line 10.
    static let httpsWebhook = twoHooks + "name = \"second\"\nurl = \"https://photos.example.net/hook\"\n"

    static let hookKeys =
        "known: name, command, objects, changes, predicate, albums, batch, settle_ms, timeout_s, max_failures, nice, enabled, "
        + "access, url, secret, secret_file, ca_file"
    static let topKeys =
        "known: library, roots, ignore, settle_ms, poll_interval_s, time_zone, hook_history_limit, socket, hooks, listen, "
        + "thumbnail_sizes, thumbnail_cache_mb, decode_memory_mb, trash_days, socket_optional, listen_optional, imports"

    static let limitedWithoutAlbums =
        "\"limited\" sees only the assets of the hook's albums: name them, e.g. "
        + "albums = [\"/home/me/Pictures/Family\"] (album directories or local identifiers)"

    /// Bad configs and the exact error each gives.
    static let rejected: [(text: String, code: ConfigError.Code, message: String)] = [
        // The keys photosd had before hooks.
        ("colour = \"red\"", .unknownKey, "config.toml:1: colour: unknown key (\(topKeys))"),
        (
            "roots = \"/home\"", .wrongType,
            "config.toml:1: roots: must be an array of directories, each a string or a table (path, write), not a string"
        ),
        (
            "roots = [\"/a\", 2]", .wrongType,
            "config.toml:1: roots: must be an array of directories, each a string or a table (path, write), but item 2 is an integer"
        ),
        (
            "roots = [\"Pictures\"]", .invalidValue,
            "config.toml:1: roots[0]: must be an absolute directory, not \"Pictures\""
        ),
        (
            "[[roots]]\npath = \"/p\"\nwrite = \"all\"", .invalidValue,
            "config.toml:3: roots[0].write: must be one of \"none\", \"sidecars\", \"files\", not \"all\""
        ),
        (
            "[[roots]]\nwrite = \"files\"", .missingKey,
            "config.toml:1: roots[0].path: missing: a root table needs the directory's path"
        ),
        (
            "roots = [{ path = \"/p\", writes = \"files\" }]", .unknownKey,
            "config.toml:1: roots[0].writes: unknown key (known: path, write)"
        ),
        ("library = 3", .wrongType, "config.toml:1: library: must be a string, not an integer"),
        (
            "listen_optional = \"yes\"", .wrongType,
            "config.toml:1: listen_optional: must be true or false, not a string"
        ),
        (
            "thumbnail_sizes = [256, 2048]", .invalidValue,
            "config.toml:1: thumbnail_sizes: must be an array of whole numbers of pixels from 16 to 1024, not 2048"
        ),
        (
            "thumbnail_sizes = [\"256\"]", .wrongType,
            "config.toml:1: thumbnail_sizes: must be an array of whole numbers of pixels from 16 to 1024, but item 1 is a string"
        ),
        (
            "thumbnail_sizes = 256", .wrongType,
            "config.toml:1: thumbnail_sizes: must be an array of whole numbers of pixels from 16 to 1024, not an integer"
        ),
        (
            "thumbnail_cache_mb = -1", .invalidValue,
            "config.toml:1: thumbnail_cache_mb: must be a whole number of megabytes, 0 or more, not -1"
        ),
        (
            "decode_memory_mb = 8", .invalidValue,
            "config.toml:1: decode_memory_mb: must be a whole number of megabytes, 16 or more, not 8"
        ),
        (
            "settle_ms = -5", .invalidValue,
            "config.toml:1: settle_ms: must be a whole number of milliseconds, 0 or more, not -5"
        ),
        (
            "\n\nsettle_ms = 1.5", .wrongType,
            "config.toml:3: settle_ms: must be a whole number of milliseconds, 0 or more, not a floating-point number"
        ),
        (
            "poll_interval_s = 0", .invalidValue,
            "config.toml:1: poll_interval_s: must be a whole number of seconds, more than 0, not 0"
        ),
        (
            "time_zone = \"Mars/Olympus\"", .invalidValue,
            "config.toml:1: time_zone: must be a time zone identifier such as Europe/Paris, not \"Mars/Olympus\""
        ),
        (
            "roots = []\nhook_history_limit = 0", .invalidValue,
            "config.toml:2: hook_history_limit: must be a whole number of change-log entries, 1 or more, not 0"
        ),
        (
            "roots = [\"/a\", \"/a\"]", .invalidValue, "config.toml:1: roots[1]: \"/a\" is already roots[0]"
        ),
        (
            "library = \"~/photos.sqlite\"", .invalidValue,
            "config.toml:1: library: must be an absolute path or a postgresql:// URL, not \"~/photos.sqlite\""
        ),
        (
            "\nlibrary = \"library.sqlite\"", .invalidValue,
            "config.toml:2: library: must be an absolute path or a postgresql:// URL, not \"library.sqlite\""
        ),
        (
            "socket = \"run/photosd.sock\"", .invalidValue,
            "config.toml:1: socket: must be an absolute path, or \"\" to turn the API off, not \"run/photosd.sock\""
        ),
        (
            "[server]\nport = 1", .unknownKey, "config.toml:1: server: unknown key (\(topKeys))"
        ),
        // The hooks array itself.
        ("hooks = \"x\"", .wrongType, "config.toml:1: hooks: must be an array of tables ([[hooks]]), not a string"),
        (
            "[hooks]\nname = \"a\"", .wrongType,
            "config.toml:1: hooks: must be an array of tables ([[hooks]]), not a table"
        ),
        ("hooks = [\"a\"]", .wrongType, "config.toml:1: hooks[0]: must be a table, not a string"),
        // One hook's keys, on the line that gives them.
        (
            twoHooks + "name = \"second\"\ncomand = [\"/x\"]", .unknownKey,
            "config.toml:9: hooks[1].comand: unknown key (\(hookKeys))"
        ),
        (
            twoHooks + "name = \"second\"", .missingKey,
            "config.toml:7: hooks[1].command: missing: the program to run and its arguments, "
                + "e.g. [\"/usr/local/bin/backup\", \"--to\", \"/mnt\"], or a url to POST to"
        ),
        (
            twoHooks + "command = [\"/x\"]", .missingKey,
            "config.toml:7: hooks[1].name: missing: every hook needs a name (1 to 64 of a-z, 0-9 and -)"
        ),
        (
            twoHooks + "name = \"second\"\ncommand = []", .invalidValue,
            "config.toml:9: hooks[1].command: must name the program to run: the array is empty"
        ),
        (
            twoHooks + "name = \"second\"\ncommand = [\"\", \"-v\"]", .invalidValue,
            "config.toml:9: hooks[1].command: must name the program to run: its first item is empty"
        ),
        (
            twoHooks + "name = \"second\"\ncommand = \"backup.sh\"", .wrongType,
            "config.toml:9: hooks[1].command: must be an array of strings (the program and its arguments), not a string"
        ),
        (
            twoHooks + "name = \"second\"\ncommand = [\"/x\", 3]", .wrongType,
            "config.toml:9: hooks[1].command: must be an array of strings (the program and its arguments), "
                + "but item 2 is an integer"
        ),
        (
            twoHooks + "name = 5\ncommand = [\"/x\"]", .wrongType,
            "config.toml:8: hooks[1].name: must be a string, not an integer"
        ),
        (
            twoHooks + "name = \"Backup Favorites\"\ncommand = [\"/x\"]", .invalidValue,
            "config.toml:8: hooks[1].name: \"Backup Favorites\" must be 1 to 64 characters of a-z, 0-9 and -"
        ),
        (
            twoHooks + "name = \"\"\ncommand = [\"/x\"]", .invalidValue,
            "config.toml:8: hooks[1].name: \"\" must be 1 to 64 characters of a-z, 0-9 and -"
        ),
        (
            twoHooks + "name = \"\(String(repeating: "a", count: 65))\"\ncommand = [\"/x\"]", .invalidValue,
            "config.toml:8: hooks[1].name: \"\(String(repeating: "a", count: 65))\" "
                + "must be 1 to 64 characters of a-z, 0-9 and -"
        ),
        (
            twoHooks + "name = \"first\"\ncommand = [\"/x\"]", .duplicateName,
            "config.toml:8: hooks[1].name: \"first\" is already the name of hooks[0] (line 4)"
        ),
        (
            second + "objects = [\"asset\", \"photo\"]", .invalidValue,
            "config.toml:10: hooks[1].objects: \"photo\" is not one of asset, assetCollection, collectionList"
        ),
        (
            second + "objects = []", .invalidValue,
            "config.toml:10: hooks[1].objects: must name at least one of asset, assetCollection, collectionList "
                + "(leave the key out for all)"
        ),
        (
            second + "\n\nchanges = [\"inserted2\"]", .invalidValue,
            "config.toml:12: hooks[1].changes: \"inserted2\" is not one of inserted, updated, deleted"
        ),
        (
            second + "batch = 0", .invalidValue,
            "config.toml:10: hooks[1].batch: must be a whole number of objects, 1 or more, not 0"
        ),
        (
            second + "batch = \"10\"", .wrongType,
            "config.toml:10: hooks[1].batch: must be a whole number of objects, 1 or more, not a string"
        ),
        (
            second + "settle_ms = -1", .invalidValue,
            "config.toml:10: hooks[1].settle_ms: must be a whole number of milliseconds, 0 or more, not -1"
        ),
        (
            second + "timeout_s = -5", .invalidValue,
            "config.toml:10: hooks[1].timeout_s: must be a whole number of seconds, 1 or more, not -5"
        ),
        (
            second + "timeout_s = 0", .invalidValue,
            "config.toml:10: hooks[1].timeout_s: must be a whole number of seconds, 1 or more, not 0"
        ),
        (
            second + "max_failures = 0", .invalidValue,
            "config.toml:10: hooks[1].max_failures: must be a whole number of failed runs, 1 or more, not 0"
        ),
        (
            second + "access = \"admin\"", .invalidValue,
            "config.toml:10: hooks[1].access: must be read-only, read-write, add-only or limited, not \"admin\""
        ),
        (second + "access = 2", .wrongType, "config.toml:10: hooks[1].access: must be a string, not an integer"),
        // A limited token sees the hook's albums: without them it would see nothing.
        (second + "access = \"limited\"", .missingKey, "config.toml:10: hooks[1].access: \(limitedWithoutAlbums)"),
        (
            second + "albums = []\naccess = \"limited\"", .missingKey,
            "config.toml:11: hooks[1].access: \(limitedWithoutAlbums)"
        ),
        (
            second + "nice = 20", .invalidValue,
            "config.toml:10: hooks[1].nice: must be a nice increment from 0 to 19, not 20"
        ),
        (
            second + "nice = -1", .invalidValue,
            "config.toml:10: hooks[1].nice: must be a nice increment from 0 to 19, not -1"
        ),
        (
            second + "enabled = \"yes\"", .wrongType,
            "config.toml:10: hooks[1].enabled: must be true or false, not a string"
        ),
        (
            second + "albums = [\"/a\", \"\"]", .invalidValue,
            "config.toml:10: hooks[1].albums: item 2 is empty"
        ),
        // Webhooks: a url instead of a command, on loopback, and secrets only for them.
        (
            second + "url = \"http://127.0.0.1:8080/photos\"", .invalidValue,
            "config.toml:10: hooks[1].url: give either command or url, not both: a hook runs a program or POSTs"
        ),
        (
            twoHooks + "name = \"second\"\nurl = \"http://192.168.1.20:8123/hook\"", .invalidValue,
            "config.toml:9: hooks[1].url: \"192.168.1.20\" is not a loopback host: plain http would send photo metadata "
                + "in clear across the network; use https:// (photosd verifies the server's certificate), or http:// to "
                + "127.0.0.1, ::1 or localhost"
        ),
        (
            twoHooks + "name = \"second\"\nurl = \"ftp://127.0.0.1/hook\"", .invalidValue,
            "config.toml:9: hooks[1].url: must be an https:// URL such as \"https://photos.example.net/hook\" (or http:// "
                + "to this machine, \"http://127.0.0.1:8080/photos\"), not \"ftp://127.0.0.1/hook\""
        ),
        // ca_file: for https webhooks only, a file OpenSSL loads certificates out of.
        (
            second + "ca_file = \"/nonexistent/ca.pem\"", .invalidValue,
            "config.toml:10: hooks[1].ca_file: trusts an https webhook's server: only a hook with a url has one"
        ),
        (
            webhook + "ca_file = \"/nonexistent/ca.pem\"", .invalidValue,
            "config.toml:10: hooks[1].ca_file: trusts an https webhook's server: \"http://127.0.0.1:8080/photos\" is "
                + "plain http, with no certificate to check"
        ),
        (
            httpsWebhook + "ca_file = \"/nonexistent/ca.pem\"", .invalidValue,
            "config.toml:10: hooks[1].ca_file: cannot read the file \"/nonexistent/ca.pem\""
        ),
        (httpsWebhook + "ca_file = \"\"", .invalidValue, "config.toml:10: hooks[1].ca_file: must not be empty"),
        (
            httpsWebhook + "ca_file = [\"/a.pem\"]", .wrongType,
            "config.toml:10: hooks[1].ca_file: must be a string, not an array"
        ),
        (
            httpsWebhook + "nice = 5", .invalidValue,
            "config.toml:10: hooks[1].nice: sets a command's priority: a webhook (url) runs none"
        ),
        (
            twoHooks + "name = \"second\"\nurl = [\"http://127.0.0.1/\"]", .wrongType,
            "config.toml:9: hooks[1].url: must be a string, not an array"
        ),
        (
            second + "secret = \"s3cret\"", .invalidValue,
            "config.toml:10: hooks[1].secret: signs a webhook's POST: only a hook with a url has one"
        ),
        (
            twoHooks + "name = \"second\"\nsecret_file = \"/etc/hostname\"\ncommand = [\"/x\"]", .invalidValue,
            "config.toml:9: hooks[1].secret_file: signs a webhook's POST: only a hook with a url has one"
        ),
        (
            webhook + "secret = \"a\"\nsecret_file = \"/etc/hostname\"", .invalidValue,
            "config.toml:11: hooks[1].secret_file: give either secret or secret_file, not both (secret is given too)"
        ),
        (webhook + "secret = \"\"", .invalidValue, "config.toml:10: hooks[1].secret: must not be empty"),
        (
            webhook + "secret_file = \"/nonexistent/photosd.secret\"", .invalidValue,
            "config.toml:10: hooks[1].secret_file: cannot read the file \"/nonexistent/photosd.secret\""
        ),
        (
            webhook + "nice = 5", .invalidValue,
            "config.toml:10: hooks[1].nice: sets a command's priority: a webhook (url) runs none"
        ),
        (
            second + "predicate = \"colour == 1\"", .invalidPredicate,
            "config.toml:10: hooks[1].predicate: unsupported key 'colour' for PHAsset at offset 0 in \"colour == 1\""
        ),
        (
            second + "[hooks.env]\nHOME = \"/x\"", .unknownKey,
            "config.toml:10: hooks[1].env: unknown key (\(hookKeys))"
        ),
        // Lines are found past multi-line arrays and strings that hold text looking like keys.
        (
            "roots = [\n  \"/a\",\n  \"/b\",\n]\nlibrary = '''\n/name = 1\n'''\n"
                + "[[hooks]]\nname = \"x\"\ncommand = [\"/x\"]\nbatch = 0",
            .invalidValue, "config.toml:11: hooks[0].batch: must be a whole number of objects, 1 or more, not 0"
        ),
        // Inline tables have no lines of their own: the line of the key that holds them.
        (
            "\nhooks = [{ name = \"a\", command = [\"/x\"] }, { name = \"a\", command = [\"/y\"] }]", .duplicateName,
            "config.toml:2: hooks[1].name: \"a\" is already the name of hooks[0] (line 2)"
        ),
        ("roots = [\"/a\"]\n\u{0}", .syntax, "config.toml:2: a NUL character is not allowed"),
    ]

    @Test(arguments: rejected)
    func problemsNameTheFileLineAndKey(text: String, code: ConfigError.Code, message: String) {
        #expect(throws: ConfigError.self) { try ConfigFile.parse(text) }
        do {
            _ = try ConfigFile.parse(text)
        } catch {
            #expect(error.description == message)
            #expect(error.code == code, "\(error)")
        }
    }

    @Test func aWebhookReadsItsSecretFileBesideTheConfig() throws {
        let directory = try TemporaryDirectory(prefix: "config-webhook")
        try Data("s3cret with spaces\n".utf8).write(to: directory.path("frame.secret"))
        let path = directory.path("config.toml").path
        try Data(
            """
            [[hooks]]
            name = "frame"
            url = "http://localhost:8080/photos"
            secret_file = "frame.secret"
            objects = ["asset"]

            [[hooks]]
            name = "inline"
            url = "http://[::1]:9/x"
            secret = "abc"
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let hooks = try ConfigFile.read(path: path).hooks
        #expect(hooks.map(\.name) == ["frame", "inline"])
        #expect(hooks[0].url?.text == "http://localhost:8080/photos" && hooks[0].command.isEmpty)
        #expect(hooks[0].secret == WebhookSecret(Array("s3cret with spaces".utf8)))
        #expect(hooks[0].objects == [.asset])
        #expect(hooks[1].url?.host == "::1" && hooks[1].secret == WebhookSecret(Array("abc".utf8)))
        #expect(hooks.allSatisfy { $0.caFile == nil })
    }

    @Test(.enabled(if: TestCertificates.openssl != nil, "needs openssl"))
    func anHTTPSWebhookReadsItsCAFileBesideTheConfig() throws {
        let directory = try TemporaryDirectory(prefix: "config-webhook-ca")
        let certificates = try TestCertificates()
        try FileManager.default.copyItem(at: certificates.authority, to: directory.path("home-ca.pem"))
        try Data("not a certificate\n".utf8).write(to: directory.path("frame.secret"))
        let path = directory.path("config.toml").path
        let hook = """
            [[hooks]]
            name = "nas"
            url = "https://nas.home:8443/photos"
            secret = "abc"
            ca_file = "FILE"
            """
        try Data(hook.replacingOccurrences(of: "FILE", with: "home-ca.pem").utf8).write(to: URL(fileURLWithPath: path))
        let hooks = try ConfigFile.read(path: path).hooks
        #expect(hooks[0].url?.scheme == .https && hooks[0].url?.host == "nas.home" && hooks[0].url?.port == 8443)
        #expect(hooks[0].caFile?.path == directory.path("home-ca.pem").path)

        // A file with no certificate in it is found now, not at each POST.
        try Data(hook.replacingOccurrences(of: "FILE", with: "frame.secret").utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigError.self) { try ConfigFile.read(path: path) }
        #expect(error?.code == .invalidValue)
        #expect(
            error?.description.hasPrefix(
                "\(path):5: hooks[0].ca_file: cannot load the CA file \(directory.path("frame.secret").path): ")
                == true,
            "\(String(describing: error))")
    }

    /// TOML syntax errors carry the line and the description TOMLKit gives.
    static let syntaxErrors: [(text: String, line: Int, message: String)] = [
        ("\n\nlibrary", 3, "Error while parsing key-value pair: encountered end-of-file"),
        ("roots = [\"/a\",", 1, "Error while parsing array: encountered end-of-file"),
        ("library = \"/a", 1, "Error while parsing string: encountered end-of-file"),
        (
            "roots = [\"/a\"]\nroots = [\"/b\"]", 2,
            "Error while parsing key-value pair: cannot redefine existing array 'roots'"
        ),
        (
            "[[hooks]]\nname = \"a\"\n[[hooks]\nname = \"b\"", 3,
            "Error while parsing table header: expected ']', saw '\\n'"
        ),
        (
            "[[hooks]]\nname = \"a\"\n[hooks]\nname = \"b\"", 3,
            "Error while parsing table header: cannot redefine existing array 'hooks' as table"
        ),
    ]

    @Test(arguments: syntaxErrors)
    func syntaxErrorsNameTheLine(text: String, line: Int, message: String) {
        do {
            _ = try ConfigFile.parse(text, path: "/etc/photosd.toml")
            Issue.record("\(text) should be rejected")
        } catch {
            #expect(error.code == .syntax && error.line == line && error.key == nil, "\(error)")
            #expect(error.description == "/etc/photosd.toml:\(line): \(message)")
        }
    }

    @Test func aPredicateIsCheckedAsPHFetchOptionsChecksOne() throws {
        func problem(_ predicate: String) -> ConfigError? {
            let text = "[[hooks]]\nname = \"a\"\ncommand = [\"/x\"]\npredicate = '''\(predicate)'''"
            do {
                _ = try ConfigFile.parse(text)
                return nil
            } catch {
                return error
            }
        }
        for good in [
            "favorite == YES AND mediaType == 1", "(mediaSubtypes & 4) != 0", "pixelWidth > 1 OR isHidden == NO",
        ] {
            #expect(problem(good) == nil, "\(good)")
        }
        for bad in ["favorite == ", "localizedTitle == 'x'", "mediaType == %@", "favorite MATCHES 'x'", "ANY x == 1"] {
            let error = try #require(problem(bad), "\(bad)")
            #expect(error.code == .invalidPredicate && error.line == 4 && error.key == "hooks[0].predicate")
            #expect(error.cause is PredicateFormatError, "\(error)")
        }
    }

    @Test func anUnreadableFileIsAnErrorWithoutALine() throws {
        let directory = try TemporaryDirectory(prefix: "config-test")
        let missing = directory.path("absent.toml").path
        #expect {
            try ConfigFile.read(path: missing)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.code == .unreadable && error.line == nil
                && error.description == "\(missing): cannot read the file: no such file"
        }
        // A directory given for the file says so, rather than a Foundation error number.
        #expect {
            try ConfigFile.read(path: directory.url.path)
        } throws: { error in
            (error as? ConfigError)?.description == "\(directory.url.path): cannot read the file: it is a directory"
        }
        let latin1 = directory.path("latin1.toml")
        try Data([0x6C, 0x69, 0x62, 0x72, 0x61, 0x72, 0x79, 0x3D, 0x22, 0xE9, 0x22]).write(to: latin1)
        #expect {
            try ConfigFile.read(path: latin1.path)
        } throws: { error in
            (error as? ConfigError)?.description == "\(latin1.path): the file is not UTF-8 text"
        }
    }

    @Test func defaultPathFollowsXDG() {
        let xdg = ConfigFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
        #expect(xdg == "/x/photosd/config.toml")
        #expect(ConfigFile.defaultPath(environment: ["HOME": "/h"]) == "/h/.config/photosd/config.toml")
    }
}

/// Hooks' `albums` against a real library file: directory albums by path, any album by identifier.
@Suite struct ConfigAlbumTests {
    let directory: TemporaryDirectory
    let database: LibraryDatabase
    let family: String
    let best: String
    let pictures: String

    var root: String { directory.path("Pictures").path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "config-albums")
        for name in ["Pictures/Family", "Pictures/New", "Elsewhere"] {
            try FileManager.default.createDirectory(at: directory.path(name), withIntermediateDirectories: true)
        }
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        let root = directory.path("Pictures").path
        (family, best, pictures) = try database.write { transaction in
            let list = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.collectionList), isList: true,
                type: PHCollectionListType.folder.rawValue, subtype: PHCollectionListSubtype.regularFolder.rawValue,
                title: "Pictures", path: root, createdDate: 0)
            let listID = try transaction.insertCollection(list)
            let family = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Family", parentId: listID, path: root + "/Family", createdDate: 0)
            _ = try transaction.insertCollection(family)
            let best = CollectionRecord(
                localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                type: PHAssetCollectionType.album.rawValue, subtype: PHAssetCollectionSubtype.albumRegular.rawValue,
                title: "Best", createdDate: 0)
            _ = try transaction.insertCollection(best)
            return (family.localIdentifier, best.localIdentifier, list.localIdentifier)
        }.value
    }

    func config(albums: [String]) throws -> ConfigFile {
        let list = albums.map { "\"\($0)\"" }.joined(separator: ", ")
        return try ConfigFile.parse(
            "[[hooks]]\nname = \"a\"\ncommand = [\"/x\"]\n\n"
                + "[[hooks]]\nname = \"b\"\ncommand = [\"/x\"]\nalbums = [\(list)]",
            path: "hooks.toml")
    }

    @Test func pathsAndIdentifiersResolveToAlbumIdentifiers() throws {
        try FileManager.default.createSymbolicLink(
            at: directory.path("link"), withDestinationURL: directory.path("Pictures"))
        let config = try config(albums: [root + "/Family/", best, directory.path("link/Family").path, family])
        try config.validateAlbums(in: database)
        let hooks = try config.hooksResolvingAlbums(in: database)
        #expect(hooks.map(\.albums) == [[], [family, best]], "one identifier per album, in the file's order")
        #expect(hooks.map(\.name) == ["a", "b"])
    }

    @Test func aDirectoryNotScannedYetIsAcceptedOnlyUnderAWatchedRoot() throws {
        let config = try config(albums: [root + "/New"])
        let hooks = try config.hooksResolvingAlbums(in: database, watchedRoots: [root])
        #expect(hooks[1].albums == [root + "/New"], "kept as its path until a scan makes it an album")
        #expect(throws: ConfigError.self) { try config.validateAlbums(in: database) }
    }

    @Test func anAlbumMissingFromTheLibraryNamesItsLineAndEntry() throws {
        let favorites = try #require(SmartAlbum.all.first { $0.subtype == .smartAlbumFavorites }).localIdentifier
        let cases: [(String, String)] = [
            (
                root + "/Famly",
                "\"\(root)/Famly\" is not the directory of an album in the library, "
                    + "nor a directory under a watched root"
            ),
            (
                directory.path("Elsewhere").path,
                "\"\(directory.path("Elsewhere").path)\" is not the directory of an album in the library, "
                    + "nor a directory under a watched root"
            ),
            (root, "\"\(root)\" is a folder (a collection list), not an album: name its albums"),
            (pictures, "\"\(pictures)\" is a folder (a collection list), not an album"),
            (
                "Family",
                "\"Family\" is not the local identifier of an album in the library "
                    + "(give a directory as an absolute path)"
            ),
            (
                favorites,
                "\"\(favorites)\" is the smart album Favorites: a hook's albums are albums of the library or of "
                    + "directories (a hook's predicate chooses assets as a smart album does)"
            ),
        ]
        for (entry, message) in cases {
            let config = try config(albums: [family, entry])
            do {
                try config.validateAlbums(in: database, watchedRoots: [root])
                Issue.record("\(entry) should be rejected")
            } catch let error as ConfigError {
                #expect(error.description == "hooks.toml:8: hooks[1].albums: " + message)
                #expect(error.code == .unknownAlbum)
            }
        }
    }
}
