import Foundation

// `setValue(_:forKey:)`, which Foundation on Linux does not have, for the PhotoKit classes whose
// properties can be set: what Apple's key-value coding does with them, matched key by key.
//
// | Class | Keys that can be set |
// |---|---|
// | `PHObject` and its subclasses | none: the objects are immutable snapshots |
// | `PHFetchOptions` | `predicate`, `sortDescriptors`, `fetchLimit`, `includeHiddenAssets`, `includeAllBurstAssets`, `includeAssetSourceTypes`, `wantsIncrementalChangeDetails` |
// | `PHAssetChangeRequest` | `creationDate`, `location`, `favorite`/`isFavorite`, `hidden`/`isHidden` |
// | `PHAssetCollectionChangeRequest`, `PHCollectionListChangeRequest` | `title` |
//
// Anything else is what Apple's runtime raises for (`NSUnknownKeyException` for a key the class
// does not have or cannot set, `NSInvalidArgumentException` for nil given to a number or a flag),
// which ends an app: here it stops the program with the class, the key and what to use instead.

/// Stops the program as Apple's key-value coding raises for a key it cannot set.
func undefinedKey(_ key: String, of object: Any, _ advice: String = "") -> Never {
    preconditionFailure(
        "[\(type(of: object)) setValue:forKey:]: this class is not key value coding-compliant for the key \(key)."
            + (advice.isEmpty ? "" : " " + advice))
}

/// The value for a key as the type its property has, or the program stopped as Apple's runtime
/// stops it for a value it cannot store (nil for a number or a flag, another class of object).
func keyedValue<T>(_ value: Any?, _ key: String, of object: Any, as _: T.Type) -> T {
    guard let value else {
        preconditionFailure(
            "[\(type(of: object)) setNilValueForKey]: could not set nil as the value for the key \(key).")
    }
    if let typed = value as? T { return typed }
    preconditionFailure(
        "\(type(of: object)): the value for the key \(key) is a \(Swift.type(of: value)), not a \(T.self)")
}

extension PHObject {
    /// Key-value coding's setter, which PhotoKit's objects refuse: they are snapshots of the
    /// library, changed only through change requests in `performChanges`. Stops the program for
    /// every key. Their properties are read-only, so Apple's key-value coding finds no setter and
    /// raises `NSUnknownKeyException`, unless it finds an instance variable of that name, which
    /// it would change in that one object and never in the library: no program can rely on that.
    ///
    /// ```swift
    /// // Not `asset.setValue(true, forKey: "favorite")`, but:
    /// try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
    /// ```
    public func setValue(_ value: Any?, forKey key: String) {
        let request =
            switch self {
            case is PHAsset: "PHAssetChangeRequest"
            case is PHAssetCollection: "PHAssetCollectionChangeRequest"
            default: "PHCollectionListChangeRequest"
            }
        undefinedKey(
            key, of: self, "PhotoKit objects are immutable: set \(key) on a \(request) inside performChanges.")
    }
}

extension PHFetchOptions {
    /// Sets the option named `key`, as key-value coding does on Apple's platforms (programs pass
    /// options by name: `options.setValue(true, forKey: "includeHiddenAssets")`).
    ///
    /// The keys are the options' property names: `predicate`, `sortDescriptors`, `fetchLimit`,
    /// `includeHiddenAssets`, `includeAllBurstAssets`, `includeAssetSourceTypes` (a raw value or
    /// a `PHAssetSourceType`) and `wantsIncrementalChangeDetails`. Numbers and flags take
    /// `NSNumber`, `Int` or `Bool`. Another key, nil for a number or a flag, or a value of
    /// another type stops the program, as Apple's runtime raises for them.
    public func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "predicate": predicate = value.map { keyedValue($0, key, of: self, as: Foundation.NSPredicate.self) }
        case "sortDescriptors":
            sortDescriptors = value.map { keyedValue($0, key, of: self, as: [Foundation.NSSortDescriptor].self) }
        case "fetchLimit": fetchLimit = keyedValue(value, key, of: self, as: Int.self)
        case "includeHiddenAssets": includeHiddenAssets = keyedValue(value, key, of: self, as: Bool.self)
        case "includeAllBurstAssets": includeAllBurstAssets = keyedValue(value, key, of: self, as: Bool.self)
        case "includeAssetSourceTypes":
            includeAssetSourceTypes =
                (value as? PHAssetSourceType)
                ?? PHAssetSourceType(rawValue: keyedValue(value, key, of: self, as: UInt.self))
        case "wantsIncrementalChangeDetails":
            wantsIncrementalChangeDetails = keyedValue(value, key, of: self, as: Bool.self)
        default: undefinedKey(key, of: self)
        }
    }
}

extension PHAssetChangeRequest {
    /// Sets the property named `key` of the asset this request changes, as key-value coding does
    /// on Apple's platforms: `creationDate` (a `Date` or nil), `location` (a ``CLLocation`` or
    /// nil), `favorite` or `isFavorite`, `hidden` or `isHidden` (`Bool` or `NSNumber`). Another
    /// key, or a value of another type, stops the program, as Apple's runtime raises for them.
    ///
    /// ```swift
    /// try library.performChangesAndWait {
    ///     PHAssetChangeRequest(for: asset).setValue(true, forKey: "favorite")
    /// }
    /// ```
    public func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "creationDate": creationDate = value.map { keyedValue($0, key, of: self, as: Date.self) }
        case "location": location = value.map { keyedValue($0, key, of: self, as: CLLocation.self) }
        case "favorite", "isFavorite": isFavorite = keyedValue(value, key, of: self, as: Bool.self)
        case "hidden", "isHidden": isHidden = keyedValue(value, key, of: self, as: Bool.self)
        default: undefinedKey(key, of: self)
        }
    }
}

extension PHAssetCollectionChangeRequest {
    /// Sets the album's `title` (a `String`), as key-value coding does on Apple's platforms;
    /// another key, or a value of another type, stops the program, as Apple's runtime raises.
    public func setValue(_ value: Any?, forKey key: String) {
        guard key == "title" else { undefinedKey(key, of: self) }
        title = keyedValue(value, key, of: self, as: String.self)
    }
}

extension PHCollectionListChangeRequest {
    /// Sets the folder's `title` (a `String`), as key-value coding does on Apple's platforms;
    /// another key, or a value of another type, stops the program, as Apple's runtime raises.
    public func setValue(_ value: Any?, forKey key: String) {
        guard key == "title" else { undefinedKey(key, of: self) }
        title = keyedValue(value, key, of: self, as: String.self)
    }
}
