// The rules a batch is checked against once it has decoded: what its JSON's shape cannot say.

extension API.ChangeBatch {
    /// What a placeholder stands for.
    public enum ObjectKind: String, Sendable, Hashable {
        /// Made by `createAsset`.
        case asset
        /// Made by `createAlbum`.
        case album
        /// Made by `createFolder`.
        case folder
    }

    /// The rules no library state changes, checked before anything is applied: every `$ref` names
    /// a placeholder an earlier operation made, of the kind the field takes (an album where an
    /// album goes; `collections` take albums and folders); `ref` names are unique, start with a
    /// letter and hold only letters, digits, `_`, `-` and `.` (at most 64); names and lists are not
    /// empty; paths are absolute; `type` is a resource type; at most ``maximumOperations``.
    public func validate() throws(Invalid) {
        guard changes.count <= Self.maximumOperations else {
            throw Invalid(
                index: Self.maximumOperations, message: "a batch holds at most \(Self.maximumOperations) operations")
        }
        var placeholders: [String: ObjectKind] = [:]
        for (index, operation) in changes.enumerated() {
            func fail(_ message: String) -> Invalid { Invalid(index: index, message: "\(operation.name): \(message)") }
            func object(_ value: String, _ field: String, _ kinds: Set<ObjectKind>) throws(Invalid) {
                guard !value.isEmpty else { throw fail("\(field) is empty") }
                guard value.hasPrefix("$") else { return }
                let name = String(value.dropFirst())
                guard let kind = placeholders[name] else {
                    throw fail("\(field): no earlier operation of this batch has ref '\(name)'")
                }
                guard kinds.contains(kind) else {
                    let article = kind == .folder ? "a" : "an"
                    let wanted = kinds.map(\.rawValue).sorted().joined(separator: " or ")
                    throw fail("\(field): $\(name) is \(article) \(kind), not \(wanted)")
                }
            }
            func objects(_ values: [String], _ field: String, _ kinds: Set<ObjectKind>) throws(Invalid) {
                guard !values.isEmpty else { throw fail("\(field) is empty") }
                for value in values { try object(value, field, kinds) }
            }
            func define(_ ref: String?, _ kind: ObjectKind) throws(Invalid) {
                guard let ref else { return }
                guard Self.isPlaceholderName(ref) else {
                    throw fail(
                        "ref '\(ref)' must start with a letter and hold only letters, digits, _, - and . (at most 64)")
                }
                guard placeholders[ref] == nil else { throw fail("ref '\(ref)' is already taken in this batch") }
                placeholders[ref] = kind
            }
            func title(_ value: String) throws(Invalid) {
                guard !value.isEmpty else { throw fail("title is empty") }
            }
            switch operation {
            case .createAsset(let fields):
                switch (fields.path, fields.upload) {
                case (let path?, nil):
                    guard path.hasPrefix("/") else { throw fail("path must be absolute, not '\(path)'") }
                case (nil, let upload?):
                    guard !upload.isEmpty else { throw fail("upload is empty") }
                    guard fields.move == nil else { throw fail("move goes with path; an upload is always taken") }
                default:
                    throw fail("give path or upload, one of the two")
                }
                if let type = fields.type, !API.ChangeOperation.CreateAsset.types.contains(type) {
                    let types = API.ChangeOperation.CreateAsset.types.joined(separator: ", ")
                    throw fail("type '\(type)' is not one of \(types)")
                }
                try define(fields.ref, .asset)
            case .editAsset(let fields): try object(fields.asset, "asset", [.asset])
            case .deleteAssets(let fields): try objects(fields.assets, "assets", [.asset])
            case .createAlbum(let fields), .createFolder(let fields):
                try title(fields.title)
                if let folder = fields.folder { try object(folder, "folder", [.folder]) }
                try define(fields.ref, operation.name == "createAlbum" ? .album : .folder)
            case .renameAlbum(let fields):
                try object(fields.album, "album", [.album])
                try title(fields.title)
            case .deleteAlbums(let fields): try objects(fields.albums, "albums", [.album])
            case .addToAlbum(let fields), .removeFromAlbum(let fields):
                try object(fields.album, "album", [.album])
                try objects(fields.assets, "assets", [.asset])
            case .moveInAlbum(let fields):
                try object(fields.album, "album", [.album])
                guard !fields.from.isEmpty else { throw fail("from is empty") }
                guard fields.from.allSatisfy({ $0 >= 0 }), fields.to >= 0 else {
                    throw fail("positions are 0 or more")
                }
            case .renameFolder(let fields):
                try object(fields.folder, "folder", [.folder])
                try title(fields.title)
            case .deleteFolders(let fields): try objects(fields.folders, "folders", [.folder])
            case .addToFolder(let fields), .removeFromFolder(let fields):
                try object(fields.folder, "folder", [.folder])
                try objects(fields.collections, "collections", [.album, .folder])
            }
        }
    }

    /// Whether `name` can be a `ref`: a letter, then up to 63 letters, digits, `_`, `-` or `.`.
    public static func isPlaceholderName(_ name: String) -> Bool {
        func letter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        let scalars = name.unicodeScalars
        guard let first = scalars.first, letter(first), scalars.count <= 64 else { return false }
        return scalars.allSatisfy { letter($0) || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }
}
