import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// Options for a resource added by a creation request.
public final class PHAssetResourceCreationOptions: @unchecked Sendable {
    /// The file name to record (default: the source file's name).
    public var originalFilename: String?
    /// The uniform type identifier to record (default: sniffed from the content).
    public var uniformTypeIdentifier: String?
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
/// Files are copied into the library's import directory when the block commits, so the library
/// never depends on the caller's file; if the block fails, the copies are removed.
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
        let directory = context.library.importDirectory
            .appendingPathComponent(String(targetIdentifier.prefix(36)), isDirectory: true)
        let extractor = MetadataExtractor(timeZone: context.library.configuration.timeZone)
        var record = AssetRecord(localIdentifier: targetIdentifier, mediaType: mediaType)
        var rows: [ResourceRecord] = []
        var primaryMetadata: FileMetadata?

        for resource in resources {
            var stored = try store(resource, in: directory, context: context)
            let metadata: FileMetadata
            do {
                metadata = try extractor.extract(path: stored.path)
            } catch {
                throw PHPhotosError(.invalidResource, "\(stored.originalName): \(error)")
            }
            if case .data = resource.source, resource.originalFilename == nil {
                stored = try nameByContent(stored, mimeType: metadata.mimeType, context: context)
            }
            try Self.check(metadata, for: resource.type, name: stored.originalName)
            if resource.type == .photo || resource.type == .video || resource.type == .audio {
                primaryMetadata = metadata
            }
            if resource.type == .pairedVideo { record.mediaSubtypes |= Int64(PHAssetMediaSubtype.photoLive.rawValue) }
            if metadata.uniformTypeIdentifier.map(UniformTypes.isRAW) == true { record.isRAW = true }
            rows.append(
                ResourceRecord(
                    assetId: 0, type: resource.type.rawValue, path: stored.path,
                    uniformTypeIdentifier: resource.uniformTypeIdentifier ?? metadata.uniformTypeIdentifier,
                    mimeType: metadata.mimeType, fileSize: stored.size, originalFilename: stored.originalName))
        }
        if let metadata = primaryMetadata {
            record.pixelWidth = metadata.pixelWidth ?? 0
            record.pixelHeight = metadata.pixelHeight ?? 0
            record.duration = metadata.duration ?? 0
            record.creationDate = metadata.creationDate?.timeIntervalSince1970
            record.creationDateOffset = metadata.creationDateIsFloating
                ? metadata.creationDate.map { context.library.configuration.timeZone.secondsFromGMT(for: $0) }
                : metadata.creationDateOffset
            record.creationDateIsFloating = metadata.creationDateIsFloating
            record.latitude = metadata.latitude
            record.longitude = metadata.longitude
            record.altitude = metadata.altitude
        }
        if record.creationDate == nil { record.creationDate = record.addedDate }
        try context.transaction.insertAsset(record, resources: rows)
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

    /// Gives data added without a file name the extension its content calls for (`photo-1.jpg`).
    private func nameByContent(_ file: StoredFile, mimeType: String, context: ApplyContext) throws -> StoredFile {
        guard let ext = Self.extensions[mimeType] else { return file }
        let url = URL(fileURLWithPath: file.path)
        let renamed = url.appendingPathExtension(ext)
        try FileManager.default.moveItem(at: url, to: renamed)
        context.copied(renamed)
        return StoredFile(path: renamed.path, originalName: renamed.lastPathComponent, size: file.size)
    }

    private static let extensions: [String: String] = [
        "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/heic": "heic", "image/heif": "heif",
        "image/avif": "avif", "image/webp": "webp", "image/tiff": "tiff", "image/bmp": "bmp",
        "video/quicktime": "mov", "video/mp4": "mp4", "video/3gpp": "3gp",
    ]

    private struct StoredFile {
        let path: String
        let originalName: String
        let size: Int64
    }

    /// Copies, moves or writes a resource into the import directory.
    private func store(_ resource: PendingResource, in directory: URL, context: ApplyContext) throws -> StoredFile {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let name: String
        switch resource.source {
        case .file(let url): name = resource.originalFilename ?? url.lastPathComponent
        case .data: name = resource.originalFilename ?? "\(resource.type.name)-\(resources.count)"
        }
        var destination = directory.appendingPathComponent(name)
        var suffix = 1
        while manager.fileExists(atPath: destination.path) {
            destination = directory.appendingPathComponent("\(suffix)-\(name)")
            suffix += 1
        }
        do {
            switch resource.source {
            case .file(let url):
                guard manager.fileExists(atPath: url.path) else {
                    throw PHPhotosError(.missingResource, "\(url.path): no such file")
                }
                if resource.move {
                    try manager.moveItem(at: url, to: destination)
                } else {
                    try manager.copyItem(at: url, to: destination)
                }
            case .data(let data):
                try data.write(to: destination)
            }
        } catch let error as PHPhotosError {
            throw error
        } catch {
            throw PHPhotosError(.notEnoughSpace, "cannot store \(name) in \(directory.path): \(error)")
        }
        context.copied(destination)
        let size = (try? manager.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
        return StoredFile(path: destination.path, originalName: name, size: size)
    }
}

/// Uniform type identifiers the library treats specially.
enum UniformTypes {
    static let raw: Set<String> = [
        "com.adobe.raw-image", "com.nikon.raw-image", "com.nikon.nrw-raw-image", "com.canon.cr2-raw-image",
        "com.canon.cr3-raw-image", "com.canon.crw-raw-image", "com.fuji.raw-image", "com.sony.arw-raw-image",
        "com.olympus.raw-image", "com.olympus.or-raw-image", "com.panasonic.raw-image", "com.panasonic.rw2-raw-image",
        "com.pentax.raw-image", "com.sigma.raw-image", "com.samsung.raw-image", "public.camera-raw-image",
    ]

    static func isRAW(_ identifier: String) -> Bool { raw.contains(identifier) }
}
