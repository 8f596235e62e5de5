import Foundation
import PhotosWire

extension API.TrashedAsset {
    /// The wire description of a trashed asset: what `photos trash list --json` and `GET /v1/trash`
    /// write.
    public init(_ asset: TrashedAsset) {
        self.init(
            localIdentifier: asset.localIdentifier,
            deletionDate: ISO8601.string(Date(timeIntervalSince1970: asset.trashedDate), offset: 0),
            files: asset.files.map { file in
                File(path: file.path, trashPath: file.trashName.map { file.trashDirectory + "/files/" + $0 })
            })
    }
}
