import Foundation
import Logging
import PhotosCore
import PhotosImaging
import PhotosLinux
import PhotosStore
import PhotosWire
import ServiceLifecycle
import Synchronization

/// Makes the common thumbnails of photos as they arrive or change, into the disk cache that
/// `PHImageManager` reads (``PhotosImaging/ThumbnailDiskCache``), so that a grid never waits for
/// them: each size of ``sizes`` as a square box filled (`aspectFill`, default options, which is
/// what a grid asks for), on a thread of the lowest priority Linux has (`SCHED_IDLE`: it runs only
/// when nothing else wants the processor). Off unless photosd's config names sizes
/// (`thumbnail_sizes`).
///
/// It follows the change feed from where the daemon started, reads the photo file of each inserted
/// or updated image asset, and makes the sizes that are not kept yet. Beside that, it goes through
/// the photos the library held at the start, newest first, a page at a time; a new photo's
/// thumbnails come before the next page of old ones. A file that cannot be rendered is logged and
/// skipped; what is kept already costs two `stat`s a size, so a restart goes through a large
/// library quickly.
public final class ThumbnailService: Service, Sendable {
    let database: LibraryDatabase
    let cache: ThumbnailDiskCache
    /// The sides of the square boxes made.
    public let sizes: [Int]
    let renderer: ImageRenderer
    let logger: Logger
    /// Where it reports what it made (`photos status`), if anywhere.
    let board: StatusBoard?
    private let progress: Mutex<ThumbnailStatus>

    /// A service making thumbnails of `sizes` (square boxes' sides) of `database`'s photos into
    /// `cache`, logging the files it cannot render, and reporting what it did on `board`.
    public init(
        database: LibraryDatabase, cache: ThumbnailDiskCache, sizes: [Int], renderer: ImageRenderer = ImageRenderer(),
        board: StatusBoard? = nil, logger: Logger
    ) {
        self.database = database
        self.cache = cache
        self.sizes = sizes
        self.renderer = renderer
        self.board = board
        self.logger = logger
        progress = Mutex(ThumbnailStatus(sizes: sizes, directory: cache.directory, maximumBytes: cache.maximumBytes))
    }

    /// What it has done so far.
    public var status: ThumbnailStatus { progress.withLock { $0 } }

    /// Puts the figures on the board (the status file is written).
    private func publish() {
        guard let board else { return }
        var status = self.status
        status.bytes = cache.estimatedBytes
        board.update { $0.sections["thumbnails"] = status }
    }

    /// The request a grid's `requestImage(targetSize: (side, side), contentMode: .aspectFill,
    /// options: nil)` makes.
    public static func request(side: Int) -> ImageRequest {
        ImageRequest(target: PixelSize(width: side, height: side), fill: true)
    }

    /// Photos of the library at the start gone through a page at a time.
    static let backfillPage = 100

