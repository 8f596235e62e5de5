/// A populated place of a gazetteer: what a position is named after.
public struct Place: Sendable, Hashable {
    /// Its name as the gazetteer gives it (GeoNames' `name` column: the name in use locally, in
    /// UTF-8, not translated).
    public var name: String
    /// Its ISO 3166 country code (`FR`), empty when the gazetteer gives none.
    public var countryCode: String
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Its population (0 when unknown).
    public var population: Int

    /// A place.
    public init(name: String, countryCode: String, latitude: Double, longitude: Double, population: Int = 0) {
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
    }
}
