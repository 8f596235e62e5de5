import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// PhotoKit's Objective-C name of ``PHAsset/OriginalResourceChoice`` (SDK 27).
public typealias PHOriginalResourceChoice = PHAsset.OriginalResourceChoice

extension PHAsset {
    /// Which original of a RAW+JPEG asset its pictures and edits start from (PhotoKit SDK 27).
    ///
    /// A RAW+JPEG asset has two originals: its compressed `.photo` (the JPEG or HEIC) and its RAW
    /// `.alternatePhoto`. The choice says which one ``PHImageManager`` renders for the `.current`
    /// version of an unedited asset and for the `.unadjusted` and `.original` versions, and which
    /// one ``PHContentEditingInput/fullSizeImageURL`` gives an editing app. Set it when creating the
    /// asset (``PHAssetCreationRequest/originalResourceChoice``) or change it by reverting
    /// (``PHAssetChangeRequest/revertAssetContent(to:)``):
    ///
    /// ```swift
    /// try library.performChangesAndWait {
    ///     PHAssetChangeRequest(for: pair).revertAssetContent(to: .raw)   // renders from the RAW now
    /// }
    /// ```
    public enum OriginalResourceChoice: Int, Sendable, Hashable {
        /// The compressed original (the JPEG or HEIC): the default, and what every asset without a
        /// RAW alternate reports.
        case compressed = 0
        /// The RAW original (the RAW+JPEG pair's `.alternatePhoto`).
        case raw = 1
    }

    /// The resource types this asset's picture is read from, the first it has: as it looks now
    /// (`edited`, an edit's render first) or without its edits, its RAW original first when that
    /// is its choice (`choice`, the asset's own when nil).
    func pictureSources(edited: Bool, choice: OriginalResourceChoice? = nil) -> [PHAssetResourceType] {
        PHAssetResourceType.pictureSources(edited: edited, rawOriginal: (choice ?? originalResourceChoice) == .raw)
    }

    /// Whether an asset's resources make a RAW+JPEG pair, the only assets an original resource
    /// choice applies to: a `.photo` that is not a camera RAW and an `.alternatePhoto` that is
    /// (by their types, as sniffed from their content).
    static func isRAWPlusCompressedPair(_ resources: [ResourceRecord]) -> Bool {
        func isRAW(_ type: PHAssetResourceType) -> Bool? {
            resources.first { $0.type == type.rawValue }
                .map { $0.uniformTypeIdentifier.map(RAWTypes.contains) ?? false }
        }
        return isRAW(.photo) == false && isRAW(.alternatePhoto) == true
    }
}
