import Foundation
import GRDB
import PhotosCore

/// One row of the `asset` table: everything PhotoKit's `PHAsset` exposes, in storage form.
public struct AssetRecord: Sendable, Hashable, Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "asset"

    /// The row id; nil until inserted.
    public var id: Int64?
    public var localIdentifier: String
    public var mediaType: Int
    public var mediaSubtypes: Int64
    public var sourceType: Int64
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Seconds since 1970.
    public var creationDate: Double?
    /// Seconds east of UTC the creation date was recorded in, when the file said.
    public var creationDateOffset: Int?
    /// True when the file gave a local time with no offset, read in the library's time zone.
    public var creationDateIsFloating: Bool
    public var modificationDate: Double?
    public var addedDate: Double
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var duration: Double
    public var isFavorite: Bool
    public var isHidden: Bool
    public var burstIdentifier: String?
    public var burstSelectionTypes: Int64
    public var representsBurst: Bool
    public var adjustmentFormatIdentifier: String?
    public var isRAW: Bool

    /// Creates a record for a new asset with PhotoKit's defaults.
    public init(
        localIdentifier: String, mediaType: PHAssetMediaType, addedDate: Date = Date(),
        creationDate: Date? = nil
    ) {
        self.id = nil
        self.localIdentifier = localIdentifier
        self.mediaType = mediaType.rawValue
        self.mediaSubtypes = 0
        self.sourceType = Int64(PHAssetSourceType.typeUserLibrary.rawValue)
        self.pixelWidth = 0
        self.pixelHeight = 0
        self.creationDate = creationDate?.timeIntervalSince1970
        self.creationDateOffset = nil
        self.creationDateIsFloating = false
        self.modificationDate = addedDate.timeIntervalSince1970
        self.addedDate = addedDate.timeIntervalSince1970
        self.latitude = nil
        self.longitude = nil
        self.altitude = nil
        self.duration = 0
        self.isFavorite = false
        self.isHidden = false
        self.burstIdentifier = nil
        self.burstSelectionTypes = 0
        self.representsBurst = false
        self.adjustmentFormatIdentifier = nil
        self.isRAW = false
    }

    /// The columns ``AssetRecord`` reads (the generated `isBurstVisible` is not one of them).
    public static var databaseSelection: [any SQLSelectable] {[
        Column("id"), Column("localIdentifier"), Column("mediaType"), Column("mediaSubtypes"),
        Column("sourceType"), Column("pixelWidth"), Column("pixelHeight"), Column("creationDate"),
        Column("creationDateOffset"), Column("creationDateIsFloating"), Column("modificationDate"),
        Column("addedDate"), Column("latitude"), Column("longitude"), Column("altitude"), Column("duration"),
        Column("isFavorite"), Column("isHidden"), Column("burstIdentifier"), Column("burstSelectionTypes"),
        Column("representsBurst"), Column("adjustmentFormatIdentifier"), Column("isRAW"),
    ]}

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
