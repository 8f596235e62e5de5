import Foundation
import Synchronization

/// A container type an export writes.
public struct AVFileType: RawRepresentable, Sendable, Hashable {
    /// The container's uniform type identifier.
    public let rawValue: String
    /// The type with that identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// QuickTime (`.mov`).
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// MPEG-4 (`.mp4`).
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// Apple's MPEG-4 variant (`.m4v`).
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
}

/// The export preset that copies the tracks as they are: the one preset Linux exports with.
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
/// Presets that re-encode; Linux has no encoder behind them (``PHImageManager`` refuses them).
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
/// A re-encoding preset (refused: see ``AVAssetExportPresetHighestQuality``).
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
/// A re-encoding preset (refused: see ``AVAssetExportPresetHighestQuality``).
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"

/// Writes an asset's file to a new one: AVFoundation's `AVAssetExportSession`, with the
/// passthrough preset only (a copy, as AVFoundation's passthrough of an unedited file is).
///
/// ```swift
/// PHImageManager.default().requestExportSession(
///     forVideo: asset, options: nil, exportPreset: AVAssetExportPresetPassthrough
/// ) { session, info in
///     guard let session else { return }
///     session.outputURL = URL(fileURLWithPath: "/tmp/clip.mov")
///     session.outputFileType = .mov
///     session.exportAsynchronously { print(session.status, session.error ?? "done") }
/// }
/// ```
///
/// The output is written as a new file: a name that exists (or is taken while the copy runs)
/// fails the export and is left as it was. The source file is only read.
public final class AVAssetExportSession: NSObject, Sendable {
    /// Where an export is.
    public enum Status: Int, Sendable, Hashable {
        /// Not started; `waiting` once asked, `exporting` while copying; then one of the last three.
        case unknown, waiting, exporting, completed, failed, cancelled
    }

    private struct State {
        var outputURL: URL?
        var outputFileType: AVFileType?
        var status = Status.unknown
        var error: (any Error)?
        var cancelled = false
    }

    /// The asset exported.
    public let asset: AVAsset
    /// The preset given.
    public let presetName: String
    private let state = Mutex(State())

    /// A session exporting `asset` with `presetName`; nil for any preset but
    /// ``AVAssetExportPresetPassthrough`` (there is no encoder behind the others) or an asset
    /// that cannot be read.
    public init?(asset: AVAsset, presetName: String) {
        guard presetName == AVAssetExportPresetPassthrough, asset.isExportable else { return nil }
        self.asset = asset
        self.presetName = presetName
        super.init()
    }

    /// The file to write; it must not exist.
    public var outputURL: URL? {
        get { state.withLock { $0.outputURL } }
        set { state.withLock { $0.outputURL = newValue } }
    }

    /// The container to write; a passthrough writes the source's own.
    public var outputFileType: AVFileType? {
        get { state.withLock { $0.outputFileType } }
        set { state.withLock { $0.outputFileType = newValue } }
    }

    /// The container types the session writes: the source's own (`.mov` for QuickTime, `.mp4`
    /// for MPEG-4).
    public var supportedFileTypes: [AVFileType] {
        switch asset.fileURL.pathExtension.lowercased() {
        case "mov", "qt": [.mov]
        case "mp4": [.mp4]
        case "m4v": [.m4v, .mp4]
        default: [.mov, .mp4]
        }
    }

    /// Where the export is.
    public var status: Status { state.withLock { $0.status } }
    /// Why the export failed.
    public var error: (any Error)? { state.withLock { $0.error } }
    /// 0 until the copy is written, then 1.
    public var progress: Float { status == .completed ? 1 : 0 }

    /// Copies the asset's file to ``outputURL`` on a queue of its own, then calls the handler.
    public func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let output = state.withLock { state -> URL? in
            guard !state.cancelled else { return nil }
            state.status = .waiting
            return state.outputURL
        }
        DispatchQueue(label: "photos.export-session").async { [self] in
            defer { handler() }
            guard state.withLock({ $0.status == .waiting }) else { return }
            guard let output else {
                return finish(
                    .failed,
                    PHPhotosError(.internalError, "the export session has no outputURL"))
            }
            state.withLock { $0.status = .exporting }
            do {
                try ResourceFileCopy.copy(asset.fileURL.path, to: output.path)
                finish(.completed, nil)
            } catch {
                finish(.failed, error)
            }
        }
    }

    /// Exports as ``exportAsynchronously(completionHandler:)`` does and returns when it is over
    /// (the form Swift gives AVFoundation's completion-handler method); ``status`` and ``error``
    /// then say how it ended.
    ///
    /// ```swift
    /// await session.export()
    /// if session.status == .failed { print(session.error!) }
    /// ```
    public func export() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            exportAsynchronously { continuation.resume() }
        }
    }

    /// Cancels an export that has not started copying; one that has finishes.
    public func cancelExport() {
        state.withLock { state in
            state.cancelled = true
            if state.status == .unknown || state.status == .waiting { state.status = .cancelled }
        }
    }

    private func finish(_ status: Status, _ error: (any Error)?) {
        state.withLock { state in
            state.status = status
            state.error = error
        }
    }
}
