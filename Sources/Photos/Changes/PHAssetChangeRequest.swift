import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// A request, made inside a change block, to create, delete or edit an asset.
///
/// ```swift
/// try library.performChangesAndWait {
///     let request = PHAssetChangeRequest(for: asset)
///     request.isFavorite = true
///     request.location = CLLocation(latitude: 59.33, longitude: 18.07)
/// }
/// ```
// @unchecked: made, set and applied inside one change block, on the thread that runs it.
public class PHAssetChangeRequest: PHChangeRequest, @unchecked Sendable {
    /// The asset being edited, or nil when this request creates one.
    let asset: PHAsset?
    /// The identifier of the asset edited or created.
    let targetIdentifier: String
    private var changedProperties: [String] = []
    private var newCreationDate: Date??
    /// The UTC offset, in seconds east, of a new creation date given as a local time with its
    /// offset (the API's `editAsset`): its day is that local time's. nil: the date is UTC's, as a
    /// `Date` alone says (PhotoKit's `creationDate`).
    var newCreationDateOffset: Int?
    private var newLocation: CLLocation??
    private var newFavorite: Bool?
    private var newHidden: Bool?
    private var newRating: PHAssetRating?
    /// An edit or a revert, the last asked for.
    private var contentChange: ContentChange?

    /// A request to edit an existing asset's properties.
    public init(for asset: PHAsset) {
        self.asset = asset
        targetIdentifier = asset.localIdentifier
        placeholderForCreatedAsset = nil
        super.init()
    }

    init(creating identifier: String) {
        asset = nil
        targetIdentifier = identifier
        placeholderForCreatedAsset = PHObjectPlaceholder(localIdentifier: identifier)
        super.init()
    }

    /// For a creation request, the placeholder of the asset it creates.
    public let placeholderForCreatedAsset: PHObjectPlaceholder?

    /// When the photo was taken.
    public var creationDate: Date? {
        get { newCreationDate ?? asset?.creationDate }
        set {
            newCreationDate = .some(newValue)
            note("creationDate")
        }
    }

    /// Where the photo was taken.
    public var location: CLLocation? {
        get { newLocation ?? asset?.location }
        set {
            newLocation = .some(newValue)
            note("location")
        }
    }

    /// Whether the asset is a favorite.
    public var isFavorite: Bool {
        get { newFavorite ?? asset?.isFavorite ?? false }
        set {
            newFavorite = newValue
            note("isFavorite")
        }
    }

    /// Whether the asset is hidden.
    public var isHidden: Bool {
        get { newHidden ?? asset?.isHidden ?? false }
        set {
            newHidden = newValue
            note("isHidden")
        }
    }

    /// The asset's stars (PhotoKit SDK 27).
    public var rating: PHAssetRating {
        get { newRating ?? asset?.rating ?? .unset }
        set {
            newRating = newValue
            note("rating")
        }
    }

    /// The edit to commit: the output of ``PHContentEditingOutput/init(contentEditingInput:)`` with
    /// its adjustment data set and its render written. The asset's original file stays as it is.
    public var contentEditingOutput: PHContentEditingOutput? {
        get {
            if case .edit(let output) = contentChange { return output }
            return nil
        }
        set { contentChange = newValue.map(ContentChange.edit) }
    }

    /// Drops the asset's edit: its render, adjustment data and base are removed (after the commit)
    /// and it looks as its original file again. An asset without edits is left as it is.
    public func revertAssetContentToOriginal() {
        contentChange = .revert(to: nil)
    }

    /// Drops the asset's edit, as ``revertAssetContentToOriginal()`` does, and makes `choice` the
    /// original its pictures and later edits start from (SDK 27): the RAW or the compressed file of
    /// a RAW+JPEG asset. For any other asset the block fails with `changeNotSupported`, as
    /// PhotoKit does not support it. The change is a content change (`assetContentChanged`).
    public func revertAssetContent(to choice: PHAsset.OriginalResourceChoice) {
        contentChange = .revert(to: choice)
    }

    private func note(_ property: String) {
        if !changedProperties.contains(property) { changedProperties.append(property) }
    }

    // MARK: Creating and deleting

    /// A request to add the image in `image` as a new asset.
    public class func creationRequestForAsset(from image: UIImage) -> PHAssetChangeRequest {
        let request = PHAssetCreationRequest.forAsset()
        request.addResource(with: .photo, data: image.data, options: nil)
        return request
    }

    /// A request to add the image file at `fileURL` as a new asset (the file is copied).
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> PHAssetChangeRequest? {
        let request = PHAssetCreationRequest.forAsset()
        request.addResource(with: .photo, fileURL: fileURL, options: nil)
        return request
    }

    /// A request to add the video file at `fileURL` as a new asset (the file is copied).
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> PHAssetChangeRequest? {
        let request = PHAssetCreationRequest.forAsset()
        request.addResource(with: .video, fileURL: fileURL, options: nil)
        return request
    }

