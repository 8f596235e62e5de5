import Foundation
import PhotosCore
import PhotosMetadata
import PhotosStore

/// Turns what a file says into the rows of an asset.
enum AssetFactory {
    static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "gif", "webp", "heic", "heif", "hif", "avif", "tif", "tiff", "bmp", "jxl",
        "dng", "nef", "nrw", "cr2", "cr3", "crw", "arw", "srf", "sr2", "raf", "orf", "rw2", "pef", "srw", "x3f",
        "3fr", "erf", "kdc", "mrw", "mov", "mp4", "m4v", "3gp", "3g2", "avi", "mkv", "webm", "mts", "m2ts",
    ]

    /// Whether a file name claims to be media (then failing to read it is a rejection, not a skip).
    static func claimsMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static func mediaType(_ kind: MediaKind) -> PHAssetMediaType {
        switch kind {
        case .image: .image
        case .video: .video
        case .audio: .audio
        case .other: .unknown
        }
    }

    /// Fills the file-derived fields of `record` (user state such as favorites is left alone).
    static func apply(_ metadata: FileMetadata, file: CrawledFile, timeZone: TimeZone, to record: inout AssetRecord) {
        record.mediaType = mediaType(metadata.kind).rawValue
        record.pixelWidth = metadata.pixelWidth ?? 0
        record.pixelHeight = metadata.pixelHeight ?? 0
        record.duration = metadata.duration ?? 0
        if let date = metadata.creationDate {
            record.creationDate = date.timeIntervalSince1970
            // A floating local time keeps the offset of the zone it was read in, to be shown in it.
            record.creationDateOffset = metadata.creationDateIsFloating
                ? timeZone.secondsFromGMT(for: date) : metadata.creationDateOffset
            record.creationDateIsFloating = metadata.creationDateIsFloating
        } else {
            // The file's modification time, as a last resort.
            record.creationDate = file.modificationTime
            record.creationDateOffset = nil
            record.creationDateIsFloating = false
        }
        record.latitude = metadata.latitude
        record.longitude = metadata.longitude
        record.altitude = metadata.altitude
        record.modificationDate = file.modificationTime
        record.isRAW = metadata.uniformTypeIdentifier.map(RAWTypes.contains) ?? false
        // Subtypes the file states; the Live Photo bit is grouping's to set.
        var subtypes = PHAssetMediaSubtype(rawValue: UInt(truncatingIfNeeded: record.mediaSubtypes))
            .intersection(.photoLive)
        if metadata.isHDR == true { subtypes.insert(.photoHDR) }
        if metadata.isScreenshot == true { subtypes.insert(.photoScreenshot) }
        if metadata.isPanorama == true { subtypes.insert(.photoPanorama) }
        if metadata.isAnimated == true { subtypes.insert(.photoAnimation) }
        if metadata.isHighFrameRate == true { subtypes.insert(.videoHighFrameRate) }
        record.mediaSubtypes = Int64(subtypes.rawValue)
        record.burstIdentifier = metadata.burstIdentifier
    }

    static func resource(for file: CrawledFile, metadata: FileMetadata, type: PHAssetResourceType) -> ResourceRecord {
        var resource = ResourceRecord(
            assetId: 0, type: type.rawValue, path: file.path, uniformTypeIdentifier: metadata.uniformTypeIdentifier,
            mimeType: metadata.mimeType, fileSize: file.size, originalFilename: file.name)
        resource.device = file.device
        resource.inode = file.inode
        resource.modificationTime = file.modificationTime
        return resource
    }

    static let RAWTypes: Set<String> = [
        "com.adobe.raw-image", "com.nikon.raw-image", "com.nikon.nrw-raw-image", "com.canon.cr2-raw-image",
        "com.canon.cr3-raw-image", "com.canon.crw-raw-image", "com.fuji.raw-image", "com.sony.arw-raw-image",
        "com.olympus.raw-image", "com.olympus.or-raw-image", "com.panasonic.raw-image", "com.panasonic.rw2-raw-image",
        "com.pentax.raw-image", "com.sigma.raw-image", "com.samsung.raw-image", "public.camera-raw-image",
    ]
}
