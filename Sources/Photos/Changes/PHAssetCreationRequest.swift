import Foundation
import PhotosCore
import PhotosIngest
import PhotosMetadata
import PhotosStore

/// Options for a resource added by a creation request.
// @unchecked: the caller sets the options before `addResource`, which copies their values and keeps no reference.
public final class PHAssetResourceCreationOptions: @unchecked Sendable {
    /// The file name to record (default: the source file's name).
    public var originalFilename: String?
    /// The uniform type identifier to record (default: sniffed from the content). The same setting
    /// as ``contentType``.
    public var uniformTypeIdentifier: String?
    /// The type to record (iOS 26; default: sniffed from the content): ``uniformTypeIdentifier`` as
    /// a ``UTType``. Setting one sets the other.
    public var contentType: UTType? {
        get { uniformTypeIdentifier.map { UTType(importedAs: $0) } }
        set { uniformTypeIdentifier = newValue?.identifier }
    }
    /// Move the file into the library instead of copying it (default false).
    public var shouldMoveFile = false

    /// Default options.
    public init() {}
}

/// A request to create an asset from files or data, resource by resource (a Live Photo is a
/// `.photo` and a `.pairedVideo`; a RAW+JPEG pair a `.photo` and an `.alternatePhoto`).
///
/// ```swift
/// let request = PHAssetCreationRequest.forAsset()
/// request.addResource(with: .photo, fileURL: still, options: nil)
/// request.addResource(with: .pairedVideo, fileURL: movie, options: nil)
/// ```
///
/// Files are copied into the library's import directory, so the library never depends on the
/// caller's file. With `shouldMoveFile`, the caller's file is removed only after the block has
/// committed and the copy is in place; if the block fails, it stays where it was, byte for byte.
// @unchecked: made, filled and applied inside one change block, on the thread that runs it.
public final class PHAssetCreationRequest: PHAssetChangeRequest, @unchecked Sendable {
    enum Source {
        case file(URL)
        case data(Data)
    }

    struct PendingResource {
        let type: PHAssetResourceType
        let source: Source
        let originalFilename: String?
        let uniformTypeIdentifier: String?
        let move: Bool
    }

    private(set) var resources: [PendingResource] = []
    private var chosenOriginal: PHAsset.OriginalResourceChoice?

    /// Which original of the new RAW+JPEG asset its pictures and edits start from (SDK 27):
    /// `.compressed` (the default) or `.raw`. It applies to an asset made of a compressed `.photo`
    /// and a RAW `.alternatePhoto` only: set on any other, the block fails with `invalidResource`.
    public var originalResourceChoice: PHAsset.OriginalResourceChoice {
        get { chosenOriginal ?? .compressed }
        set { chosenOriginal = newValue }
    }

    /// A request to create an asset; add its resources with `addResource`.
    public class func forAsset() -> PHAssetCreationRequest {
        PHAssetCreationRequest(creating: LocalIdentifier.make(.asset))
    }

    /// PhotoKit's Objective-C name for ``forAsset()``.
    public class func creationRequestForAsset() -> PHAssetCreationRequest { forAsset() }

