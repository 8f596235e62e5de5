import Foundation
import PhotosCore

/// Key-value lookups for programs that read PhotoKit objects by key (`value(forKey:)`), which
/// Foundation on Linux does not have.
///
/// ```swift
/// let resource = PHAssetResource.assetResources(for: asset)[0]
/// let size = resource.value(forKey: "fileSize") as? Int64 ?? 0   // `as? Int`, `as? CLong` work too
/// let name = asset.value(forKey: "filename") as? String
/// ```
///
/// The keys are those programs read, with the types Apple's runtime answers them with: numbers
/// and flags as `NSNumber` (so `as? Int64`, `as? Int`, `as? UInt64`, `as? Double`, `as? Bool` and
/// `as? NSNumber` all work), dates as `Date`, text as `String`, a location as ``CLLocation``. A
/// property that has no value (an asset with no location) answers nil.
///
/// | Object | Keys |
/// |---|---|
/// | every object | `localIdentifier` |
/// | ``PHAsset`` | `mediaType`, `mediaSubtypes`, `sourceType`, `pixelWidth`, `pixelHeight`, `duration`, `creationDate`, `modificationDate`, `location`, `favorite`/`isFavorite`, `hidden`/`isHidden`, `burstIdentifier`, `burstSelectionTypes`, `representsBurst`, `playbackStyle`, `hasAdjustments`, `adjustmentFormatIdentifier`, `filename`, `uniformTypeIdentifier` |
/// | ``PHCollection`` | `localizedTitle`, `canContainAssets`, `canContainCollections` |
/// | ``PHAssetCollection`` | `assetCollectionType`, `assetCollectionSubtype`, `estimatedAssetCount`, `startDate`, `endDate`, `approximateLocation` |
/// | ``PHCollectionList`` | `collectionListType`, `collectionListSubtype`, `startDate`, `endDate` |
///
/// A key that is not in the table answers nil; Apple's objects raise `NSUndefinedKeyException`
/// instead, which ends the program.
extension PHObject {
    /// The value of the property named `key`, as Apple's runtime gives it (see the table above);
    /// nil for a property with no value and for a key the object does not have.
    public func value(forKey key: String) -> Any? {
        if key == "localIdentifier" { return localIdentifier }
        switch self {
        case let asset as PHAsset: return asset.keyedValue(key)
        case let collection as PHAssetCollection: return collection.keyedValue(key)
        case let list as PHCollectionList: return list.keyedValue(key)
        case let collection as PHCollection: return collection.collectionValue(key)
        default: return nil
        }
    }
}

extension PHAsset {
    fileprivate func keyedValue(_ key: String) -> Any? {
        switch key {
        case "mediaType": NSNumber(value: mediaType.rawValue)
        case "mediaSubtypes": NSNumber(value: mediaSubtypes.rawValue)
        case "sourceType": NSNumber(value: sourceType.rawValue)
        case "pixelWidth": NSNumber(value: pixelWidth)
        case "pixelHeight": NSNumber(value: pixelHeight)
        case "duration": NSNumber(value: duration)
        case "creationDate": creationDate
        case "modificationDate": modificationDate
        case "location": location
        case "favorite", "isFavorite": NSNumber(value: isFavorite)
        case "hidden", "isHidden": NSNumber(value: isHidden)
        case "burstIdentifier": burstIdentifier
        case "burstSelectionTypes": NSNumber(value: burstSelectionTypes.rawValue)
        case "representsBurst": NSNumber(value: representsBurst)
        case "playbackStyle": NSNumber(value: playbackStyle.rawValue)
        case "hasAdjustments": NSNumber(value: hasAdjustments)
        case "adjustmentFormatIdentifier": adjustmentFormatIdentifier
        // Not public in PhotoKit, but read by many programs: the name of the asset's main file.
        case "filename": PHAssetResource.assetResources(for: self).first?.originalFilename
        case "uniformTypeIdentifier": contentType.identifier
        default: nil
        }
    }
}

extension PHCollection {
    fileprivate func collectionValue(_ key: String) -> Any? {
        switch key {
        case "localizedTitle": localizedTitle
        case "canContainAssets": NSNumber(value: canContainAssets)
        case "canContainCollections": NSNumber(value: canContainCollections)
        default: nil
        }
    }
}

extension PHAssetCollection {
    fileprivate func keyedValue(_ key: String) -> Any? {
        switch key {
        case "assetCollectionType": NSNumber(value: assetCollectionType.rawValue)
        case "assetCollectionSubtype": NSNumber(value: assetCollectionSubtype.rawValue)
        case "estimatedAssetCount": NSNumber(value: estimatedAssetCount)
        case "startDate": startDate
        case "endDate": endDate
        case "approximateLocation": approximateLocation
        default: collectionValue(key)
        }
    }
}

extension PHCollectionList {
    fileprivate func keyedValue(_ key: String) -> Any? {
        switch key {
        case "collectionListType": NSNumber(value: collectionListType.rawValue)
        case "collectionListSubtype": NSNumber(value: collectionListSubtype.rawValue)
        case "startDate": startDate
        case "endDate": endDate
        default: collectionValue(key)
        }
    }
}

extension PHAssetResource {
    /// The value of the property named `key`, as Apple's runtime gives it; nil for a key the
    /// resource does not have (Apple's raises `NSUndefinedKeyException`).
    ///
    /// `fileSize`, which PhotoKit does not publish but programs read this way, is the file's size
    /// in bytes as an `NSNumber`, so `as? Int64`, `as? Int`, `as? CLong`, `as? UInt64` and
    /// `as? Double` all give it:
    ///
    /// ```swift
    /// let bytes = PHAssetResource.assetResources(for: asset)
    ///     .compactMap { $0.value(forKey: "fileSize") as? Int64 }.reduce(0, +)
    /// ```
    ///
    /// The other keys: `originalFilename`, `filename`, `uniformTypeIdentifier`, `type` (the raw
    /// value of `PHAssetResourceType`), `assetLocalIdentifier`, `pixelWidth`, `pixelHeight`,
    /// `locallyAvailable` (whether the file is there now; Apple's says whether it is downloaded),
    /// and `fileURL` or `privateFileURL` (the file's URL).
    public func value(forKey key: String) -> Any? {
        switch key {
        case "fileSize": NSNumber(value: fileSize)
        case "originalFilename", "filename": originalFilename
        case "uniformTypeIdentifier": uniformTypeIdentifier
        case "type": NSNumber(value: type.rawValue)
        case "assetLocalIdentifier": assetLocalIdentifier
        case "pixelWidth": NSNumber(value: pixelWidth)
        case "pixelHeight": NSNumber(value: pixelHeight)
        case "locallyAvailable": NSNumber(value: FileManager.default.fileExists(atPath: fileURL.path))
        case "fileURL", "privateFileURL": fileURL
        default: nil
        }
    }
}
