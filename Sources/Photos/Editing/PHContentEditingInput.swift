import Foundation
import PhotosCore
import PhotosImaging
import PhotosLinux
import PhotosStore
import Synchronization

/// Identifies a content editing input request, to cancel it.
public typealias PHContentEditingInputRequestID = Int

/// Info key: whether the asset is in iCloud (always false: every file is local).
public let PHContentEditingInputResultIsInCloudKey = "PHContentEditingInputResultIsInCloudKey"
/// Info key: the request was cancelled.
public let PHContentEditingInputCancelledKey = "PHContentEditingInputCancelledKey"
/// Info key: why there is no input (a `PHPhotosError`).
public let PHContentEditingInputErrorKey = "PHContentEditingInputErrorKey"

/// Options of ``PHAsset/requestContentEditingInput(with:completionHandler:)``.
// @unchecked: the caller sets the options before the request; its worker thread only reads them (PhotoKit's contract).
public class PHContentEditingInputRequestOptions: NSObject, @unchecked Sendable {
    /// Asked with an edited asset's adjustment data: true when the app can change that edit, and
    /// the input is then the picture the edit was made on with the edit's adjustment data; false
    /// (the default) gives the picture as it looks now, to edit further, and no adjustment data.
    public var canHandleAdjustmentData: (PHAdjustmentData) -> Bool = { _ in false }
    /// Accepted for PhotoKit's sake; there is no network to allow.
    public var isNetworkAccessAllowed = false
    /// Called with 0 before the input is made and 1 after; setting `stop` cancels the request.
    public var progressHandler: ((Double, UnsafeMutablePointer<ObjCBool>) -> Void)?
    /// Which original of a RAW+JPEG asset to give when the input is the asset's original (SDK 27):
    /// once set, the request is answered as though it were the asset's own
    /// ``PHAsset/originalResourceChoice`` (the asset's is not changed); unset, the asset's applies.
    /// Set for an asset that is not a RAW+JPEG pair, the request fails with `requestNotSupportedForAsset`.
    public var originalResourceChoice: PHAsset.OriginalResourceChoice {
        get { chosenOriginal ?? .compressed }
        set { chosenOriginal = newValue }
    }
    /// The choice set, if any.
    private(set) var chosenOriginal: PHAsset.OriginalResourceChoice?

    /// Options with PhotoKit's defaults.
    public override init() {}
}

/// What an editing app edits: the asset's picture or movie to start from and, when the app can
/// change an earlier edit, that edit's adjustment data.
///
/// ```swift
/// asset.requestContentEditingInput(with: nil) { input, info in
///     guard let input, let url = input.fullSizeImageURL else { return print(info) }
///     let output = PHContentEditingOutput(contentEditingInput: input)
///     output.adjustmentData = PHAdjustmentData(formatIdentifier: "org.example.sepia", formatVersion: "1.0", data: settings)
///     try! sepia(url).write(to: output.renderedContentURL)   // a JPEG
///     try! PHPhotoLibrary.shared().performChangesAndWait {
///         PHAssetChangeRequest(for: asset).contentEditingOutput = output
///     }
/// }
/// ```
public final class PHContentEditingInput: NSObject, Sendable {
    /// The asset's media type.
    public let mediaType: PHAssetMediaType
    /// The asset's subtypes.
    public let mediaSubtypes: PHAssetMediaSubtype
    /// When the asset was taken.
    public let creationDate: Date?
    /// Where the asset was taken.
    public let location: CLLocation?
    /// The uniform type identifier of the file to edit (``fullSizeImageURL``'s, or the movie's).
    public let uniformTypeIdentifier: String?
    /// The type of the file to edit (iOS 26): ``uniformTypeIdentifier`` as a ``UTType``.
    public var contentType: UTType? { uniformTypeIdentifier.map { UTType(importedAs: $0) } }
    /// How the asset is played back.
    public let playbackStyle: PHAsset.PlaybackStyle
    /// The earlier edit's adjustment data, when ``PHContentEditingInputRequestOptions/canHandleAdjustmentData``
    /// accepted it; nil otherwise (the picture is then the edited one).
    public let adjustmentData: PHAdjustmentData?
    /// The photo to edit, for a photo: the original (a RAW+JPEG asset's RAW when that is the
    /// original chosen, as LibRaw or any RAW developer reads it), the picture an accepted edit was
    /// made on, or the asset as it looks now. Read it; never write it (it may be the user's own file).
    public let fullSizeImageURL: URL?
    /// The EXIF orientation of ``fullSizeImageURL`` (1 = up), as `CGImagePropertyOrientation` raw values.
    public let fullSizeImageOrientation: Int32
    /// The movie to edit, for a video.
    public let audiovisualAsset: AVAsset?
    /// PhotoKit's Live Photo editing is not available; nil (a Live Photo's still is edited as a photo).
    public let livePhoto: PHLivePhoto? = nil

