import Foundation
import PhotosPlaces
import PhotosTestSupport
import Testing

/// Reading a GeoNames file and finding the nearest place within a radius.
@Suite struct GazetteerTests {
    /// Metres in one degree of latitude.
    static let metresPerDegree = Gazetteer.earthRadius * .pi / 180

    func fixture() throws -> (Gazetteer, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "photos-places")
        let files = try GazetteerFixture.write(in: directory)
        let countries = try CountryNames.read(contentsOf: files.countries)
        return (try Gazetteer(contentsOf: files.gazetteer, countryNames: countries), directory)
    }

    @Test func readsTheCitiesAndSkipsAndCountsWhatIsNotOne() throws {
        let (gazetteer, _) = try fixture()
        #expect(gazetteer.count == GazetteerFixture.cities.count)
        #expect(gazetteer.skippedLines == GazetteerFixture.skippedLineCount)
        #expect(gazetteer.otherFeatures == GazetteerFixture.otherFeatures.count)
        let reykjavik = try #require(gazetteer.nearestPlace(latitude: 64.14, longitude: -21.9))
        #expect(reykjavik.name == "Reykjavík", "the name column, in UTF-8")
        #expect(reykjavik.countryCode == "IS" && reykjavik.population == 118_918)
        #expect(abs(reykjavik.latitude - 64.13548) < 1e-4 && abs(reykjavik.longitude + 21.89541) < 1e-4)
        let grenoble = try #require(gazetteer.nearestPlace(latitude: 45.17, longitude: 5.72))
        #expect(grenoble.name == "Grenoble" && grenoble.population == 158_552, "a Windows line end is read")
    }

    @Test func distancesAreAlongTheEarthsSurface() {
        let degree = Gazetteer.distance(from: (10, 20), to: (11, 20))
        #expect(abs(degree - 111_195) < 1)
        // Paris to London, GeoNames' positions: 343.8 km.
        let parisLondon = Gazetteer.distance(from: (48.85341, 2.3488), to: (51.50853, -0.12574))
        #expect(abs(parisLondon - 343_771) < 10)
        #expect(Gazetteer.distance(from: (0, 179.9), to: (0, -179.9)) < 22_300, "the short way, over the antimeridian")
    }

    @Test func aPositionIsNamedAfterTheNearestPlace() throws {
        let (gazetteer, _) = try fixture()
        // 10 km south of Lyon: 10 km from Lyon, 12.2 km from Villeurbanne.
        let south = (latitude: 45.74846 - 10_000 / Self.metresPerDegree, longitude: 4.84671)
        let place = try #require(gazetteer.nearestPlace(latitude: south.latitude, longitude: south.longitude))
        #expect(place.name == "Lyon")
        #expect(abs(Gazetteer.distance(from: south, to: (place.latitude, place.longitude)) - 10_000) < 2)
        // 10 km north of Lyon is 8.5 km from Villeurbanne.
        #expect(
            gazetteer.nearestPlace(latitude: 45.74846 + 10_000 / Self.metresPerDegree, longitude: 4.84671)?.name
                == "Villeurbanne")
        // Vieux Lyon (a section of the city) and Mont Blanc (a mountain) name nothing.
        #expect(gazetteer.nearestPlace(latitude: 45.7626, longitude: 4.8271)?.name == "Lyon")
        #expect(gazetteer.nearestPlace(latitude: 45.83265, longitude: 6.86517) == nil, "Annecy is 58 km away")
    }

    @Test func nothingIsNamedBeyondTheRadius() throws {
        let (gazetteer, _) = try fixture()
        // 200 km south of Reykjavík, in the Atlantic: 200 km from the nearest place.
        let sea = (latitude: 64.13548 - 200_000 / Self.metresPerDegree, longitude: -21.89541)
        #expect(gazetteer.nearestPlace(latitude: sea.latitude, longitude: sea.longitude) == nil)
        #expect(gazetteer.nearestPlace(latitude: sea.latitude, longitude: sea.longitude, within: 199_000) == nil)
        #expect(
            gazetteer.nearestPlace(latitude: sea.latitude, longitude: sea.longitude, within: 201_000)?.name
                == "Reykjavík")
        // 49 km east of Suva is Suva; 51 km is nothing (the default radius is 50 km).
        let perDegreeThere = Self.metresPerDegree * cos(-18.14161 * .pi / 180)
        #expect(
            gazetteer.nearestPlace(latitude: -18.14161, longitude: 178.44149 + 49_000 / perDegreeThere)?.name
                == "Suva")
        #expect(gazetteer.nearestPlace(latitude: -18.14161, longitude: 178.44149 + 51_000 / perDegreeThere) == nil)
        #expect(gazetteer.nearestPlace(latitude: .nan, longitude: 0) == nil)
        #expect(gazetteer.nearestPlace(latitude: 91, longitude: 0) == nil)
    }

    @Test func placesAcrossTheAntimeridianAndNearThePolesAreFound() {
        let gazetteer = Gazetteer(places: [
            Place(name: "West of the line", countryCode: "FJ", latitude: -16.8, longitude: 179.98),
            Place(name: "Near the pole", countryCode: "", latitude: 89.9, longitude: 10),
        ])
        #expect(gazetteer.nearestPlace(latitude: -16.8, longitude: -179.97)?.name == "West of the line")
        #expect(gazetteer.nearestPlace(latitude: -16.8, longitude: 180.03)?.name == "West of the line")
        // 30 km away, across the pole.
        #expect(gazetteer.nearestPlace(latitude: 89.83, longitude: -170)?.name == "Near the pole")
    }

    @Test func aCutOrGarbledFileNeverCrashes() throws {
        let directory = try TemporaryDirectory(prefix: "photos-places")
        let whole = Array(GazetteerFixture.fileText.utf8)
        let path = directory.path("cut.txt")
        // Cut at every seventh byte: each prefix reads as far as it is whole.
        for end in stride(from: 0, through: whole.count, by: 7) {
            try Data(whole[..<end]).write(to: path)
            let gazetteer = try Gazetteer(contentsOf: path.path)
            #expect(gazetteer.count <= GazetteerFixture.cities.count)
            _ = gazetteer.nearestPlace(latitude: 45.75, longitude: 4.85)
        }
        // Bytes that are not text at all.
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try Data(noise).write(to: path)
        let garbled = try Gazetteer(contentsOf: path.path)
        #expect(garbled.count == 0 && garbled.skippedLines > 0)
        #expect(garbled.nearestPlace(latitude: 45.75, longitude: 4.85) == nil)
        #expect(throws: PlacesError.self) { try Gazetteer(contentsOf: directory.path("absent.txt").path) }
    }

    @Test func linesLongerThanAReadAreWhole() throws {
        // 20,000 places (2.4 MB, so lines straddle the 1 MB reads), on a grid over France.
        let directory = try TemporaryDirectory(prefix: "photos-places")
        var text = ""
        for i in 0..<20_000 {
            let latitude = 43.0 + Double(i / 200) * 0.05
            let longitude = -1.0 + Double(i % 200) * 0.05
            text += "\(i + 1)\tPlace \(i)\tPlace \(i)\t\(String(repeating: "x", count: 40))\t\(latitude)\t\(longitude)"
            text += "\tP\tPPL\tFR\t\t84\t\t\t\t\(i)\t\t0\tEurope/Paris\t2024-01-01\n"
        }
        try Data(text.utf8).write(to: directory.path("grid.txt"))
        let gazetteer = try Gazetteer(contentsOf: directory.path("grid.txt").path)
        #expect(gazetteer.count == 20_000 && gazetteer.skippedLines == 0)
        #expect(gazetteer.nearestPlace(latitude: 43.0 + 57 * 0.05, longitude: -1.0 + 123 * 0.05)?.name == "Place 11523")
    }

    @Test func countryNamesComeFromTzdatasTable() throws {
        let directory = try TemporaryDirectory(prefix: "photos-places")
        let files = try GazetteerFixture.write(in: directory)
        let names = try CountryNames.read(contentsOf: files.countries)
        #expect(names.count == 8)
        #expect(names["FR"] == "France" && names["GB"] == "Britain (UK)")
        #expect(names["#c"] == nil)
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/iso3166.tab"),
            "tzdata's /usr/share/zoneinfo/iso3166.tab is not installed"))
    func theSystemsCountryTableIsRead() throws {
        let path = try #require(CountryNames.defaultPath(environment: [:]))
        let names = try CountryNames.read(contentsOf: path)
        #expect(names.count > 200)
        #expect(names["FR"] == "France" && names["JP"] == "Japan")
    }

    @Test func theGazetteerIsFoundByVariableOrInTheDataDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "photos-places")
        let variable = ["PHOTOS_GAZETTEER": "/some/cities500.txt", "XDG_DATA_HOME": directory.url.path]
        #expect(Gazetteer.defaultPath(environment: variable) == "/some/cities500.txt")
        let data = directory.url.path
        #expect(Gazetteer.defaultDirectory(environment: ["XDG_DATA_HOME": data]) == data + "/photosd/places")
        #expect(Gazetteer.defaultDirectory(environment: ["HOME": "/home/me"]) == "/home/me/.local/share/photosd/places")
        #expect(Gazetteer.defaultPath(environment: ["XDG_DATA_HOME": data]) == nil, "none there: no names")
        try FileManager.default.createDirectory(
            atPath: data + "/photosd/places", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: data + "/photosd/places/cities15000.txt"))
        try Data().write(to: URL(fileURLWithPath: data + "/photosd/places/cities1000.txt"))
        #expect(
            Gazetteer.defaultPath(environment: ["XDG_DATA_HOME": data]) == data + "/photosd/places/cities1000.txt",
            "the most detailed file there")
    }

    @Test func aSharedGazetteerIsReadOncePerFile() throws {
        let directory = try TemporaryDirectory(prefix: "photos-places")
        let files = try GazetteerFixture.write(in: directory)
        var reports: [Gazetteer.LoadReport] = []
        let first = Gazetteer.shared(path: files.gazetteer, countryNamesPath: files.countries) { reports.append($0) }
        let second = Gazetteer.shared(path: files.gazetteer, countryNamesPath: files.countries) { reports.append($0) }
        #expect(first != nil && first === second)
        #expect(reports.count == 1)
        #expect(first?.countryName(forCode: "IT") == "Italy")
        let absent = directory.path("absent.txt").path
        #expect(Gazetteer.shared(path: absent, countryNamesPath: nil) { reports.append($0) } == nil)
        #expect(Gazetteer.shared(path: absent, countryNamesPath: nil) { reports.append($0) } == nil)
        #expect(reports.count == 2, "a failure is told once too")
    }
}