    /// Requests deleting assets (`PHAsset`s, in a fetch result, array or `NSArray`).
    ///
    /// Files the library imported are removed. Files in watched directories go to the Trash of
    /// their file system, only under a root with `write = "files"` (the block fails with
    /// `accessRestricted` elsewhere), and the asset stays in "Recently Deleted", restorable, for
    /// ``PHPhotoLibrary/Configuration/trashDays`` days.
    public class func deleteAssets(_ assets: any NSFastEnumeration) {
        _ = AssetDeletionRequest(identifiers: assets.photosObjects.map(\.localIdentifier))
    }

    // MARK: Applying

    override func applyEdits(_ context: ApplyContext) throws {
        if let contentChange { try apply(contentChange, context) }
        guard !changedProperties.isEmpty else { return }
        func real(_ value: Double?) -> SQLValue { value.map(SQLValue.double) ?? .null }
        var columns: [(column: String, value: SQLValue)] = []
        if let newCreationDate {
            columns += [
                ("creationDate", real(newCreationDate?.timeIntervalSince1970)),
                ("creationDateOffset", newCreationDateOffset.map { .int(Int64($0)) } ?? .null),
                ("creationDateIsFloating", .int(0)), ("creationDateIsFileTime", .int(0)),
            ]
        }
        if let newLocation {
            columns += [
                ("latitude", real(newLocation?.coordinate.latitude)),
                ("longitude", real(newLocation?.coordinate.longitude)),
                ("altitude", real(newLocation.flatMap { $0.verticalAccuracy < 0 ? nil : $0.altitude })),
                // A negative speed or course is CoreLocation's "unknown".
                ("speed", real(newLocation.flatMap { $0.speed < 0 ? nil : $0.speed })),
                ("course", real(newLocation.flatMap { $0.course < 0 ? nil : $0.course })),
            ]
        }
        if let newFavorite { columns.append(("isFavorite", .int(newFavorite ? 1 : 0))) }
        if let newHidden { columns.append(("isHidden", .int(newHidden ? 1 : 0))) }
        if let newRating { columns.append(("rating", .int(Int64(newRating.rawValue)))) }
        // A new asset's properties are part of its creation, not a modification.
        if asset != nil { columns.append(("modificationDate", .double(Date().timeIntervalSince1970))) }
        // One UPDATE of these columns, without reading the row: blocks of thousands of edits.
        try context.transaction.updateAsset(
            localIdentifier: targetIdentifier, setting: columns, properties: changedProperties)
        // User state an existing photo's sidecar holds goes there too, where its root allows.
        if asset != nil, changedProperties.contains(where: Self.sidecarProperties.contains) {
            try context.syncSidecar(ofAsset: targetIdentifier)
        }
    }

    /// The properties an XMP sidecar holds.
    private static let sidecarProperties: Set<String> = [
        "isFavorite", "isHidden", "rating", "creationDate", "location",
    ]
}

/// `PHAssetChangeRequest.deleteAssets(_:)`, applied after every creation and edit of the block.
final class AssetDeletionRequest: PHChangeRequest, @unchecked Sendable {  // Immutable after init.
    let identifiers: [String]

    init(identifiers: [String]) {
        self.identifiers = identifiers
        super.init()
    }

    override func applyDeletion(_ context: ApplyContext) throws {
        let found = try context.transaction.assetIDs(forLocalIdentifiers: identifiers)
        let missing = identifiers.filter { found[$0] == nil }
        guard missing.isEmpty else {
            throw PHPhotosError(
                .identifierNotFound, "cannot delete unknown asset \(missing[0])", localIdentifiers: missing)
        }
        // An asset the library placed (import folder) goes with its files (the store journals them;
        // they are removed after the commit, checked on resolved paths inside the import folder). A
        // folder-backed asset's files are the user's: they go to the Trash, only under a root with
        // write = "files" (checked now, before anything commits), and the asset waits in Recently
        // Deleted. Anywhere else the block fails: dropping the row would leave the file, which the
        // next scan would find as a new asset.
        let ids = identifiers.compactMap { found[$0] }
        let resources = try context.transaction.resources(assetIDs: ids)
        var placed: [Int64] = []
        var trashing: [PHPhotoLibrary.TrashPlanItem] = []
        var seen = Set<Int64>()
        for identifier in identifiers {
            guard let id = found[identifier], seen.insert(id).inserted else { continue }
            let own = resources[id] ?? []
            if own.allSatisfy(\.isLibraryOwned) {
                placed.append(id)
            } else {
                trashing.append(PHPhotoLibrary.TrashPlanItem(assetId: id, identifier: identifier, files: own))
            }
        }
        let trashed = trashing.map(\.assetId)
        let files = try context.library.trashPlan(trashing)
        try context.transaction.deleteAssets(placed)
        try context.transaction.trashAssets(trashed, files: files, date: Date().timeIntervalSince1970)
        for file in files { context.trash(file) }
    }
}
