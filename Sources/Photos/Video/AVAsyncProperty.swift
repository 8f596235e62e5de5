import Foundation

/// A property of an ``AVAsset`` or ``AVAssetTrack`` that AVFoundation loads asynchronously, named
/// for ``AVAsset/load(_:)`` as in AVFoundation: `try await asset.load(.duration)`.
///
/// Here the file was read when the asset was made, so loading answers at once; it throws
/// the reason the file could not be read (``AVAsset/loadError``) where AVFoundation would fail
/// the load.
public final class AVAsyncProperty<Root, Value>: Sendable {
    private let read: @Sendable (Root) -> Value

    init(_ read: @escaping @Sendable (Root) -> Value) { self.read = read }

    func value(of root: Root) -> Value { read(root) }
}

extension AVAsyncProperty where Root == AVAsset, Value == CMTime {
    /// The length of the longest track.
    public static var duration: AVAsyncProperty<AVAsset, CMTime> { AVAsyncProperty { $0.duration } }
}

extension AVAsyncProperty where Root == AVAsset, Value == [AVAssetTrack] {
    /// The tracks, in the file's order.
    public static var tracks: AVAsyncProperty<AVAsset, [AVAssetTrack]> { AVAsyncProperty { $0.tracks } }
}

extension AVAsyncProperty where Root == AVAsset, Value == Bool {
    /// Whether the file has a video or audio track.
    public static var isPlayable: AVAsyncProperty<AVAsset, Bool> { AVAsyncProperty { $0.isPlayable } }
    /// Whether an export session can copy it.
    public static var isExportable: AVAsyncProperty<AVAsset, Bool> { AVAsyncProperty { $0.isExportable } }
    /// Whether the file can be read.
    public static var isReadable: AVAsyncProperty<AVAsset, Bool> { AVAsyncProperty { $0.isReadable } }
}

extension AVAsyncProperty where Root == AVAssetTrack, Value == CGSize {
    /// The track's stored picture size (before ``AVAssetTrack/preferredTransform``).
    public static var naturalSize: AVAsyncProperty<AVAssetTrack, CGSize> { AVAsyncProperty { $0.naturalSize } }
}

extension AVAsyncProperty where Root == AVAssetTrack, Value == AffineTransform {
    /// How to turn the picture upright.
    public static var preferredTransform: AVAsyncProperty<AVAssetTrack, AffineTransform> {
        AVAsyncProperty { $0.preferredTransform }
    }
}

extension AVAsyncProperty where Root == AVAssetTrack, Value == Float {
    /// Frames a second.
    public static var nominalFrameRate: AVAsyncProperty<AVAssetTrack, Float> {
        AVAsyncProperty { $0.nominalFrameRate }
    }
    /// Bits a second.
    public static var estimatedDataRate: AVAsyncProperty<AVAssetTrack, Float> {
        AVAsyncProperty { $0.estimatedDataRate }
    }
}

extension AVAsyncProperty where Root == AVAssetTrack, Value == AVMediaType {
    /// Video, audio or another kind.
    public static var mediaType: AVAsyncProperty<AVAssetTrack, AVMediaType> { AVAsyncProperty { $0.mediaType } }
}

extension AVAsset {
    /// The value of `property`, as AVFoundation's `load(_:)` gives it; throws why the file could not
    /// be read.
    public func load<T>(_ property: AVAsyncProperty<AVAsset, T>) async throws -> T {
        if let loadError { throw loadError }
        return property.value(of: self)
    }

    /// Two properties at once, as AVFoundation's `load(_:_:)` gives them.
    public func load<A, B>(
        _ first: AVAsyncProperty<AVAsset, A>, _ second: AVAsyncProperty<AVAsset, B>
    ) async throws -> (A, B) {
        if let loadError { throw loadError }
        return (first.value(of: self), second.value(of: self))
    }

    /// The tracks of one media type, as AVFoundation's `loadTracks(withMediaType:)` gives them.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        if let loadError { throw loadError }
        return tracks(withMediaType: mediaType)
    }

    /// The track with that identifier, as AVFoundation's `loadTrack(withTrackID:)` gives it.
    public func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        if let loadError { throw loadError }
        return track(withTrackID: trackID)
    }
}

extension AVAssetTrack {
    /// The value of `property`, as AVFoundation's `load(_:)` gives it.
    public func load<T>(_ property: AVAsyncProperty<AVAssetTrack, T>) async throws -> T { property.value(of: self) }

    /// Two properties at once, as AVFoundation's `load(_:_:)` gives them.
    public func load<A, B>(
        _ first: AVAsyncProperty<AVAssetTrack, A>, _ second: AVAsyncProperty<AVAssetTrack, B>
    ) async throws -> (A, B) {
        (first.value(of: self), second.value(of: self))
    }
}
