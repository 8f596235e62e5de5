/// photosd's thumbnails made ahead (`thumbnail_sizes`), as its status file and `photos status
/// --json` carry them under `thumbnails`.
public struct ThumbnailStatus: Codable, Sendable, Hashable {
    /// The sides of the square boxes made.
    public var sizes: [Int]
    /// The disk cache's directory.
    public var directory: String
    /// Its bound, in bytes.
    public var maximumBytes: Int
    /// What its entries held when last counted (at the start, and when it passed the bound), plus
    /// what was written since; nil before the first count.
    public var bytes: Int?
    /// Thumbnails made since the daemon started.
    public var made: Int
    /// Thumbnails asked for that were kept already.
    public var kept: Int
    /// Files that could not be rendered (each logged).
    public var failed: Int
    /// Photos and videos the library held when the daemon started.
    public var photosAtStart: Int
    /// How many of those are done (every size made or kept).
    public var photosAtStartDone: Int

    /// A status with nothing made yet.
    public init(sizes: [Int], directory: String, maximumBytes: Int) {
        self.sizes = sizes
        self.directory = directory
        self.maximumBytes = maximumBytes
        made = 0
        kept = 0
        failed = 0
        photosAtStart = 0
        photosAtStartDone = 0
    }
}
