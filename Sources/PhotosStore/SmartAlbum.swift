import PhotosCore

/// A smart album: a collection whose members are computed from the assets' own properties.
///
/// Smart albums are rows of the `collection` table (so they have stable local identifiers and can be
/// fetched like any collection), but their members are the assets matching ``condition``.
public struct SmartAlbum: Sendable, Hashable {
    /// PhotoKit's subtype for this album.
    public let subtype: PHAssetCollectionSubtype
    /// The title PhotoKit shows (English).
    public let title: String
    /// A SQL condition on the `asset` table that selects the members.
    public let condition: String
    /// Whether the album lists hidden assets (only "Hidden" and "Recently Deleted" do).
    public let includesHidden: Bool
    /// Whether the members are the trashed assets (``TrashedAsset``), not rows of `asset`: only
    /// "Recently Deleted" (``AssetQuery`` reads their kept records).
    public var readsTrash: Bool { subtype == .smartAlbumRecentlyDeleted }
    /// Whether fetches of every subtype (`.any`) list it: all but "Recently Deleted", which is
    /// fetched by its subtype or identifier only (`PHAssetCollectionSubtype.smartAlbumRecentlyDeleted`).
    public var isListed: Bool { !readsTrash }
    /// The order smart albums are listed in.
    public let position: Int

    /// The stable local identifier, the same in every library.
    public var localIdentifier: String {
        let digits = String(subtype.rawValue)
        return "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits
            + LocalIdentifier.suffix(.assetCollection)
    }

    /// How long an asset counts as recently added.
    public static let recentlyAddedInterval: Double = 30 * 24 * 3600

    /// Every smart album this library can derive, in display order.
    public static let all: [SmartAlbum] = {
        let subtypes: [(PHAssetCollectionSubtype, String, String)] = [
            (.smartAlbumUserLibrary, "Recents", "1"),
            (.smartAlbumFavorites, "Favorites", "asset.isFavorite = 1"),
            (
                .smartAlbumRecentlyAdded, "Recently Added",
                "asset.addedDate >= (CAST(strftime('%s','now') AS REAL) - \(Int(recentlyAddedInterval)))"
            ),
            (.smartAlbumVideos, "Videos", "asset.mediaType = \(PHAssetMediaType.video.rawValue)"),
            (.smartAlbumSelfPortraits, "Selfies", "asset.isSelfie = 1"),
            (.smartAlbumScreenshots, "Screenshots", bit(.photoScreenshot)),
            (.smartAlbumScreenRecordings, "Screen Recordings", bit(.videoScreenRecording)),
            (.smartAlbumPanoramas, "Panoramas", bit(.photoPanorama)),
            (.smartAlbumLivePhotos, "Live Photos", bit(.photoLive)),
            (.smartAlbumDepthEffect, "Portrait", bit(.photoDepthEffect)),
            (.smartAlbumBursts, "Bursts", "asset.burstIdentifier IS NOT NULL"),
            (.smartAlbumSlomoVideos, "Slo-mo", bit(.videoHighFrameRate)),
            (.smartAlbumTimelapses, "Time-lapse", bit(.videoTimelapse)),
            (.smartAlbumCinematic, "Cinematic", bit(.videoCinematic)),
            (.smartAlbumSpatial, "Spatial", bit(.spatialMedia)),
            (.smartAlbumAnimated, "Animated", bit(.photoAnimation)),
            (.smartAlbumRAW, "RAW", "asset.isRAW = 1"),
            (.smartAlbumAllHidden, "Hidden", "asset.isHidden = 1"),
            // Every trashed asset: its members come from the trash, not the asset table.
            (.smartAlbumRecentlyDeleted, "Recently Deleted", "1"),
        ]
        return subtypes.enumerated().map { index, entry in
            SmartAlbum(
                subtype: entry.0, title: entry.1, condition: entry.2,
                includesHidden: entry.0 == .smartAlbumAllHidden || entry.0 == .smartAlbumRecentlyDeleted,
                position: index)
        }
    }()

    /// ``condition`` in an engine's SQL.
    func condition(_ dialect: SQLDialect) -> String {
        switch subtype {
        case .smartAlbumRecentlyAdded: "asset.addedDate >= (\(dialect.now) - \(Int(Self.recentlyAddedInterval)))"
        default: condition == "1" ? dialect.boolean(true) : condition
        }
    }

    /// The smart album of a subtype, if this library derives it.
    public static func album(for subtype: PHAssetCollectionSubtype) -> SmartAlbum? {
        all.first { $0.subtype == subtype }
    }

    /// Adds the rows of smart albums a library made by an earlier build lacks, and puts every smart
    /// album at its place in ``all`` (a migration's step: new albums join old libraries).
    static func insertMissing(_ db: some StoreConnection) throws {
        for album in all {
            try db.execute(
                """
                INSERT INTO collection (localIdentifier, isList, type, subtype, title, position, createdDate)
                VALUES (?, 0, ?, ?, ?, ?, 0) ON CONFLICT (localIdentifier) DO NOTHING
                """,
                [
                    .text(album.localIdentifier), .int(Int64(PHAssetCollectionType.smartAlbum.rawValue)),
                    .int(Int64(album.subtype.rawValue)), .text(album.title), .int(Int64(album.position)),
                ])
            try db.execute(
                "UPDATE collection SET position = ? WHERE localIdentifier = ?",
                [.int(Int64(album.position)), .text(album.localIdentifier)])
        }
    }

    private static func bit(_ subtype: PHAssetMediaSubtype) -> String {
        "(asset.mediaSubtypes & \(subtype.rawValue)) != 0"
    }
}
