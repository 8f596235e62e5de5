import Foundation

/// What an editing app needs to redo or change its edit of an asset: its own description of the
/// edit (filter names, slider values), named by the app's format.
///
/// ```swift
/// let data = PHAdjustmentData(
///     formatIdentifier: "org.example.sepia", formatVersion: "1.0", data: Data("amount=0.8".utf8))
/// ```
open class PHAdjustmentData: NSObject, @unchecked Sendable {  // Open, so unchecked; immutable: `let`s.
    /// The editing app's identifier for its format (a reverse-DNS name).
    public let formatIdentifier: String
    /// The version of the format, for the app to tell which it wrote.
    public let formatVersion: String
    /// The edit, in the app's format.
    public let data: Data

    /// Adjustment data in the app's format.
    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHAdjustmentData else { return false }
        return formatIdentifier == other.formatIdentifier && formatVersion == other.formatVersion && data == other.data
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(formatIdentifier)
        hasher.combine(formatVersion)
        hasher.combine(data)
        return hasher.finalize()
    }
}

/// The file an edit's adjustment data is kept in: Apple's adjustment envelope, the XML property
/// list of the `.AAE` files iOS writes beside edited photos (`adjustmentFormatIdentifier`,
/// `adjustmentFormatVersion`, `adjustmentData`, `adjustmentBaseVersion`, `adjustmentTimestamp`),
/// so that a copy made by `photos export --current` reads as one elsewhere.
enum AdjustmentEnvelope {
    /// The uniform type identifier of the file.
    static let uniformTypeIdentifier = "com.apple.photos.apple-adjustment-envelope"
    /// Its MIME type.
    static let mimeType = "application/xml"

    /// The envelope of `adjustment`; `overEarlierRender` records that the edit was made over the
    /// render of an earlier edit (base version 1) rather than the original (0).
    static func encode(_ adjustment: PHAdjustmentData, overEarlierRender: Bool, at date: Date) throws -> Data {
        let list: [String: Any] = [
            "adjustmentFormatIdentifier": adjustment.formatIdentifier,
            "adjustmentFormatVersion": adjustment.formatVersion,
            "adjustmentData": adjustment.data,
            "adjustmentBaseVersion": overEarlierRender ? 1 : 0,
            "adjustmentTimestamp": date,
        ]
        return try PropertyListSerialization.data(fromPropertyList: list, format: .xml, options: 0)
    }

    /// Whether an envelope records an edit made over an earlier edit's render (base version 1).
    static func isOverEarlierRender(_ data: Data) -> Bool {
        guard let list = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            return false
        }
        return (list["adjustmentBaseVersion"] as? Int) == 1
    }

    /// The adjustment data in an envelope; nil when it is not one.
    static func decode(_ data: Data) -> PHAdjustmentData? {
        guard let list = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let identifier = list["adjustmentFormatIdentifier"] as? String,
            let version = list["adjustmentFormatVersion"] as? String,
            let payload = list["adjustmentData"] as? Data
        else { return nil }
        return PHAdjustmentData(formatIdentifier: identifier, formatVersion: version, data: payload)
    }
}
