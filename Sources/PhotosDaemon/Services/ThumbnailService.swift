import Foundation
import Glibc
import Logging
import PhotosCore
import PhotosImaging
import PhotosStore
import ServiceLifecycle

/// Makes the common thumbnails of photos as they arrive or change, into the disk cache that
/// `PHImageManager` reads (``PhotosImaging/ThumbnailDiskCache``), so that a grid never waits for
/// them: each size of ``sizes`` as a square box filled (`aspectFill`, default options, which is
/// what a grid asks for), on a thread of the lowest priority Linux has (`SCHED_IDLE`: it runs only
/// when nothing else wants the processor). Off unless photosd's config names sizes
/// (`thumbnail_sizes`).
///
/// It follows the change feed from where the daemon started (photos already in the library keep
/// what requests made of them), reads the photo file of each inserted or updated image asset, and
/// makes the sizes that are not kept yet; a file that cannot be rendered is logged and skipped.
public struct ThumbnailService: Service {
    let database: LibraryDatabase
    let cache: ThumbnailDiskCache
    /// The sides of the square boxes made.
    public let sizes: [Int]
    let renderer: ImageRenderer
    let logger: Logger

    public init(
        database: LibraryDatabase, cache: ThumbnailDiskCache, sizes: [Int], renderer: ImageRenderer = ImageRenderer(),
        logger: Logger
    ) {
        self.database = database
        self.cache = cache
        self.sizes = sizes
        self.renderer = renderer
        self.logger = logger
    }

    /// The request a grid's `requestImage(targetSize: (side, side), contentMode: .aspectFill,
    /// options: nil)` makes.
    public static func request(side: Int) -> ImageRequest {
        ImageRequest(target: PixelSize(width: side, height: side), fill: true)
    }

    public func run() async throws {
        let worker = IdleWorker()
        defer { worker.stop() }
        let start = try database.currentToken()
        for try await entry in database.changeFeed(after: start).cancelOnGracefulShutdown() {
            let identifiers = entry.asset.inserted + entry.asset.updated
            guard !identifiers.isEmpty else { continue }
            let paths = try photoPaths(identifiers)
            guard !paths.isEmpty else { continue }
            // A batch of a scan may hold thousands: stopping the daemon stops it between two images.
            await withGracefulShutdownHandler {
                await withTaskCancellationHandler {
                    await worker.run { stopped in
                        for path in paths {
                            for side in sizes where !stopped() { make(side: side, of: path) }
                        }
                    }
                } onCancel: {
                    worker.stop()
                }
            } onGracefulShutdown: {
                worker.stop()
            }
        }
    }

    /// Makes one size of one file unless it is kept already.
    func make(side: Int, of path: String) {
        let request = Self.request(side: side)
        guard let key = ThumbnailDiskCache.Key(fileAt: path, request), !cache.contains(key) else { return }
        do {
            cache.store(try renderer.render(fileAt: path, request), for: key)
        } catch {
            logger.info("no thumbnail", metadata: ["path": "\(path)", "side": "\(side)", "reason": "\(error)"])
        }
    }

    /// The photo file of each image asset among these (its photo, else full-size photo, else
    /// alternate photo: what `PHImageManager` renders).
    func photoPaths(_ identifiers: [String]) throws -> [String] {
        try database.withAssetRows(localIdentifiers: identifiers) { rows in
            var paths: [String] = []
            while let position = rows.assets.position {
                let isImage = rows.assets.integer(AssetRows.AssetColumn.mediaType) == PHAssetMediaType.image.rawValue
                while let row = rows.resources.position, row < position { try rows.resources.advance() }
                var files: [Int64: String] = [:]
                while rows.resources.position == position {
                    let type = rows.resources.integer(AssetRows.ResourceColumn.type)
                    if files[type] == nil { files[type] = rows.resources.string(AssetRows.ResourceColumn.path) }
                    try rows.resources.advance()
                }
                let preferred = [PHAssetResourceType.photo, .fullSizePhoto, .alternatePhoto].lazy
                    .compactMap { files[Int64($0.rawValue)] }.first
                if isImage, let preferred { paths.append(preferred) }
                try rows.assets.advance()
            }
            return paths
        }
    }
}

/// One thread at `SCHED_IDLE`, running one job at a time: the lowest priority Linux has.
final class IdleWorker: @unchecked Sendable {  // The queue is guarded by `condition`.
    /// `SCHED_IDLE` of <sched.h>, which glibc declares only under `_GNU_SOURCE`.
    static let schedIdle: Int32 = 5

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var stopping = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.name = "photosd-thumbnails"
        thread.start()
    }

    /// Runs `body` on the worker and waits for it; `body` is told when the worker is stopping.
    func run(_ body: @escaping @Sendable (_ stopped: () -> Bool) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            jobs.append { [self] in
                body { self.condition.withLock { self.stopping } }
                continuation.resume()
            }
            condition.signal()
            condition.unlock()
        }
    }

    /// Ends the thread after the job under way (a job waiting is still run, told to stop).
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private func loop() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        // Where SCHED_IDLE is refused, the thread still runs, at its usual priority.
        _ = pthread_setschedparam(pthread_self(), Self.schedIdle, &parameters)
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
