/// The names of the places where some photos were taken: what `localizedLocationNames` gives for
/// an album or a folder.
///
/// The rule: each position is named after its nearest place within the radius (those with none
/// count for nothing); the distinct names come most frequent first, ties in name order, at most
/// ``defaultLimit``. When there are more names than that and the places lie in more than one
/// country, the countries are named instead, by the same order (a trip through twelve towns of
/// France and Italy reads `["France", "Italy"]`), provided every one has a name in the country
/// table. A single place is named alone (`["Lyon"]`), not followed by its country: every entry is
/// a place the photos were taken in, as PhotoKit's moments list theirs.
///
/// ```swift
/// PlaceNames.names(of: [(45.76, 4.84), (45.90, 6.13), (45.75, 4.85)], in: gazetteer)   // ["Lyon", "Annecy"]
/// ```
public enum PlaceNames {
    /// At most three names: what fits a title line, as Photos shows a few.
    public static let defaultLimit = 3

    /// The names for these positions (degrees).
    public static func names(
        of positions: some Sequence<(latitude: Double, longitude: Double)>, in gazetteer: Gazetteer,
        radius: Double = Gazetteer.defaultRadius, limit: Int = defaultLimit
    ) -> [String] {
        guard limit > 0 else { return [] }
        // Counts per place first: photos cluster, so a place is named once, not once per photo.
        var placeCounts: [Int: Int] = [:]
        for (latitude, longitude) in positions {
            if let index = gazetteer.nearestIndex(latitude: latitude, longitude: longitude, within: radius) {
                placeCounts[index, default: 0] += 1
            }
        }
        var nameCounts: [String: Int] = [:]
        var countryCounts: [String: Int] = [:]
        for (index, count) in placeCounts {
            nameCounts[gazetteer.name(at: index), default: 0] += count
            countryCounts[gazetteer.countryCode(at: index), default: 0] += count
        }
        if nameCounts.count > limit && countryCounts.count > 1 {
            let countries = countryCounts.map { (name: gazetteer.countryName(forCode: $0.key), count: $0.value) }
            if countries.allSatisfy({ $0.name != nil }) {
                return ranked(countries.map { ($0.name!, $0.count) }, limit: limit)
            }
        }
        return ranked(nameCounts.map { ($0.key, $0.value) }, limit: limit)
    }

    /// The most frequent first, ties in name order, at most `limit`. Two countries or places of
    /// one name are one entry.
    static func ranked(_ counts: [(String, Int)], limit: Int) -> [String] {
        var merged: [String: Int] = [:]
        for (name, count) in counts { merged[name, default: 0] += count }
        return merged.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(limit).map(\.key)
    }
}