    /// Whether a set of resource types makes an asset this library can create.
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue) }
        guard kinds.count == types.count else { return false }
        return Self.primaryType(of: kinds) != nil
    }

    /// Adds a file as one of the new asset's resources.
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        resources.append(
            PendingResource(
                type: type, source: .file(fileURL), originalFilename: options?.originalFilename,
                uniformTypeIdentifier: options?.uniformTypeIdentifier, move: options?.shouldMoveFile ?? false))
    }

    /// Adds data as one of the new asset's resources; it is written to the library when the block commits.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        resources.append(
            PendingResource(
                type: type, source: .data(data), originalFilename: options?.originalFilename,
                uniformTypeIdentifier: options?.uniformTypeIdentifier, move: false))
    }

    static func primaryType(of types: [PHAssetResourceType]) -> PHAssetMediaType? {
        let set = Set(types)
        guard types.count == set.count else { return nil }
        if set.contains(.photo) {
            return set.isSubset(of: [.photo, .pairedVideo, .alternatePhoto, .adjustmentData]) ? .image : nil
        }
        if set.contains(.video) { return set.isSubset(of: [.video, .adjustmentData]) ? .video : nil }
        if set.contains(.audio) { return set == [.audio] ? .audio : nil }
        return nil
    }

    override func applyCreation(_ context: ApplyContext) throws {
        guard let mediaType = Self.primaryType(of: resources.map(\.type)) else {
            throw PHPhotosError(
                .invalidResource,
                "an asset cannot be made of the resources [\(resources.map(\.type.name).joined(separator: ", "))]")
        }
        let directory = context.staging.importDirectory + "/" + String(targetIdentifier.prefix(36))
        try context.staging.makeDirectory(directory)
        let timeZone = context.library.configuration.timeZone
        let extractor = MetadataExtractor(timeZone: timeZone)
        var rows: [ResourceRecord] = []
        var primary: (metadata: FileMetadata, modificationTime: Double)?
        var hasRAW = false

        for (index, resource) in resources.enumerated() {
            var staged = try stage(resource, number: index + 1, in: directory, context: context)
            let metadata: FileMetadata
            do {
                metadata = try extractor.extract(path: staged.staged)
            } catch {
                throw PHPhotosError(.invalidResource, "\(staged.originalFilename): \(error)")
            }
            if case .data = resource.source, resource.originalFilename == nil,
                let ext = Self.filenameExtension(forMIMEType: metadata.mimeType)
            {
                // Data added without a name gets the extension its content calls for (`photo-1.jpg`).
                staged.originalFilename += "." + ext
                try context.staging.chooseDestination(&staged, named: staged.originalFilename)
            }
            try Self.check(metadata, for: resource.type, name: staged.originalFilename)
            if resource.type == .photo || resource.type == .video || resource.type == .audio {
                primary = (metadata, staged.contentModificationTime)
            }
            hasRAW = hasRAW || metadata.isRAW
            var row = AssetFactory.resource(
                path: staged.destination, name: staged.originalFilename, device: staged.identity.device,
                inode: staged.identity.inode, size: staged.identity.size,
                modificationTime: staged.identity.modificationTime, metadata: metadata, type: resource.type)
            row.uniformTypeIdentifier = resource.uniformTypeIdentifier ?? row.uniformTypeIdentifier
            row.isLibraryOwned = true
            rows.append(row)
            context.place(staged)
        }
        // The same mapping from a file to an asset as scanning: dates, place, subtypes, burst, RAW.
        var record = AssetRecord(localIdentifier: targetIdentifier, mediaType: mediaType)
        if let primary {
            AssetFactory.apply(
                primary.metadata, modificationTime: primary.modificationTime, timeZone: timeZone, to: &record)
        }
        record.mediaType = mediaType.rawValue
        if resources.contains(where: { $0.type == .pairedVideo }) {
            record.mediaSubtypes |= Int64(PHAssetMediaSubtype.photoLive.rawValue)
        }
        record.isRAW = record.isRAW || hasRAW
        if let chosenOriginal {
            guard PHAsset.isRAWPlusCompressedPair(rows) else {
                let types = resources.map(\.type.name).joined(separator: ", ")
                throw PHPhotosError(
                    .invalidResource,
                    "originalResourceChoice applies to RAW+JPEG assets only: a compressed .photo and a RAW "
                        + ".alternatePhoto (this asset is made of [\(types)])")
            }
            record.originalResourceChoice = Int64(chosenOriginal.rawValue)
        }
        if record.creationDate == nil { record.creationDate = record.addedDate }
        try context.transaction.insertAsset(record, resources: rows)
        if let burst = record.burstIdentifier { try context.transaction.pickBurstRepresentatives([burst]) }
    }

    private static func check(_ metadata: FileMetadata, for type: PHAssetResourceType, name: String) throws {
        let expected: MediaKind
        switch type {
        case .photo, .alternatePhoto, .fullSizePhoto, .adjustmentBasePhoto, .photoProxy: expected = .image
        case .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo, .adjustmentBaseVideo,
            .adjustmentBasePairedVideo:
            expected = .video
        case .audio: expected = .audio
        case .adjustmentData: return
        }
        guard metadata.kind == expected else {
            throw PHPhotosError(
                .invalidResource, "\(name) is \(metadata.mimeType), not the \(expected) a \(type.name) resource needs")
        }
    }

    /// The file name extension the library gives a file of this MIME type that came without a
    /// name (data added without one, an edit's render): the type's preferred one in the one table
    /// of types (``UTType``'s), but `jpg` for JPEG, as cameras and most programs write it.
    static func filenameExtension(forMIMEType mimeType: String) -> String? {
        let preferred = UniformTypeDeclaration.withMIMEType(mimeType)?.filenameExtensions.first
        return preferred == "jpeg" ? "jpg" : preferred
    }

    /// Stages a resource in the import folder: a copy of the caller's file (a hard link for a move
    /// on the same file system), or the data; the caller's file itself is not touched here.
    private func stage(
        _ resource: PendingResource, number: Int, in directory: String, context: ApplyContext
    ) throws -> StagedFile {
        let given: String
        switch resource.source {
        case .file(let url): given = resource.originalFilename ?? url.lastPathComponent
        case .data: given = resource.originalFilename ?? "\(resource.type.name)-\(number)"
        }
        // One path component, whatever the caller passed (`../x`, `a/b`): nothing lands outside.
        let name = SafeNames.sanitized(given, fallback: "\(resource.type.name)-\(number)")
        let destination = try context.staging.destination(for: name, in: directory)
        switch resource.source {
        case .file(let url):
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw PHPhotosError(.missingResource, "\(url.path): no such file")
            }
            return try context.staging.stage(
                file: url.path, move: resource.move, originalFilename: given, destination: destination)
        case .data(let data):
            return try context.staging.stage(data: data, originalFilename: given, destination: destination)
        }
    }
}
