import PhotosPlaces
import PhotosTestSupport
import Testing

/// The naming rule: the nearest place of each position, most frequent first, at most three; the
/// countries when more places than that lie in more than one country.
@Suite struct PlaceNamesTests {
    static let lyon = (latitude: 45.75, longitude: 4.85)
    static let annecy = (latitude: 45.90, longitude: 6.12)
    static let grenoble = (latitude: 45.17, longitude: 5.72)
    static let paris = (latitude: 48.85, longitude: 2.35)
    static let geneva = (latitude: 46.20, longitude: 6.15)
    static let rome = (latitude: 41.89, longitude: 12.51)
    static let florence = (latitude: 43.78, longitude: 11.25)
    static let atlantic = (latitude: 45.0, longitude: -30.0)

    let gazetteer: Gazetteer
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-places")
        let files = try GazetteerFixture.write(in: directory)
        gazetteer = try Gazetteer(
            contentsOf: files.gazetteer, countryNames: CountryNames.read(contentsOf: files.countries))
    }

    /// Each row: the positions, then the names expected.
    static let table: [(String, [(latitude: Double, longitude: Double)], [String])] = [
        ("one place is named alone", [lyon, lyon], ["Lyon"]),
        ("the most frequent first", [annecy, lyon, lyon, annecy, lyon], ["Lyon", "Annecy"]),
        ("ties in name order", [lyon, grenoble, annecy], ["Annecy", "Grenoble", "Lyon"]),
        ("positions far from any place count for nothing", [atlantic, atlantic, atlantic, paris], ["Paris"]),
        ("no position, no name", [], []),
        ("only far positions, no name", [atlantic], []),
        (
            "more places than three in one country: the three most frequent",
            [paris, paris, lyon, lyon, lyon, annecy, grenoble, grenoble], ["Lyon", "Grenoble", "Paris"]
        ),
        (
            "more places than three across countries: the countries",
            [lyon, annecy, grenoble, rome, rome, florence, paris], ["France", "Italy"]
        ),
        ("three places across countries are named", [lyon, geneva, rome], ["Geneva", "Lyon", "Rome"]),
    ]

    @Test(arguments: 0..<table.count) func namesFollowTheRule(_ row: Int) {
        let (rule, positions, expected) = Self.table[row]
        #expect(PlaceNames.names(of: positions, in: gazetteer) == expected, "\(rule)")
    }

    @Test func withoutCountryNamesPlacesAreNamed() throws {
        let files = try GazetteerFixture.write(in: directory)
        let noCountries = try Gazetteer(contentsOf: files.gazetteer)
        let positions = [Self.lyon, Self.annecy, Self.grenoble, Self.rome, Self.rome, Self.florence, Self.paris]
        #expect(PlaceNames.names(of: positions, in: noCountries) == ["Rome", "Annecy", "Florence"])
    }

    @Test func theLimitAndTheRadiusCanBeChosen() {
        let positions = [Self.lyon, Self.lyon, Self.annecy]
        #expect(PlaceNames.names(of: positions, in: gazetteer, limit: 1) == ["Lyon"])
        #expect(PlaceNames.names(of: positions, in: gazetteer, limit: 0) == [])
        // Lyon's position is 0.3 km from Lyon; Annecy's 0.3 km from Annecy.
        #expect(PlaceNames.names(of: positions, in: gazetteer, radius: 100) == [])
    }
}
