import Foundation
import PhotosCore

/// One row of the `asset` table: everything PhotoKit's `PHAsset` exposes, in storage form.
public struct AssetRecord: Sendable, Hashable, Codable, Identifiable {
    /// The row id; nil until inserted.
    public var id: Int64?
    /// The asset's local identifier (`UUID/L0/001`).
    public var localIdentifier: String
    /// A `PHAssetMediaType` raw value.
    public var mediaType: Int
    /// `PHAssetMediaSubtype` bits.
    public var mediaSubtypes: Int64
    /// `PHAssetSourceType` bits.
    public var sourceType: Int64
    /// Width as displayed.
    public var pixelWidth: Int
    /// Height as displayed.
    public var pixelHeight: Int
    /// Seconds since 1970.
    public var creationDate: Double?
    /// Seconds east of UTC the creation date was recorded in, when the file said.
    public var creationDateOffset: Int?
    /// True when the file gave a local time with no offset, read in the library's time zone.
    public var creationDateIsFloating: Bool
    /// True when the file states no date and ``creationDate`` is its modification time, the last
    /// resort of a scan and of an import's filing; false once the file or the user gives a date.
    public var creationDateIsFileTime: Bool
    /// When the asset last changed, seconds since 1970.
    public var modificationDate: Double?
    /// When the asset entered the library, seconds since 1970.
    public var addedDate: Double
    /// Degrees, north positive.
    public var latitude: Double?
    /// Degrees, east positive.
    public var longitude: Double?
    /// Meters above sea level.
    public var altitude: Double?
    /// How fast the camera moved, meters per second (`CLLocation.speed`); nil when unknown.
    public var speed: Double?
    /// The direction the camera moved in, degrees from true north (`CLLocation.course`); nil when
    /// unknown.
    public var course: Double?
    /// Length in seconds; 0 for stills.
    public var duration: Double
    /// Whether the user marked it a favorite.
    public var isFavorite: Bool
    /// Whether the user hid it.
    public var isHidden: Bool
    /// The burst it belongs to.
    public var burstIdentifier: String?
    /// `PHAssetBurstSelectionType` bits.
    public var burstSelectionTypes: Int64
    /// Whether it stands for its burst.
    public var representsBurst: Bool
    /// The format of the asset's edits, if edited.
    public var adjustmentFormatIdentifier: String?
    /// Whether a RAW file is among its resources (the RAW smart album).
    public var isRAW: Bool
    /// Stars, 0 (none) to 5 (`PHAssetRating`): the user's, or the file's `xmp:Rating`.
    public var rating: Int64
    /// Taken with a phone's front camera (the Selfies smart album).
    public var isSelfie: Bool
    /// The camera's maker (EXIF `Make`), for predicates (`make`).
    public var make: String?
    /// The camera's model (EXIF `Model`), for predicates (`model`).
    public var model: String?
    /// Which original of a RAW+JPEG pair renders and edits start from: 0 the compressed one (the
    /// `.photo`, the default), 1 the RAW (the `.alternatePhoto`); `PHAsset.OriginalResourceChoice`.
    public var originalResourceChoice: Int64

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
        self.creationDateIsFileTime = false
        self.modificationDate = addedDate.timeIntervalSince1970
        self.addedDate = addedDate.timeIntervalSince1970
        self.latitude = nil
        self.longitude = nil
        self.altitude = nil
        self.speed = nil
        self.course = nil
        self.duration = 0
        self.isFavorite = false
        self.isHidden = false
        self.burstIdentifier = nil
        self.burstSelectionTypes = 0
        self.representsBurst = false
        self.adjustmentFormatIdentifier = nil
        self.isRAW = false
        self.rating = 0
        self.isSelfie = false
        self.make = nil
        self.model = nil
        self.originalResourceChoice = 0
    }

    /// A record from JSON (a tombstone); one kept before ratings, selfies, the original resource
    /// choice and the file-time flag existed has none of them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int64.self, forKey: .id)
        localIdentifier = try container.decode(String.self, forKey: .localIdentifier)
        mediaType = try container.decode(Int.self, forKey: .mediaType)
        mediaSubtypes = try container.decode(Int64.self, forKey: .mediaSubtypes)
        sourceType = try container.decode(Int64.self, forKey: .sourceType)
        pixelWidth = try container.decode(Int.self, forKey: .pixelWidth)
        pixelHeight = try container.decode(Int.self, forKey: .pixelHeight)
        creationDate = try container.decodeIfPresent(Double.self, forKey: .creationDate)
        creationDateOffset = try container.decodeIfPresent(Int.self, forKey: .creationDateOffset)
        creationDateIsFloating = try container.decode(Bool.self, forKey: .creationDateIsFloating)
        creationDateIsFileTime = try container.decodeIfPresent(Bool.self, forKey: .creationDateIsFileTime) ?? false
        modificationDate = try container.decodeIfPresent(Double.self, forKey: .modificationDate)
        addedDate = try container.decode(Double.self, forKey: .addedDate)
        latitude = try container.decodeIfPresent(Double.self, forKey: .latitude)
        longitude = try container.decodeIfPresent(Double.self, forKey: .longitude)
        altitude = try container.decodeIfPresent(Double.self, forKey: .altitude)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        course = try container.decodeIfPresent(Double.self, forKey: .course)
        duration = try container.decode(Double.self, forKey: .duration)
        isFavorite = try container.decode(Bool.self, forKey: .isFavorite)
        isHidden = try container.decode(Bool.self, forKey: .isHidden)
        burstIdentifier = try container.decodeIfPresent(String.self, forKey: .burstIdentifier)
        burstSelectionTypes = try container.decode(Int64.self, forKey: .burstSelectionTypes)
        representsBurst = try container.decode(Bool.self, forKey: .representsBurst)
        adjustmentFormatIdentifier = try container.decodeIfPresent(String.self, forKey: .adjustmentFormatIdentifier)
        isRAW = try container.decode(Bool.self, forKey: .isRAW)
        rating = try container.decodeIfPresent(Int64.self, forKey: .rating) ?? 0
        isSelfie = try container.decodeIfPresent(Bool.self, forKey: .isSelfie) ?? false
        make = try container.decodeIfPresent(String.self, forKey: .make)
        model = try container.decodeIfPresent(String.self, forKey: .model)
        originalResourceChoice = try container.decodeIfPresent(Int64.self, forKey: .originalResourceChoice) ?? 0
    }

    /// The columns ``AssetRecord`` reads and writes, `id` first (the generated `isBurstVisible` is
    /// not one of them): the one list the store selects and inserts with, and that SQL written
    /// elsewhere (a benchmark's floor) takes as ``selectionSQL``, so that no copy can fall behind.
    public static let columnNames = [
        "id", "localIdentifier", "mediaType", "mediaSubtypes", "sourceType", "pixelWidth", "pixelHeight",
        "creationDate", "creationDateOffset", "creationDateIsFloating", "modificationDate", "addedDate", "latitude",
        "longitude", "altitude", "duration", "isFavorite", "isHidden", "burstIdentifier", "burstSelectionTypes",
        "representsBurst", "adjustmentFormatIdentifier", "isRAW", "rating", "isSelfie", "originalResourceChoice",
        "make", "model", "creationDateIsFileTime", "speed", "course",
    ]

    /// ``columnNames`` as an SQL result list: `SELECT \(AssetRecord.selectionSQL) FROM asset WHERE ...`.
    public static let selectionSQL = columnNames.joined(separator: ", ")

    /// How each of ``columnNames`` is kept in a record's JSON form (a tombstone, a trashed asset's
    /// kept record): what it is read back as.
    static func jsonKind(of column: String) -> SQLDialect.JSONKind {
        switch column {
        case "localIdentifier", "burstIdentifier", "adjustmentFormatIdentifier", "make", "model": .text
        case "creationDate", "modificationDate", "addedDate", "latitude", "longitude", "altitude", "duration", "speed",
            "course":
            .real
        case "creationDateIsFloating", "isFavorite", "isHidden", "representsBurst", "isRAW", "isSelfie",
            "creationDateIsFileTime":
            .flag
        default: .integer
        }
    }

    /// `columns` (of ``columnNames``) read out of a record's JSON form in `json` (an expression),
    /// each as its name: rows of records kept as JSON, as the `asset` table's.
    static func columns(_ columns: some Sequence<String>, fromJSON json: String, _ dialect: SQLDialect) -> String {
        columns.map { "\(dialect.field($0, of: json, as: jsonKind(of: $0))) AS \($0)" }.joined(separator: ", ")
    }

    /// The record's JSON form (a tombstone, a trashed asset's kept record), which ``init(from:)``
    /// reads: each of ``columnNames`` with a value, as ``jsonKind(of:)`` says, nil ones left out as
    /// `JSONEncoder` leaves them. Written from ``values`` (``KeptJSON``) rather than through
    /// `JSONEncoder`, which took 30 µs a record, a tenth of a deletion's time. Throws for a number JSON cannot hold (not
    /// a number, infinite), as `JSONEncoder` does.
    func keptJSON() throws -> String {
        var object = KeptJSON(capacity: 768)
        for (column, value) in zip(Self.columnNames, [.int(id)] + values) {
            try object.add(column, value, flag: Self.jsonKind(of: column) == .flag)
        }
        return String(decoding: object.finished, as: UTF8.self)
    }

    /// Whether a fetch with PhotoKit's default options shows it: not hidden and, of a burst, only
    /// the frame that represents it or one the user picked (the table's `isBurstVisible`).
    public var isShownByDefault: Bool {
        let userPick = Int64(PHAssetBurstSelectionType.userPick.rawValue)
        return !isHidden && (burstIdentifier == nil || representsBurst || burstSelectionTypes & userPick != 0)
    }

    /// `isBurstVisible` as the `asset` table derives it, from the other columns of a row.
    static let burstVisibility =
        "CASE WHEN burstIdentifier IS NULL OR representsBurst <> 0 OR (burstSelectionTypes & 2) <> 0 THEN 1 ELSE 0 END"

    /// ``columnNames`` after `table.`, for a query that names its tables.
    static func columns(_ alias: String) -> String { SQLText.list(columnNames, alias: alias) }

    /// The record's values for ``columnNames`` after `id`, in their order: what an insert binds.
    var values: [SQLValue] {
        [
            .text(localIdentifier), .int(Int64(mediaType)), .int(mediaSubtypes), .int(sourceType),
            .int(Int64(pixelWidth)), .int(Int64(pixelHeight)), .double(creationDate), .int(creationDateOffset),
            .flag(creationDateIsFloating), .double(modificationDate), .double(addedDate), .double(latitude),
            .double(longitude), .double(altitude), .double(duration), .flag(isFavorite), .flag(isHidden),
            .text(burstIdentifier), .int(burstSelectionTypes), .flag(representsBurst),
            .text(adjustmentFormatIdentifier), .flag(isRAW), .int(rating), .flag(isSelfie),
            .int(originalResourceChoice), .text(make), .text(model), .flag(creationDateIsFileTime), .double(speed),
            .double(course),
        ]
    }

    // Written out rather than derived from Codable, which cost ten times as much as the query
    // in the daemon's path from a file's arrival to its commit.

    /// An asset from a row that selected ``selectionSQL`` (or ``columns(_:)``) first.
    package init(row: StoreRow) throws {
        try row.expectColumns(Self.columnNames.count, of: "an asset")
        id = try row.int64(0)
        localIdentifier = try row.text(1)
        mediaType = Int(try row.int64(2))
        mediaSubtypes = try row.int64(3)
        sourceType = try row.int64(4)
        pixelWidth = Int(try row.int64(5))
        pixelHeight = Int(try row.int64(6))
        creationDate = row.optionalDouble(7)
        creationDateOffset = row.optionalInt64(8).map(Int.init)
        creationDateIsFloating = try row.bool(9)
        modificationDate = row.optionalDouble(10)
        addedDate = row.optionalDouble(11) ?? 0
        latitude = row.optionalDouble(12)
        longitude = row.optionalDouble(13)
        altitude = row.optionalDouble(14)
        duration = row.optionalDouble(15) ?? 0
        isFavorite = try row.bool(16)
        isHidden = try row.bool(17)
        burstIdentifier = row.optionalText(18)
        burstSelectionTypes = try row.int64(19)
        representsBurst = try row.bool(20)
        adjustmentFormatIdentifier = row.optionalText(21)
        isRAW = try row.bool(22)
        rating = try row.int64(23)
        isSelfie = try row.bool(24)
        originalResourceChoice = try row.int64(25)
        make = row.optionalText(26)
        model = row.optionalText(27)
        creationDateIsFileTime = try row.bool(28)
        speed = row.optionalDouble(29)
        course = row.optionalDouble(30)
    }

    /// Writes the row's values (by its id); a row that is not there is a ``StoreError`` (`notFound`).
    func update(in connection: some StoreConnection) throws {
        guard let id,
            try connection.execute("UPDATE asset SET \(Self.updateAssignments) WHERE id = ?", values + [.int(id)]) > 0
        else { throw StoreError(.notFound, "no asset \(localIdentifier) to update") }
    }

    private static let updateAssignments = SQLText.assignments(columnNames.dropFirst())
}
