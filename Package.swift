// swift-tools-version:6.1
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "photosd",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Photos", targets: ["Photos"]),
        .executable(name: "photos", targets: ["PhotosCLI"]),
        .executable(name: "photosd", targets: ["photosd"]),
    ],
    dependencies: [
        // SQLite access with migrations and WAL pools (docs/architecture.md).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The store's second engine: a library kept in PostgreSQL (PhotosStore/Engine/PostgreSQL).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Its connections' TLS (sslmode, sslrootcert), through postgres-nio's own dependency.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The `photos` command line.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The daemon: one ServiceGroup with graceful SIGTERM/SIGINT, and structured logs.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Exec hooks: processes with pipes, process groups and signals without hand-written fork/exec.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // The config file: real TOML, so `[[hooks]]` arrays of tables work.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Documentation: `swift package generate-documentation --target Photos` builds the Photos
        // module's DocC catalogue (Sources/Photos/Photos.docc); CI builds it so that a broken
        // symbol link fails. A command plugin only: nothing of it is linked into any product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The socket API: HTTP/1.1 on a Unix socket (only PhotosServer imports it). No default
        // traits: swift-configuration is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // SHA-256 of access tokens (what the library stores) and HMAC-SHA256 of webhooks' bodies.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The web page's HTML, rendered from templates compiled into the server.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // Metrics at GET /metrics: the libraries count through swift-metrics' API (which Hummingbird
        // already brings); only photosd bootstraps this Prometheus backend.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // Tests only: reading the OpenAPI document to check real responses against it.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Libraries opened on first use (dlopen): each wrapper below lists its functions, and this
        // binds them, with one error for a library or a function that is missing.
        .target(name: "CPhotosLoader"),
        // C libraries, one system-library target each.
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // PNG's compressed text chunks, where EXIF is kept as a "Raw profile type exif".
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CMagic", pkgConfig: "libmagic", providers: [.apt(["libmagic-dev"])]),
        // TLS for https webhooks: the system's OpenSSL (its CA store, its security updates), not
        // swift-nio-ssl's BoringSSL, whose build alone would cost minutes on 2 cores. Opened on the
        // first https connection, as FFmpeg is on the first video; its headers come from libssl-dev.
        .target(name: "CPhotosTLS", dependencies: ["CPhotosLoader"]),
        // Image decoding and thumbnails (issue 13): libvips streams, shrinks on load, and reads
        // JPEG, PNG, WebP, GIF, TIFF, HEIC/AVIF (libheif) and JPEG XL from Debian's packages.
        // Opened on the first image (dlopen), as FFmpeg and LibRaw are: linked, libvips and the
        // ninety libraries it needs would load into every `photos` command and photosd. So CVips
        // gives the headers only; its pkg-config name is GLib's, for the include paths the vips
        // headers need (pkg-config's flags link what they name: GLib alone, not libvips).
        .systemLibrary(name: "CVips", pkgConfig: "glib-2.0", providers: [.apt(["libvips-dev"])]),
        // libvips' options are C varargs, which Swift cannot call: plain wrappers for PhotosImaging.
        // Little CMS, which libvips uses too: CPhotosVips keeps one colour transform per embedded
        // profile, where libvips would make one per image. Headers only, opened with libvips.
        .systemLibrary(name: "CLCMS2", providers: [.apt(["liblcms2-dev"])]),
        .target(name: "CPhotosVips", dependencies: ["CVips", "CLCMS2", "CPhotosLoader"]),

        // Video poster frames and the AVAsset stand-ins (issue 13): FFmpeg's libraries from Debian
        // (libavformat-dev, libavcodec-dev, libswscale-dev, libavutil-dev), in process, not one
        // ffmpeg process per request. CPhotosVideo wraps the few calls made, as CPhotosVips does,
        // and opens the libraries on the first video (dlopen): linked, they and the seventy
        // libraries they need would load into every `photos` command and photosd. So CAV gives
        // the headers only (no pkg-config: its flags would link them).
        .systemLibrary(
            name: "CAV", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .target(name: "CPhotosVideo", dependencies: ["CAV", "CPhotosLoader"]),
        // Camera RAW previews and development (issue 13): LibRaw's thread-safe build from Debian,
        // opened on the first RAW, as FFmpeg is on the first video.
        .systemLibrary(name: "CLibRaw", providers: [.apt(["libraw-dev"])]),
        .target(name: "CPhotosRaw", dependencies: ["CLibRaw", "CPhotosLoader"]),
        // XMP sidecars: Exempi (BSD, over Adobe's XMP Toolkit) from Debian's libexempi-dev, for its full
        // RDF reader (attribute and element forms, structs, arrays, qualifiers), opened on the first
        // sidecar, as LibRaw is on the first RAW: linked, it and its C++ runtime would load into every
        // `photos` command. Its headers need no pkg-config path, as OpenSSL's do not for CPhotosTLS.
        .target(name: "CPhotosXMP", dependencies: ["CPhotosLoader"]),

        // Linux calls Glibc's module does not import (statfs, eventfd, pipe2, pidfd_open, FIONREAD, GNU thread
        // calls), for PhotosLinux.
        .target(name: "CPhotosLinux"),
        // SQLite's start-time configuration (a variadic call), for PhotosStore; SQLite itself comes
        // with GRDB's GRDBSQLite.
        .target(name: "CPhotosSQLite"),

        // The layers, each only on those before it (docs/architecture.md draws the graph):
        // PhotosCore, PhotosPlaces (pure) <- PhotosLinux (the operating system), PhotosWire (the JSON
        // shapes) <- PhotosMetadata, PhotosSidecars, PhotosWatcher, PhotosStore, PhotosClient <- PhotosImaging,
        // PhotosIngest, PhotosHooks <- Photos, PhotosConfig <- PhotosDaemon, PhotosServer, the executables.

        // Pure values and rules: no Glibc, no GRDB.
        .target(name: "PhotosCore", swiftSettings: settings),
        // The operating system: system calls with errno-carrying errors, file descriptors, the
        // library's file operations, inotify, eventfd, and threads of their own (worker threads at
        // a lower priority). The one Swift module over CPhotosLinux; PhotosCore for PathBytes.
        .target(name: "PhotosLinux", dependencies: ["PhotosCore", "CPhotosLinux"], swiftSettings: settings),
        // Place names for albums (localizedLocationNames): a GeoNames gazetteer the user supplies,
        // indexed by position in memory. Foundation only.
        .target(name: "PhotosPlaces", swiftSettings: settings),
        // Reading files: type sniffing and EXIF; PhotosLinux opens and reads them.
        // CPhotosRaw: the RAW families no parser reads, through LibRaw (opened on the first such file).
        .target(
            name: "PhotosMetadata",
            dependencies: ["PhotosCore", "PhotosLinux", "CPhotosLinux", "CExif", "CMagic", "CZlib", "CPhotosRaw"],
            swiftSettings: settings),
        // XMP sidecars: which sidecar a photo has, the user state read from it (the library's fields and
        // other tools' for the same facts), the merge that writes only the library's own properties
        // (every other byte kept), and the three-way merge of the library's state with a sidecar edited
        // by another tool. PhotosLinux writes the file (temporary name, fsync, rename).
        .target(
            name: "PhotosSidecars", dependencies: ["PhotosCore", "PhotosLinux", "CPhotosXMP"], swiftSettings: settings),
        // Decoding and resizing images through libvips: headers, thumbnails, crops, sRGB, limits.
        // PhotosMetadata reads the EXIF thumbnail that serves fast requests.
        // Video poster frames are decoded by FFmpeg (CPhotosVideo), then scaled like any image.
        // PhotosLinux opens the files decoders read.
        .target(
            name: "PhotosImaging",
            dependencies: ["PhotosCore", "PhotosLinux", "PhotosMetadata", "CPhotosVips", "CPhotosVideo", "CPhotosRaw"],
            swiftSettings: settings),
        // The JSON shapes other programs read (CLI output, hook payloads, status, socket API): values
        // and their byte writers on PhotosCore alone, so that PhotosClient links no database.
        .target(name: "PhotosWire", dependencies: ["PhotosCore"], swiftSettings: settings),
        // The SQLite library file: schema, queries, change log, and the commit signal its followers
        // share (one per LibraryDatabase).
        // PhotosWire: the store knows the wire shapes and writes them from its rows (DescriptionReader,
        // the one asset JSON writer, hook and token descriptions); the shapes know nothing of the store.
        // One edge down and no module between them: a PhotosDescriptions module would add a module and
        // an edge from each of its users (Photos, PhotosServer, PhotosHooks, PhotosCLI), which all
        // import the store anyway.
        .target(
            name: "PhotosStore",
            dependencies: [
                // PhotosLinux: the commit signal's inotify watch on the library's directory.
                "PhotosCore", "PhotosLinux", "PhotosWire", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"), "CPhotosSQLite",
                // Access tokens are stored as their SHA-256.
                .product(name: "Crypto", package: "swift-crypto"),
                // A library in PostgreSQL: the engine's connection (Engine/PostgreSQL).
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: settings
        ),
        // Folders to library: crawl, read, classify, commit; shared by `photos scan` and photosd.
        .target(
            name: "PhotosIngest",
            dependencies: [
                // PhotosLinux: the crawler's directory entries and link counts.
                "PhotosCore", "PhotosMetadata", "PhotosStore", "PhotosLinux",
                // PhotosSidecars: XMP sidecars read beside new photos and kept in step with their assets.
                "PhotosSidecars",
                // Files seen, ingested, rejected: counted as scans commit them.
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: settings),
        // Watching directory trees (only directories, within the watch budget) through PhotosLinux's
        // inotify, its reader on a thread of its own.
        // PhotosCore for PathBytes only: names that are not UTF-8 are kept byte for byte.
        .target(name: "PhotosWatcher", dependencies: ["PhotosCore", "PhotosLinux"], swiftSettings: settings),
        // Exec hooks and webhooks: definitions, durable cursors, payloads, and the runner.
        .target(
            name: "PhotosHooks",
            dependencies: [
                // PhotosClient: webhooks POST with the HTTP client `photos` uses.
                // PhotosLinux: the payloads' worker thread, and the thread and pipes that read a hook's
                // output. CPhotosLinux: a hook's payload in memory (memfd) and its process group's exit.
                "PhotosCore", "PhotosStore", "PhotosWire", "PhotosLinux", "CPhotosLinux", "PhotosClient",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Runs and failures per hook.
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: settings),
        // The config file photosd and `photos` share: its model, decoded from TOML, its errors (file, line,
        // key), hooks' albums against a library, and which library a program uses.
        .target(
            name: "PhotosConfig",
            dependencies: [
                // PhotosLinux: a drop folder is checked against the roots as its links lead.
                "PhotosCore", "PhotosLinux", "PhotosStore", "PhotosHooks",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: settings),
        // The daemon's services: watch, settle, ingest; systemd notification; status.
        .target(
            name: "PhotosDaemon",
            dependencies: [
                // PhotosLinux: the thumbnails' idle worker thread, file system kinds, memory trimming.
                "PhotosCore", "PhotosStore", "PhotosIngest", "PhotosWatcher", "PhotosLinux", "PhotosWire",
                "PhotosHooks", "PhotosImaging", "PhotosConfig",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // The settling queue's depth.
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: settings),
        // The daemon's API: HTTP/JSON on a Unix socket, over PhotoKit's API and the change feed.
        .target(
            name: "PhotosServer",
            dependencies: [
                // PhotosMetadata: a posted file's resource type, sniffed when the batch does not name it.
                // PhotosImaging: the thumbnails' formats and the renderer's version (their ETags).
                // PhotosLinux: an asset's file opened with no symbolic link on its way.
                "Photos", "PhotosCore", "PhotosStore", "PhotosWire", "PhotosMetadata", "PhotosImaging", "PhotosLinux",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // Request latencies by route.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Mustache", package: "swift-mustache"),
                // The web session's CSRF token, derived from its secret.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // The page's templates, scripts and styles: compiled in by scripts/web-embed.
            exclude: ["Web/Resources"],
            swiftSettings: settings),
        // The API's client side: `photos` speaking to photosd over its socket; webhooks' POSTs,
        // over TLS (CPhotosTLS) for https.
        .target(name: "PhotosClient", dependencies: ["PhotosWire", "CPhotosTLS"], swiftSettings: settings),
        .executableTarget(
            name: "photosd",
            dependencies: [
                "PhotosDaemon", "PhotosConfig", "PhotosHooks", "PhotosImaging", "PhotosIngest", "Photos",
                "PhotosServer", "PhotosStore", "PhotosWire",
                // PhotosLinux: the library's lock (DaemonLock), one photosd per library.
                "PhotosLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // The metrics backend behind GET /metrics: only the daemon bootstraps it.
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: settings),
        // PhotoKit's API: `import Photos`.
        .target(
            name: "Photos",
            dependencies: [
                // PhotosLinux: the file journal's operations (the import folder, the Trash, renames).
                // PhotosSidecars: user state written to and read from XMP sidecars under the roots.
                "PhotosCore", "PhotosStore", "PhotosMetadata", "PhotosIngest", "PhotosLinux", "PhotosWire",
                "PhotosSidecars",
                // PHImageManager and UIImage decode through it.
                "PhotosImaging",
                // Albums' and folders' localizedLocationNames.
                "PhotosPlaces",
                // Fetches cannot throw (PhotoKit's API): their failures are logged with the cause.
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings),
        .executableTarget(
            name: "PhotosCLI",
            dependencies: [
                "Photos", "PhotosStore", "PhotosIngest", "PhotosConfig", "PhotosWatcher", "PhotosWire", "PhotosHooks",
                "PhotosClient", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // PhotosLinux: `photos rebuild` puts the new library file in place, never over another,
                // holding photosd's lock on the library meanwhile (DaemonLock).
                "PhotosLinux",
            ],
            swiftSettings: settings
        ),
        .target(
            name: "PhotosTestSupport",
            dependencies: [
                "Photos", "PhotosStore", "PhotosImaging", "PhotosIngest", "PhotosLinux", "PhotosClient",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: settings),

        // Runnable PhotoKit listings from the seed documents.
        // Swift 5 mode: these are PhotoKit listings as published, before strict concurrency.
        .executableTarget(
            name: "query-library", dependencies: ["Photos"], path: "Examples/query-library",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "modify-albums", dependencies: ["Photos"], path: "Examples/modify-albums",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "add-asset-to-album", dependencies: ["Photos"], path: "Examples/add-asset-to-album",
            swiftSettings: [.swiftLanguageMode(.v5)]),

        .executableTarget(
            name: "get-images", dependencies: ["Photos"], path: "Examples/get-images",
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(
            name: "get-videos", dependencies: ["Photos"], path: "Examples/get-videos",
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // An in-process PHPhotoLibraryChangeObserver plugin (Examples/hooks/ has exec hooks).
        .executableTarget(
            name: "observer-plugin", dependencies: ["Photos"], path: "Examples/observer-plugin",
            swiftSettings: [.swiftLanguageMode(.v5)]),

        // Release-build benchmark: `swift run -c release photos-bench`.
        .executableTarget(
            name: "photos-bench",
            dependencies: [
                "Photos", "PhotosStore", "PhotosWire", "PhotosServer", "PhotosClient",
                // The thumbnail measure: the renderer, and a library of given corpus files.
                "PhotosImaging", "PhotosTestSupport",
                // The sidecar measure: a scanned root, its sidecar read back.
                "PhotosIngest", "PhotosSidecars",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/photos-bench",
            swiftSettings: settings
        ),

        // Release-build driver of scripts/bench-raw: camera RAW metadata through LibRaw alone or the parsers.
        .executableTarget(
            name: "raw-metadata-bench", dependencies: ["PhotosMetadata"], path: "Benchmarks/raw-metadata-bench",
            swiftSettings: settings),

        // Release-build driver of scripts/bench-places: a gazetteer's load time and lookups/s.
        .executableTarget(
            name: "places-bench", dependencies: ["PhotosPlaces"], path: "Benchmarks/places-bench",
            swiftSettings: settings),

        .testTarget(
            name: "PhotosPlacesTests", dependencies: ["PhotosPlaces", "PhotosTestSupport"], swiftSettings: settings),
        .testTarget(
            name: "PhotosCoreTests", dependencies: ["PhotosCore", "PhotosTestSupport"], swiftSettings: settings),
        // PhotosTestSupport: temporary directories, tmpfs mounts, and offPool for the Trash's tests, which run
        // trash-cli.
        .testTarget(
            name: "PhotosLinuxTests", dependencies: ["PhotosLinux", "PhotosTestSupport"], swiftSettings: settings),
        .testTarget(
            name: "PhotosStoreTests", dependencies: ["PhotosStore", "PhotosTestSupport"], swiftSettings: settings),
        .testTarget(
            name: "PhotosTests", dependencies: ["Photos", "PhotosIngest", "PhotosTestSupport"], swiftSettings: settings),
        // PhotoKit programs as written before strict concurrency: Swift 5 language mode.
        .testTarget(
            name: "PhotosSwift5Tests", dependencies: ["Photos", "PhotosTestSupport"],
            swiftSettings: settings + [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "PhotosWireTests",
            dependencies: [
                "PhotosWire", "Photos", "PhotosStore", "PhotosIngest", "PhotosTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosHooksTests",
            dependencies: ["PhotosHooks", "PhotosWire", "Photos", "PhotosTestSupport", "PhotosClient"],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosServerTests",
            dependencies: [
                "PhotosServer", "PhotosClient", "Photos", "PhotosCore", "PhotosWire", "PhotosTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings),
        // The API as a real photosd serves it, and the CLI through it: end to end, with the binaries.
        .testTarget(
            name: "PhotosServerDaemonTests",
            dependencies: [
                "PhotosServer", "PhotosClient", "Photos", "PhotosCore", "PhotosWire", "PhotosTestSupport",
                "PhotosDaemon", "photosd", "PhotosCLI", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosConfigTests",
            dependencies: ["PhotosConfig", "PhotosCore", "PhotosHooks", "PhotosStore", "PhotosTestSupport"],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosWatcherTests",
            dependencies: ["PhotosWatcher", "PhotosCore", "PhotosLinux", "PhotosTestSupport"],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosDaemonTests",
            dependencies: [
                "PhotosDaemon", "PhotosWatcher", "PhotosStore", "PhotosWire", "Photos", "PhotosTestSupport", "photosd",
                "PhotosCLI", "PhotosLinux",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosIngestTests", dependencies: ["PhotosIngest", "Photos", "PhotosTestSupport"],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosMetadataTests", dependencies: ["PhotosMetadata", "PhotosTestSupport"], swiftSettings: settings),
        .testTarget(
            name: "PhotosSidecarsTests", dependencies: ["PhotosSidecars", "PhotosTestSupport"],
            swiftSettings: settings),
        .testTarget(
            name: "PhotosImagingTests", dependencies: ["PhotosImaging", "PhotosTestSupport"], swiftSettings: settings),
        // These run built executables; depending on them makes `swift test` build them first.
        .testTarget(name: "PhotosCLITests", dependencies: ["PhotosTestSupport", "PhotosCLI"], swiftSettings: settings),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "PhotosTestSupport", "PhotosCLI", "query-library", "modify-albums", "add-asset-to-album",
                "observer-plugin", "get-images", "get-videos",
            ],
            swiftSettings: settings),
    ],
    swiftLanguageModes: [.v6]
)