    /// The asset this input is for.
    let assetIdentifier: String
    /// The library the asset is in.
    let library: PHPhotoLibrary
    /// What the picture or movie is: the edit's output records it, so that the commit knows what
    /// the new render was made over.
    let basis: EditBasis
    private let displayImage = Mutex<UIImage??>(nil)

    init(
        asset: PHAsset, library: PHPhotoLibrary, basis: EditBasis, file: ResourceRecord,
        adjustmentData: PHAdjustmentData?, orientation: Int32
    ) {
        mediaType = asset.mediaType
        mediaSubtypes = asset.mediaSubtypes
        creationDate = asset.creationDate
        location = asset.location
        playbackStyle = asset.playbackStyle
        uniformTypeIdentifier = file.uniformTypeIdentifier
        self.adjustmentData = adjustmentData
        let url = URL(fileURLWithPath: file.path)
        fullSizeImageURL = asset.mediaType == .image ? url : nil
        fullSizeImageOrientation = orientation
        audiovisualAsset = asset.mediaType == .video ? AVURLAsset(url: url) : nil
        assetIdentifier = asset.localIdentifier
        self.library = library
        self.basis = basis
        super.init()
    }

    /// The picture to edit, upright, fitting 1,024 pixels a side, for showing while editing; for a
    /// video, its first frame. Made on first use (nil when the file cannot be decoded).
    public var displaySizeImage: UIImage? {
        displayImage.withLock { image in
            if let image { return image }
            let request = ImageRequest(target: PixelSize(width: 1024, height: 1024))
            let path = fullSizeImageURL?.path ?? (audiovisualAsset as? AVURLAsset)?.url.path
            let made = path.flatMap { path in
                try?
                    (mediaType == .video
                    ? Self.renderer.render(videoAt: path, request) : Self.renderer.render(fileAt: path, request))
            }.map(UIImage.init(rendered:))
            image = .some(made)
            return made
        }
    }

    static let renderer = ImageRenderer()
    /// Reads headers of any size (the orientation of a file too large to render is still known).
    static let headers = ImageRenderer(limits: .init(maximumPixelCount: .max))
}

/// What an edit's input picture or movie is, as the commit checks it.
enum EditBasis: Sendable, Equatable {
    /// The asset's own photo or video: the new edit replaces any earlier one.
    case original
    /// The picture an earlier edit was made on (its `adjustmentBase…` resource, by row id): the
    /// new edit changes that edit, over the same base.
    case base(Int64)
    /// The earlier edit's render (its `fullSize…` resource, by row id): the new edit goes over it,
    /// and it becomes the new edit's base.
    case render(Int64)
}

/// Content editing input requests not yet finished, and whether each was cancelled.
private let contentEditingRequests = Mutex<(next: Int, active: [Int: Bool])>((1, [:]))

extension PHAsset {
    /// Asks for what an editing app needs to edit the asset: ``PHContentEditingInput``, given to
    /// `completionHandler` on a worker thread (not the main thread: a Linux program need not run
    /// a main loop), or nil with ``PHContentEditingInputErrorKey`` or
    /// ``PHContentEditingInputCancelledKey`` in the info.
    ///
    /// Errors: `requestNotSupportedForAsset` for an asset that is neither photo nor video,
    /// `missingResource` when its file is not in the library.
    @discardableResult
    public func requestContentEditingInput(
        with options: PHContentEditingInputRequestOptions?,
        completionHandler: @escaping (PHContentEditingInput?, [AnyHashable: Any]) -> Void
    ) -> PHContentEditingInputRequestID {
        let completionHandler = callerHandler(completionHandler)
        let options = options ?? PHContentEditingInputRequestOptions()
        let id = contentEditingRequests.withLock { state in
            let id = state.next
            state.next = state.next == .max ? 1 : state.next + 1
            state.active[id] = false
            return id
        }
        // A thread of its own, not the global queue (whose threads on Linux are Swift concurrency's,
        // one per core): code that waits for the input with a semaphore, as PhotoKit code often
        // does, would otherwise block the thread the input needs. A `SystemThread`, not Foundation's
        // `Thread`, which keeps its closure (this asset, maybe the last reference to its library)
        // until after libdispatch has torn the thread's state down (see `SystemThread`).
        let request: @Sendable () -> Void = { [self] in
            func cancelled() -> Bool { contentEditingRequests.withLock { $0.active[id] ?? false } }
            func report(_ fraction: Double) {
                guard let progress = options.progressHandler else { return }
                var stop: ObjCBool = false
                progress(fraction, &stop)
                if stop.boolValue { cancelContentEditingInputRequest(id) }
            }
            var info: [AnyHashable: Any] = [PHContentEditingInputResultIsInCloudKey: false]
            defer { _ = contentEditingRequests.withLock { $0.active.removeValue(forKey: id) } }
            report(0)
            guard !cancelled() else {
                info[PHContentEditingInputCancelledKey] = true
                return completionHandler(nil, info)
            }
            let input: PHContentEditingInput
            do {
                input = try makeContentEditingInput(options)
            } catch {
                info[PHContentEditingInputErrorKey] = error
                return completionHandler(nil, info)
            }
            report(1)
            guard !cancelled() else {
                info[PHContentEditingInputCancelledKey] = true
                return completionHandler(nil, info)
            }
            completionHandler(input, info)
        }
        do {
            try SystemThread(name: "photos-editing", request).detach()
        } catch {
            // No thread to be had (the kernel's limit): the input is made here.
            request()
        }
        return id
    }

