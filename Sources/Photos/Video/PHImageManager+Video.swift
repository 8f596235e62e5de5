import Foundation
import PhotosImaging

/// Video requests: the asset's movie as an ``AVAsset``, an ``AVPlayerItem`` or an
/// ``AVAssetExportSession``.
///
/// ```swift
/// PHImageManager.default().requestAVAsset(forVideo: asset, options: nil) { avAsset, audioMix, info in
///     guard let avAsset = avAsset as? AVURLAsset else { return }
///     print(avAsset.url.path, avAsset.duration.seconds)
/// }
/// ```
///
/// Each is delivered once, on the manager's worker threads, after FFmpeg has read the file's
/// tracks. An asset that is not a video gives `requestNotSupportedForAsset`, a file gone since the
/// scan `missingResource`, one FFmpeg cannot read `invalidResource`, each with the file and the
/// reason in ``PHImageErrorKey``. No audio mix is ever given (there are no edits to mix).
extension PHImageManager {
    /// Requests the video's ``AVAsset`` (an ``AVURLAsset`` of its file).
    @discardableResult
    public func requestAVAsset(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVAsset?, AVAudioMix?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        return requestVideo(asset, options, make: { $0 }) { resultHandler($0, nil, $1) }
    }

    /// Requests an ``AVPlayerItem`` playing the video.
    @discardableResult
    public func requestPlayerItem(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?,
        resultHandler: @escaping (AVPlayerItem?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        return requestVideo(asset, options, make: { AVPlayerItem(asset: $0) }, deliver: resultHandler)
    }

    /// Requests an ``AVAssetExportSession`` of the video with `exportPreset`: only
    /// ``AVAssetExportPresetPassthrough`` (a copy) is supported; another preset gives
    /// `requestNotSupportedForAsset`.
    @discardableResult
    public func requestExportSession(
        forVideo asset: PHAsset, options: PHVideoRequestOptions?, exportPreset: String,
        resultHandler: @escaping (AVAssetExportSession?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let resultHandler = callerHandler(resultHandler)
        return requestVideo(
            asset, options,
            make: { video in
                guard let session = AVAssetExportSession(asset: video, presetName: exportPreset) else {
                    throw PHPhotosError(
                        .requestNotSupportedForAsset,
                        "the export preset \(exportPreset) re-encodes, and Linux has no encoder behind it: "
                            + "use AVAssetExportPresetPassthrough",
                        localIdentifiers: [asset.localIdentifier])
                }
                return session
            }, deliver: resultHandler)
    }

    /// One video request: on a worker, the movie's resource read by FFmpeg, made into `Result`
    /// by `make`, delivered once (nil with the error or the cancellation in the info).
    private func requestVideo<Result>(
        _ asset: PHAsset, _ options: PHVideoRequestOptions?, make: @escaping @Sendable (AVURLAsset) throws -> Result,
        deliver: @escaping @Sendable (Result?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let progress = options?.progressHandler.map(callerHandler)
        let version = options?.version ?? .current
        let id = register()
        queue.async { [self] in
            defer { finish(id) }
            var info: [AnyHashable: Any] = [PHImageResultRequestIDKey: id, PHImageResultIsInCloudKey: false]
            func report(_ stage: Double) {
                guard let progress else { return }
                var stop: ObjCBool = false
                progress(stage, nil, &stop, [PHImageResultRequestIDKey: id])
                if stop.boolValue { cancelImageRequest(id) }
            }
            func cancelled() -> Bool {
                guard isCancelled(id) else { return false }
                info[PHImageCancelledKey] = true
                deliver(nil, info)
                return true
            }
            do {
                guard !cancelled() else { return }
                let resource = try Self.videoResource(of: asset, edited: version == .current)
                report(0)
                guard !cancelled() else { return }
                let video = AVURLAsset(url: resource.fileURL)
                if let error = video.loadError { throw Self.error(error, asset: asset) }
                let result = try make(video)
                report(1)
                guard !cancelled() else { return }
                deliver(result, info)
            } catch {
                info[PHImageErrorKey] = error
                deliver(nil, info)
            }
        }
        return id
    }
}
