/// Variants of an asset's media type: panoramas, screenshots, Live Photos, slow motion and so on.
///
/// Bit values are PhotoKit's, so bitmask predicates port unchanged:
/// ```swift
/// NSPredicate(format: "(mediaSubtypes & %d) != 0", PHAssetMediaSubtype.photoScreenshot.rawValue)
/// ```
public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt
    /// Creates a subtype set from PhotoKit's bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// A panorama.
    public static let photoPanorama = PHAssetMediaSubtype(rawValue: 1 << 0)
    /// A high dynamic range photo.
    public static let photoHDR = PHAssetMediaSubtype(rawValue: 1 << 1)
    /// A screenshot.
    public static let photoScreenshot = PHAssetMediaSubtype(rawValue: 1 << 2)
    /// A Live Photo: a still with a paired video.
    public static let photoLive = PHAssetMediaSubtype(rawValue: 1 << 3)
    /// A photo with a depth effect (Portrait mode).
    public static let photoDepthEffect = PHAssetMediaSubtype(rawValue: 1 << 4)
    /// An animated image (GIF, APNG, animated WebP).
    public static let photoAnimation = PHAssetMediaSubtype(rawValue: 1 << 6)
    /// Spatial media.
    public static let spatialMedia = PHAssetMediaSubtype(rawValue: 1 << 10)
    /// A streamed video.
    public static let videoStreamed = PHAssetMediaSubtype(rawValue: 1 << 16)
    /// A high frame rate (slow motion) video.
    public static let videoHighFrameRate = PHAssetMediaSubtype(rawValue: 1 << 17)
    /// A time-lapse video.
    public static let videoTimelapse = PHAssetMediaSubtype(rawValue: 1 << 18)
    /// A screen recording.
    public static let videoScreenRecording = PHAssetMediaSubtype(rawValue: 1 << 19)
    /// A Cinematic mode video.
    public static let videoCinematic = PHAssetMediaSubtype(rawValue: 1 << 21)

    /// Every named subtype with its PhotoKit case name, in bit order.
    public static let named: [(name: String, subtype: PHAssetMediaSubtype)] = [
        ("photoPanorama", .photoPanorama), ("photoHDR", .photoHDR), ("photoScreenshot", .photoScreenshot),
        ("photoLive", .photoLive), ("photoDepthEffect", .photoDepthEffect), ("photoAnimation", .photoAnimation),
        ("spatialMedia", .spatialMedia), ("videoStreamed", .videoStreamed),
        ("videoHighFrameRate", .videoHighFrameRate), ("videoTimelapse", .videoTimelapse),
        ("videoScreenRecording", .videoScreenRecording), ("videoCinematic", .videoCinematic),
    ]

    /// The PhotoKit case names of the bits set, as used in JSON (`["photoLive"]`).
    public var names: [String] {
        Self.named.filter { contains($0.subtype) }.map(\.name)
    }
}