    /// Cancels a content editing input request: its handler gets nil and
    /// ``PHContentEditingInputCancelledKey`` unless the input was already given.
    public func cancelContentEditingInputRequest(_ requestID: PHContentEditingInputRequestID) {
        contentEditingRequests.withLock { state in
            if state.active[requestID] != nil { state.active[requestID] = true }
        }
    }

    /// The input, from the asset's files as the library has them now.
    private func makeContentEditingInput(_ options: PHContentEditingInputRequestOptions) throws -> PHContentEditingInput
    {
        guard mediaType == .image || mediaType == .video else {
            throw PHPhotosError(
                .requestNotSupportedForAsset, "only photos and videos can be edited (this asset is \(mediaType))",
                localIdentifiers: [localIdentifier])
        }
        guard let library, let rowID else {
            throw PHPhotosError(.identifierNotFound, "the asset is in no library", localIdentifiers: [localIdentifier])
        }
        let records: [ResourceRecord]
        do {
            records = try library.database.resources(assetIDs: [rowID])[rowID] ?? []
        } catch {
            throw PHPhotoLibrary.photosError(error)
        }
        let isVideo = mediaType == .video
        func first(_ types: [PHAssetResourceType]) -> ResourceRecord? {
            types.lazy.compactMap { type in records.first { $0.type == type.rawValue } }.first
        }
        if let chosen = options.chosenOriginal, !PHAsset.isRAWPlusCompressedPair(records) {
            throw PHPhotosError(
                .requestNotSupportedForAsset,
                "originalResourceChoice (\(chosen)) applies to RAW+JPEG assets only: this asset has no "
                    + "compressed photo with a RAW alternate", localIdentifiers: [localIdentifier])
        }
        // The original is the one the options choose, else the asset's choice.
        guard let original = first(isVideo ? [.video] : pictureSources(edited: false, choice: options.chosenOriginal))
        else {
            if let reason = library.unavailabilityReason { throw reason }
            throw PHPhotosError(
                .missingResource, "the asset has no \(isVideo ? "video" : "photo") resource",
                localIdentifiers: [localIdentifier])
        }
        let render = first(isVideo ? [.fullSizeVideo] : [.fullSizePhoto])
        let base = first(isVideo ? [.adjustmentBaseVideo] : [.adjustmentBasePhoto])
        let adjustment = first([.adjustmentData]).flatMap { record in
            (try? Data(contentsOf: URL(fileURLWithPath: record.path))).flatMap(AdjustmentEnvelope.decode)
        }

        // The app that can change the earlier edit gets what it was made on; any other gets the
        // asset as it looks now, to edit over.
        let file: ResourceRecord
        let basis: EditBasis
        var given: PHAdjustmentData?
        if let adjustment, options.canHandleAdjustmentData(adjustment) {
            given = adjustment
            if let base, let id = base.id {
                (file, basis) = (base, .base(id))
            } else {
                (file, basis) = (original, .original)
            }
        } else if let render, let id = render.id {
            (file, basis) = (render, .render(id))
        } else {
            (file, basis) = (original, .original)
        }
        var orientation: Int32 = 1
        if !isVideo, let header = try? PHContentEditingInput.headers.header(ofFileAt: file.path) {
            orientation = Int32(header.orientation)
        }
        return PHContentEditingInput(
            asset: self, library: library, basis: basis, file: file, adjustmentData: given, orientation: orientation)
    }
}
