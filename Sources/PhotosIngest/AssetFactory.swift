import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// Turns what a file says into the rows of an asset: the one mapping from a file to an asset, used
/// by scanning, by `photosd` and by `PHAssetCreationRequest` alike.
public enum AssetFactory {
    static func mediaType(_ kind: MediaKind) -> PHAssetMediaType {
        switch kind {
        case .image: .image
        case .video: .video
        case .audio: .audio
        case .other: .unknown
        }
    }

    /// Fills the file-derived fields of `record` from a crawled file.
    static func apply(_ metadata: FileMetadata, file: CrawledFile, timeZone: TimeZone, to record: inout AssetRecord) {
        apply(metadata, modificationTime: file.modificationTime, timeZone: timeZone, to: &record)
    }

    /// Fills the file-derived fields of `record` (user state such as favorites is left alone):
    /// type, size as displayed, dates (the file's `modificationTime` when it states none), place,
    /// RAW, burst and the subtypes the file states. The Live Photo bit is grouping's to set.
    public static func apply(
        _ metadata: FileMetadata, modificationTime: Double, timeZone: TimeZone, to record: inout AssetRecord
    ) {
        record.mediaType = mediaType(metadata.kind).rawValue
        record.pixelWidth = metadata.pixelWidth ?? 0
        record.pixelHeight = metadata.pixelHeight ?? 0
        record.duration = metadata.duration ?? 0
        if let date = metadata.creationDate {
            record.creationDate = date.timeIntervalSince1970
            // A floating local time keeps the offset of the zone it was read in, to be shown in it.
            record.creationDateOffset =
                metadata.creationDateIsFloating
                ? timeZone.secondsFromGMT(for: date) : metadata.creationDateOffset
            record.creationDateIsFloating = metadata.creationDateIsFloating
            record.creationDateIsFileTime = false
        } else {
            // The file's modification time, as a last resort; the asset says so.
            record.creationDate = modificationTime
            record.creationDateOffset = nil
            record.creationDateIsFloating = false
            record.creationDateIsFileTime = true
        }
        record.latitude = metadata.latitude
        record.longitude = metadata.longitude
        record.altitude = metadata.altitude
        record.speed = metadata.speed
        record.course = metadata.course
        record.modificationDate = modificationTime
        record.isRAW = metadata.isRAW
        // Subtypes the file states; the Live Photo bit is grouping's to set.
        var subtypes = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: record.mediaSubtypes))
            .intersection(.photoLive)
        if metadata.isHDR == true { subtypes.insert(.photoHDR) }
        if metadata.isScreenshot == true { subtypes.insert(.photoScreenshot) }
        if metadata.isScreenRecording == true { subtypes.insert(.videoScreenRecording) }
        if metadata.isPanorama == true { subtypes.insert(.photoPanorama) }
        if metadata.isAnimated == true { subtypes.insert(.photoAnimation) }
        if metadata.isHighFrameRate == true { subtypes.insert(.videoHighFrameRate) }
        if metadata.isDepthEffect == true { subtypes.insert(.photoDepthEffect) }
        if metadata.isSpatial == true { subtypes.insert(.spatialMedia) }
        if metadata.isTimelapse == true { subtypes.insert(.videoTimelapse) }
        if metadata.isCinematic == true { subtypes.insert(.videoCinematic) }
        record.mediaSubtypes = Int64(subtypes.rawValue)
        record.burstIdentifier = metadata.burstIdentifier
        // The file's stars when it states some (a rating written by another program is taken when
        // the file is read again); otherwise the library's stay.
        if let rating = metadata.rating { record.rating = Int64(rating) }
        record.isSelfie = metadata.isFrontCamera == true
        record.make = metadata.make
        record.model = metadata.model
    }

    static func resource(for file: CrawledFile, metadata: FileMetadata, type: PHAssetResourceType) -> ResourceRecord {
        var record = resource(
            path: file.path, name: file.name, device: file.device, inode: file.inode, size: file.size,
            modificationTime: file.modificationTime, metadata: metadata, type: type)
        record.birthTime = file.birthTime
        return record
    }

    /// The resource row of a file: where it is, what it is, and how to know it again after a move.
    public static func resource(
        path: String, name: String, device: Int64, inode: Int64, size: Int64, modificationTime: Double,
        metadata: FileMetadata, type: PHAssetResourceType
    ) -> ResourceRecord {
        var resource = ResourceRecord(
            assetId: 0, type: type.rawValue, path: path, uniformTypeIdentifier: metadata.uniformTypeIdentifier,
            mimeType: metadata.mimeType, fileSize: size, originalFilename: name)
        resource.device = device
        resource.inode = inode
        resource.modificationTime = modificationTime
        resource.contentIdentifier = metadata.contentIdentifier
        resource.pixelWidth = metadata.pixelWidth.map(Int64.init)
        resource.pixelHeight = metadata.pixelHeight.map(Int64.init)
        return resource
    }
}
