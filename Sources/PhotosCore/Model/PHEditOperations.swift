/// The edits an asset may accept (`PHAsset.canPerform(_:)`).
public enum PHAssetEditOperation: Int, Sendable, Hashable, CaseIterable {
    /// Deleting the asset.
    case delete = 1
    /// Editing the asset's content.
    case content = 2
    /// Editing the asset's properties (favorite, hidden, date, location).
    case properties = 3
}

/// The edits a collection may accept (`PHCollection.canPerform(_:)`).
///
/// Which collection allows which operation is the table in docs/photokit.md ("Edit operations").
public enum PHCollectionEditOperation: Int, Sendable, Hashable, CaseIterable {
    /// Deleting the collection's content from the library.
    case deleteContent = 1
    /// Removing content from the collection (it stays in the library).
    case removeContent = 2
    /// Adding existing content to the collection.
    case addContent = 3
    /// Creating new content in the collection.
    case createContent = 4
    /// Reordering the collection's content.
    case rearrangeContent = 5
    /// Deleting the collection itself.
    case delete = 6
    /// Renaming the collection.
    case rename = 7
}

/// Whether an asset's look comes from an edit (`PHAsset.adjustmentsState`, iOS 18). Raw values are PhotoKit's.
public enum PHAssetAdjustmentsState: Int, Sendable, Hashable, CaseIterable {
    /// As its file is.
    case none = 0
    /// Edited (content editing).
    case userAdjusted = 2
    /// Adjusted by the camera (never given here).
    case cameraAutoAdjusted = 3
}
