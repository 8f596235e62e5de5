extension API {
    /// `POST /v1/changes`: change requests applied atomically in one change block, as
    /// `PHPhotoLibrary.performChanges` applies them.
    ///
    /// ```json
    /// {"changes": [
    ///   {"op": "createAsset", "path": "/home/me/in/IMG_1.jpg", "ref": "pic"},
    ///   {"op": "createAlbum", "title": "Trip", "ref": "trip"},
    ///   {"op": "addToAlbum", "album": "$trip", "assets": ["$pic", "3F2A…/L0/001"]}
    /// ]}
    /// ```
    ///
    /// Objects are named by local identifier, or, when an earlier operation of the same batch made
    /// them with `"ref": "NAME"`, as `"$NAME"` (PhotoKit's placeholders).
    ///
    /// A body becomes a batch in two steps, each with its error, before anything is applied:
    /// - ``decode(json:)`` is strict: an unknown `op`, an unknown or missing field, or a value of
    ///   the wrong type is ``Malformed``, never ignored.
    /// - ``validate()`` checks what JSON cannot say: each `$ref` names an earlier operation's
    ///   object of the kind the field takes, names and lists are not empty, paths are absolute;
    ///   else ``Invalid``, naming the operation.
    public struct ChangeBatch: Sendable, Hashable, Codable {
        /// The operations, in order.
        public var changes: [ChangeOperation]

        /// A batch of these operations, in order.
        public init(changes: [ChangeOperation]) {
            self.changes = changes
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case changes
        }

        /// The most operations one batch may hold.
        public static let maximumOperations = 10_000
    }

    /// What `POST /v1/changes` answers once the batch has committed.
    public struct ChangeBatchResult: Sendable, Hashable, Codable {
        /// The local identifier of each object the batch created, under its `ref`, or under the
        /// operation's position in `changes` (`"0"`, `"1"`, ...) when it had none.
        public var created: [String: String]
        /// The persistent change token of the batch's commit: its entry in `GET /v1/changes`. The
        /// library's current token when the batch changed nothing.
        public var token: Int64

        /// An answer with the created identifiers and the commit's token.
        public init(created: [String: String], token: Int64) {
            self.created = created
            self.token = token
        }
    }

    /// One operation of a ``ChangeBatch``: `{"op": NAME, FIELDS...}`.
    public enum ChangeOperation: Sendable, Hashable {
        /// `createAsset`: a new asset from a file.
        case createAsset(CreateAsset)
        /// `editAsset`: an asset's favorite, hidden, date and place.
        case editAsset(EditAsset)
        /// `deleteAssets`.
        case deleteAssets(DeleteAssets)
        /// `createAlbum`: a user album.
        case createAlbum(CreateCollection)
        /// `renameAlbum`.
        case renameAlbum(RenameAlbum)
        /// `deleteAlbums`.
        case deleteAlbums(DeleteAlbums)
        /// `addToAlbum`: appends assets.
        case addToAlbum(AlbumMembers)
        /// `removeFromAlbum`.
        case removeFromAlbum(AlbumMembers)
        /// `moveInAlbum`: reorders an album.
        case moveInAlbum(MoveInAlbum)
        /// `createFolder`: a collection list.
        case createFolder(CreateCollection)
        /// `renameFolder`.
        case renameFolder(RenameFolder)
        /// `deleteFolders`, with what is in them.
        case deleteFolders(DeleteFolders)
        /// `addToFolder`: albums and folders move in.
        case addToFolder(FolderChildren)
        /// `removeFromFolder`: albums and folders move to the top level.
        case removeFromFolder(FolderChildren)

        /// Every operation's name (its `op`) and fields, `op` aside: what strict decoding accepts.
        public static let fields: [String: [String]] = [
            "createAsset": CreateAsset.CodingKeys.allCases.map(\.rawValue),
            "editAsset": EditAsset.CodingKeys.allCases.map(\.rawValue),
            "deleteAssets": DeleteAssets.CodingKeys.allCases.map(\.rawValue),
            "createAlbum": CreateCollection.CodingKeys.allCases.map(\.rawValue),
            "renameAlbum": RenameAlbum.CodingKeys.allCases.map(\.rawValue),
            "deleteAlbums": DeleteAlbums.CodingKeys.allCases.map(\.rawValue),
            "addToAlbum": AlbumMembers.CodingKeys.allCases.map(\.rawValue),
            "removeFromAlbum": AlbumMembers.CodingKeys.allCases.map(\.rawValue),
            "moveInAlbum": MoveInAlbum.CodingKeys.allCases.map(\.rawValue),
            "createFolder": CreateCollection.CodingKeys.allCases.map(\.rawValue),
            "renameFolder": RenameFolder.CodingKeys.allCases.map(\.rawValue),
            "deleteFolders": DeleteFolders.CodingKeys.allCases.map(\.rawValue),
            "addToFolder": FolderChildren.CodingKeys.allCases.map(\.rawValue),
            "removeFromFolder": FolderChildren.CodingKeys.allCases.map(\.rawValue),
        ]

        /// The operation's `op`.
        public var name: String {
            switch self {
            case .createAsset: "createAsset"
            case .editAsset: "editAsset"
            case .deleteAssets: "deleteAssets"
            case .createAlbum: "createAlbum"
            case .renameAlbum: "renameAlbum"
            case .deleteAlbums: "deleteAlbums"
            case .addToAlbum: "addToAlbum"
            case .removeFromAlbum: "removeFromAlbum"
            case .moveInAlbum: "moveInAlbum"
            case .createFolder: "createFolder"
            case .renameFolder: "renameFolder"
            case .deleteFolders: "deleteFolders"
            case .addToFolder: "addToFolder"
            case .removeFromFolder: "removeFromFolder"
            }
        }
    }
}
