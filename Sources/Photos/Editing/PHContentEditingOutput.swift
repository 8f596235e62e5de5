import Foundation
import PhotosLinux
import PhotosStore

/// An edit to commit: the app's adjustment data and the rendered picture or movie, written by the
/// app to ``renderedContentURL`` (a JPEG for a photo, a QuickTime movie for a video) before the
/// change block that sets ``PHAssetChangeRequest/contentEditingOutput``.
///
/// The render is written into the library's own folder (`.staging` of its import folder); the
/// commit moves it into place beside the adjustment data (`.edits/`), and the asset's original
/// file is never touched. A render never committed is removed once its process has ended.
// @unchecked: `adjustmentData` is set by the app before the change block that commits the output, which only
// reads it (PhotoKit's contract); the rest is immutable after init.
public class PHContentEditingOutput: NSObject, @unchecked Sendable {
    /// The edit's adjustment data; required: a commit without it fails with `invalidResource`.
    public var adjustmentData: PHAdjustmentData!
    /// Where the app writes the rendered picture (JPEG) or movie (QuickTime), at full size.
    public let renderedContentURL: URL

    /// The asset the edit is for.
    let assetIdentifier: String
    /// What the render was made over (``EditBasis``).
    let basis: EditBasis
    /// The import folder of the library the asset is in.
    let importDirectory: URL

    /// An output for an edit of the input's asset.
    public init(contentEditingInput: PHContentEditingInput) {
        assetIdentifier = contentEditingInput.assetIdentifier
        basis = contentEditingInput.basis
        importDirectory = contentEditingInput.library.importDirectory
        renderedContentURL = Self.renderURL(
            in: importDirectory, isVideo: contentEditingInput.mediaType == .video)
        super.init()
    }

    /// An output for an asset created in the running change block, edited from its first commit.
    /// Made outside a change block, its render is written in the shared library's folder.
    public init(placeholderForCreatedAsset placeholder: PHObjectPlaceholder) {
        assetIdentifier = placeholder.localIdentifier
        basis = .original
        importDirectory = (ChangeBlock.current?.library ?? PHPhotoLibrary.shared()).importDirectory
        renderedContentURL = Self.renderURL(in: importDirectory, isVideo: false)
        super.init()
    }

    /// A new name in the import folder's `.staging`, owned by this process (``FileJournal`` removes
    /// it once the process is gone, unless a committed edit placed it). The folder is made here.
    private static func renderURL(in importDirectory: URL, isVideo: Bool) -> URL {
        let staging = importDirectory.standardizedFileURL.path + "/.staging"
        // A folder that cannot be made shows as the app's failure to write the render.
        try? PrivateFiles.makeDirectory(staging)
        let name = "\(FileOperations.processID)-\(UUID().uuidString)-FullSizeRender.\(isVideo ? "mov" : "jpg")"
        return URL(fileURLWithPath: staging + "/" + name)
    }
}
