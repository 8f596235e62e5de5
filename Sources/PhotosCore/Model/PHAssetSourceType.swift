/// Where an asset comes from. Every asset this library ingests is `typeUserLibrary`.
public struct PHAssetSourceType: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt
    /// Creates a source type set from PhotoKit's bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The user's own library (every asset here).
    public static let typeUserLibrary = PHAssetSourceType(rawValue: 1 << 0)
    /// A shared album's asset.
    public static let typeCloudShared = PHAssetSourceType(rawValue: 1 << 1)
    /// An asset synced from iTunes.
    public static let typeiTunesSynced = PHAssetSourceType(rawValue: 1 << 2)
}

/// How a burst member was selected.
public struct PHAssetBurstSelectionType: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt
    /// Creates a selection type set from PhotoKit's bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The camera picked this photo as one of the best of the burst.
    public static let autoPick = PHAssetBurstSelectionType(rawValue: 1 << 0)
    /// The user picked this photo.
    public static let userPick = PHAssetBurstSelectionType(rawValue: 1 << 1)
}

/// An asset's stars (`PHAsset.rating`, PhotoKit SDK 27). Raw values are PhotoKit's.
public enum PHAssetRating: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// No stars.
    case unset = 0
    /// One star.
    case one = 1
    /// Two stars.
    case two = 2
    /// Three stars.
    case three = 3
    /// Four stars.
    case four = 4
    /// Five stars.
    case five = 5

    /// Fewer stars first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
