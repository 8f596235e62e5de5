import Foundation

/// Local identifiers in PhotoKit's shape: a UUID and a suffix naming the object type
/// (`7A3C…/L0/001` for an asset). The one place identifiers are formed.
public enum LocalIdentifier {
    /// A new identifier for an object of `type`.
    public static func make(_ type: PHObjectType) -> String {
        UUID().uuidString + suffix(type)
    }

    /// The suffix PhotoKit gives identifiers of `type`.
    public static func suffix(_ type: PHObjectType) -> String {
        switch type {
        case .asset: "/L0/001"
        case .assetCollection: "/L0/040"
        case .collectionList: "/L0/020"
        }
    }
}