    /// Runs until the daemon stops: the new photos as they come, the others newest first.
    public func run() async throws {
        let worker = WorkerThread(name: "photosd-thumbs", priority: .idle)
        defer { worker.stop() }
        let start = try database.currentToken()
        // Stopping the daemon stops the worker between two images: a batch may hold thousands.
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await self.backfill(on: worker) }
                    // The feed ends when its task is cancelled: at graceful shutdown.
                    try await cancelWhenGracefulShutdown {
                        for try await entry in self.database.changeFeed(after: start) {
                            let identifiers = entry.asset.inserted + entry.asset.updated
                            guard !identifiers.isEmpty else { continue }
                            let paths = try self.pictures(.localIdentifiers(identifiers))
                            if !paths.isEmpty {
                                // A stopped worker refuses the job: the daemon is stopping.
                                _ = try? await worker.run(first: true) { self.make(paths, stopped: $0) }
                                self.publish()
                            }
                        }
                    }
                    // The feed ends only with the daemon; the backfill stops with it.
                    group.cancelAll()
                }
            } onCancel: {
                worker.stop()
            }
        } onGracefulShutdown: {
            worker.stop()
        }
    }

    /// The library's photos at the start, newest first, a page at a time on the worker.
    func backfill(on worker: WorkerThread) async throws {
        // Photos and videos (a grid shows both).
        var query = AssetQuery()
        query.includeHidden = true
        query.includeAllBursts = true
        query.sort = [SortKey(key: "creationDate", ascending: false)]
        let ids = try database.assetIDs(matching: query)
        progress.withLock { $0.photosAtStart = ids.count }
        // The cache's size, counted once (it walks the entries) before the first page.
        _ = try? await worker.run { _ in _ = self.cache.trim() }
        publish()
        for page in stride(from: 0, to: ids.count, by: Self.backfillPage) {
            guard !worker.isStopping, !Task.isCancelled else { return }
            let pageIDs = ids[page..<min(ids.count, page + Self.backfillPage)]
            let paths = try pictures(.rowIDs(Array(pageIDs)))
            _ = try? await worker.run { self.make(paths, stopped: $0) }
            guard !worker.isStopping else { return }
            progress.withLock { $0.photosAtStartDone += pageIDs.count }
            publish()
        }
    }

    /// A file to make thumbnails of: a photo, or a video (its poster frame).
    struct Picture: Equatable {
        let path: String
        let isVideo: Bool
    }

    /// Makes every size of every file, until told to stop.
    func make(_ pictures: [Picture], stopped: () -> Bool) {
        for picture in pictures {
            for side in sizes where !stopped() { make(side: side, of: picture) }
        }
    }

    /// Makes one size of one file unless it is kept already.
    func make(side: Int, of picture: Picture) {
        let (path, request) = (picture.path, Self.request(side: side))
        guard let key = ThumbnailDiskCache.Key(fileAt: path, request) else { return }
        guard !cache.contains(key) else {
            progress.withLock { $0.kept += 1 }
            return
        }
        do {
            let image =
                try picture.isVideo ? renderer.render(videoAt: path, request) : renderer.render(fileAt: path, request)
            cache.store(image, for: key)
            progress.withLock { $0.made += 1 }
        } catch {
            progress.withLock { $0.failed += 1 }
            logger.info("no thumbnail", metadata: ["path": "\(path)", "side": "\(side)", "reason": "\(error)"])
        }
    }

    /// The picture of each image or video asset among these: a photo's file (its photo, else
    /// full-size photo, else alternate photo), a video's movie: what `PHImageManager` renders.
    ///
    /// In a library several hosts share, the pictures on other hosts' disks are left to their photosd.
    func pictures(_ keys: ObjectKeys) throws -> [Picture] {
        try database.withAssetRows(keys) { rows in try Self.pictures(&rows) }
            .filter { database.hostHolding(file: $0.path) == nil }
    }

    private static func pictures(_ rows: inout AssetRows) throws -> [Picture] {
        var paths: [Picture] = []
        while let position = rows.assets.position {
            let mediaType = rows.assets.integer(AssetRows.AssetColumn.mediaType)
            let isImage = mediaType == PHAssetMediaType.image.rawValue
            let isVideo = mediaType == PHAssetMediaType.video.rawValue
            try rows.resources.skip(before: position)
            var files: [Int64: String] = [:]
            while rows.resources.position == position {
                let type = rows.resources.integer(AssetRows.ResourceColumn.type)
                if files[type] == nil { files[type] = rows.resources.string(AssetRows.ResourceColumn.path) }
                try rows.resources.advance()
            }
            // The picture PHImageManager renders: a RAW+JPEG pair's RAW when that is its chosen original.
            let rawOriginal = rows.assets.integer(AssetRows.AssetColumn.originalResourceChoice) == 1
            let sources =
                isVideo
                ? PHAssetResourceType.movieSources
                : PHAssetResourceType.pictureSources(edited: true, rawOriginal: rawOriginal)
            let preferred = sources.lazy.compactMap { files[Int64($0.rawValue)] }.first
            if isImage || isVideo, let preferred { paths.append(Picture(path: preferred, isVideo: isVideo)) }
            try rows.assets.advance()
        }
        return paths
    }
}
