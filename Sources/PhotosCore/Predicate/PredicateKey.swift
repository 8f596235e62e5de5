/// The type of a key's column, used to type-check comparisons.
public enum PredicateKeyType: Sendable, Hashable {
    /// An INTEGER column compared with numbers (`pixelWidth`, `mediaType`, `estimatedAssetCount`).
    case integer
    /// An INTEGER 0/1 column compared with `YES`/`NO`/`1`/`0` (`favorite`, `hidden`).
    case bool
    /// A REAL column compared with numbers (`duration`).
    case double
    /// A REAL column of seconds since 1970, compared with dates only (`creationDate`).
    case date
    /// A TEXT column compared with strings (`localIdentifier`, `burstIdentifier`, `localizedTitle`).
    case string
    /// An INTEGER column of option bits, usable with `&` and `|` (`mediaSubtypes`).
    case bitmask
    /// Where an asset was taken (`location`): compared with `nil`, or measured with
    /// `distanceToLocation(location, latitude, longitude)` in kilometres.
    case location
}

/// One key a class supports: its canonical name, accepted aliases, and type.
///
/// ```swift
/// let favorite = PredicateKey(name: "favorite", aliases: ["isFavorite"], type: .bool)
/// ```
public struct PredicateKey: Sendable, Hashable {
    /// The canonical name, passed to the `column` mapping when compiling SQL.
    public let name: String
    /// Other spellings PhotoKit accepts for the same key (`isFavorite` for `favorite`).
    public let aliases: [String]
    /// The column type, which decides the operators and values the key accepts.
    public let type: PredicateKeyType
    /// Whether the column may hold NULL; comparisons on such columns are guarded so `NOT` stays two-valued.
    public let isNullable: Bool
    /// The names the JSON writes for the key's values, with the numbers they stand for: an integer
    /// key compares with a name as with its number (`mediaType == "video"`, or bare `video`), and a
    /// bitmask key `CONTAINS` a name as the JSON's list does (`mediaSubtypes CONTAINS "photoLive"`).
    public let names: [String: Int64]

    /// Creates a key. `isNullable` defaults to true for dates, strings and locations, false otherwise.
    public init(
        name: String, aliases: [String] = [], type: PredicateKeyType, isNullable: Bool? = nil,
        names: [String: Int64] = [:]
    ) {
        self.name = name
        self.aliases = aliases
        self.type = type
        self.isNullable = isNullable ?? (type == .date || type == .string || type == .location)
        self.names = names
    }
}
