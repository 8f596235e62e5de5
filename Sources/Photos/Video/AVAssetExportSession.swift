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

    private struct Shared {
        var outputURL: URL?
        var outputFileType: AVFileType?
        var status = Status.unknown
        var error: (any Error)?
        var cancelled = false
        /// The `states(updateInterval:)` sequences being iterated, told of each change of status.
        var watchers: [Int: AsyncStream<AVAssetExportSession.State>.Continuation] = [:]
        var nextWatcher = 0

        /// The status as iOS 18's `State` says it, or nil once the export is over.
        func published(_ progress: Progress) -> AVAssetExportSession.State? {
            switch status {
            case .unknown: .pending
            case .waiting: .waiting
            case .exporting: .exporting(progress: progress)
            case .completed, .failed, .cancelled: nil
            }
        }
    }

    /// The asset exported.
    public let asset: AVAsset
    /// The preset given.
    public let presetName: String
    private let state = Mutex(Shared())
    /// The export's progress as iOS 18's `State.exporting(progress:)` gives it: one unit, done
    /// when the copy is written.
    private let exportProgress = Progress(totalUnitCount: 1)

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
        let output = update { state -> URL? in
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
            update { $0.status = .exporting }
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
        update { state in
            state.cancelled = true
            if state.status == .unknown || state.status == .waiting { state.status = .cancelled }
        }
    }

    private func finish(_ status: Status, _ error: (any Error)?) {
        if status == .completed { exportProgress.completedUnitCount = 1 }
        update { state in
            state.status = status
            state.error = error
        }
    }

    /// Changes the state, then tells the `states(updateInterval:)` sequences: the new state, or
    /// their end once the export is over.
    private func update<T: Sendable>(_ body: (inout Shared) -> T) -> T {
        let (result, watchers, published) = state.withLock { state in
            let before = state.status
            let result = body(&state)
            let watchers = state.status == before ? [] : Array(state.watchers.values)
            let published = state.published(exportProgress)
            if published == nil { state.watchers = [:] }
            return (result, watchers, published)
        }
        for watcher in watchers {
            if let published { watcher.yield(published) } else { watcher.finish() }
        }
        return result
    }

}

extension AVAssetExportSession {
    /// Where an export is, as ``states(updateInterval:)`` reports it (iOS 18's
    /// `AVAssetExportSession.State`); the sequence ends when the export is over, and
    /// ``status`` and ``error`` then say how.
    public enum State: Sendable {
        /// Not started.
        case pending
        /// Asked for, not yet copying.
        case waiting
        /// Copying; `progress` completes its one unit when the copy is written.
        case exporting(progress: Progress)
    }

    /// Writes the asset to `url` as `fileType` and returns when the file is written (iOS 18's
    /// form, which replaces ``outputURL``, ``outputFileType`` and
    /// ``exportAsynchronously(completionHandler:)``).
    ///
    /// ```swift
    /// let session = AVAssetExportSession(asset: video, presetName: AVAssetExportPresetPassthrough)!
    /// try await session.export(to: URL(fileURLWithPath: "/tmp/clip.mov"), as: .mov)
    /// ```
    ///
    /// Throws the copy's error (a `url` that exists is left as it was, and the export fails), a
    /// `PHPhotosError` with `invalidResource` for a `fileType` that is not among
    /// ``supportedFileTypes``, and `CancellationError` when the task is cancelled before the
    /// copy starts (the session is then cancelled, as ``cancelExport()`` does).
    public final func export(
        to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        guard supportedFileTypes.contains(fileType) else {
            throw PHPhotosError(
                .invalidResource,
                "a passthrough export of \(asset.fileURL.lastPathComponent) cannot write \(fileType.rawValue)")
        }
        outputURL = url
        outputFileType = fileType
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                exportAsynchronously { continuation.resume() }
            }
        } onCancel: {
            cancelExport()
        }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? PHPhotosError(.internalError, "the export of \(url.path) did not finish")
        }
    }

    /// The export's states as it goes, from the current one, ending when the export is over
    /// (iOS 18). A state is reported when it changes: a passthrough copy has no progress
    /// between its start and its end, so `updateInterval` (which must be more than 0) sets no
    /// pace here.
    ///
    /// ```swift
    /// Task { for await state in session.states(updateInterval: 0.5) { print(state) } }
    /// try await session.export(to: destination, as: .mov)
    /// ```
    public func states(updateInterval: TimeInterval = .infinity) -> some Sendable & AsyncSequence<State, Never> {
        precondition(updateInterval > 0, "states(updateInterval:) needs an interval more than 0")
        let (stream, continuation) = AsyncStream<State>.makeStream()
        let current = state.withLock { state -> State? in
            guard let published = state.published(exportProgress) else { return nil }
            state.watchers[state.nextWatcher] = continuation
            state.nextWatcher += 1
            return published
        }
        if let current { continuation.yield(current) } else { continuation.finish() }
        return stream
    }
}
