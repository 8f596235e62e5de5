/// The type of an asset's content: image, video or audio.
///
/// Raw values are PhotoKit's, so they can be stored and compared in predicates:
/// ```swift
/// NSPredicate(format: "mediaType == %d", PHAssetMediaType.video.rawValue)
/// ```
public enum PHAssetMediaType: Int, Sendable, Hashable, CaseIterable, Codable {
    /// The type cannot be determined.
    case unknown = 0
    /// A still image (including a Live Photo's still).
    case image = 1
    /// A video.
    case video = 2
    /// An audio file.
    case audio = 3

    /// The PhotoKit case name, as used in JSON (`"image"`).
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .image: "image"
        case .video: "video"
        case .audio: "audio"
        }
    }

    /// The case whose `name` this is.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
