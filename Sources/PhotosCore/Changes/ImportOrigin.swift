/// Where an asset an import made came from: the file of the drop folder its primary file was, and
/// where that file is now.
///
/// Carried by the change that inserted the asset (``LibraryChange/imports``, the change JSON's
/// `imports`), so that observers, hooks and the API can tell an import from a file that appeared in
/// a root.
///
/// ```json
/// {"localIdentifier": "…/L0/001", "source": "/home/me/Sync/Phone/IMG_1.HEIC",
///  "path": "/home/me/Pictures/2021/2021-04-11/IMG_1.HEIC"}
/// ```
public struct ImportOrigin: Sendable, Hashable, Codable {
    /// The asset.
    public var localIdentifier: String
    /// Where its primary file was in the drop folder.
    public var source: String
    /// Where the file is now, under the import's root.
    public var path: String

    /// An origin.
    public init(localIdentifier: String, source: String, path: String) {
        self.localIdentifier = localIdentifier
        self.source = source
        self.path = path
    }
}
