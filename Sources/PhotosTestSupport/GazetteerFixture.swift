import Foundation

/// A small gazetteer in GeoNames' format (thirteen real cities with GeoNames' coordinates, a few
/// lines that must be left out, a few that are not geonames at all) and a country table in
/// tzdata's `iso3166.tab` format, written by the tests that need them.
public enum GazetteerFixture {
    /// The cities' lines: 19 tab-separated columns each, as in `cities1000.txt`.
    public static let cities = [
        geoname(2_996_944, "Lyon", "45.74846", "4.84671", "PPLA", "FR", "84", 522_969, "Europe/Paris"),
        geoname(2_968_254, "Villeurbanne", "45.76601", "4.8795", "PPL", "FR", "84", 150_659, "Europe/Paris"),
        geoname(3_037_543, "Annecy", "45.9", "6.11667", "PPLA3", "FR", "84", 128_199, "Europe/Paris"),
        geoname(3_014_728, "Grenoble", "45.16667", "5.71667", "PPLA3", "FR", "84", 158_552, "Europe/Paris"),
        geoname(2_660_646, "Geneva", "46.20222", "6.14569", "PPLA", "CH", "GE", 183_981, "Europe/Zurich"),
        geoname(2_988_507, "Paris", "48.85341", "2.3488", "PPLC", "FR", "11", 2_138_551, "Europe/Paris"),
        geoname(3_169_070, "Rome", "41.89193", "12.51133", "PPLC", "IT", "07", 2_318_895, "Europe/Rome", "Roma,Rom"),
        geoname(3_176_959, "Florence", "43.77925", "11.24626", "PPLA", "IT", "16", 349_296, "Europe/Rome", "Firenze"),
        geoname(2_643_743, "London", "51.50853", "-0.12574", "PPLC", "GB", "ENG", 8_961_989, "Europe/London"),
        geoname(3_413_829, "Reykjavík", "64.13548", "-21.89541", "PPLC", "IS", "39", 118_918, "Atlantic/Reykjavik"),
        geoname(2_198_148, "Suva", "-18.14161", "178.44149", "PPLC", "FJ", "01", 77_366, "Pacific/Fiji"),
        geoname(1_850_147, "Tokyo", "35.6895", "139.69171", "PPLC", "JP", "40", 8_336_599, "Asia/Tokyo"),
        geoname(
            3_451_190, "Rio de Janeiro", "-22.90642", "-43.18223", "PPLA", "BR", "21", 6_747_815, "America/Sao_Paulo"),
    ]

    /// Well-formed lines that name no place a photo is named after: a mountain (class T) and a
    /// section of a city (PPLX).
    public static let otherFeatures = [
        geoname(2_995_603, "Mont Blanc", "45.83265", "6.86517", "MT", "FR", "84", 0, "Europe/Paris", class: "T"),
        geoname(6_615_344, "Vieux Lyon", "45.7626", "4.8271", "PPLX", "FR", "84", 0, "Europe/Paris"),
    ]

    /// A line of GeoNames' "geoname" table (the ASCII name is the name: the reader does not use it).
    static func geoname(
        _ id: Int, _ name: String, _ latitude: String, _ longitude: String, _ code: String, _ country: String,
        _ admin1: String, _ population: Int, _ timeZone: String, _ alternateNames: String = "", class: String = "P"
    ) -> String {
        [
            "\(id)", name, name, alternateNames, latitude, longitude, `class`, code, country, "", admin1, "", "", "",
            "\(population)", "", "200", timeZone, "2024-01-01",
        ].joined(separator: "\t")
    }

    /// Lines that are not geonames, each for its own reason.
    public static let malformed = [
        "only\tfive\tcolumns\there\t1",
        geoname(3_000_000, "Nowhere", "north", "4.8", "PPL", "FR", "84", 10, "Europe/Paris"),
        geoname(3_000_001, "Beyond", "123.5", "4.8", "PPL", "FR", "84", 10, "Europe/Paris"),
        geoname(3_000_002, "", "45.7", "4.8", "PPL", "FR", "84", 10, "Europe/Paris"),
        geoname(3_000_003, "Too many", "45.7", "4.8", "PPL", "FR", "84", 10, "Europe/Paris") + "\textra\tmore",
        geoname(3_000_004, "Lyon 2", "45.7", "4.8", "PPL", "FR", "84", 10, "Europe/Paris")
            .replacingOccurrences(of: "3000004", with: "not a number"),
        "\u{1}\u{7F}\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
    ]

    /// tzdata's table, in its format, for the cities' countries.
    public static let countryTable = """
        # ISO 3166 alpha-2 country codes
        #
        # This file is in the public domain.
        #country-
        #code\tname of country, territory, area, or subdivision
        BR\tBrazil
        CH\tSwitzerland
        FJ\tFiji
        FR\tFrance
        GB\tBritain (UK)
        IS\tIceland
        IT\tItaly
        JP\tJapan

        """

    /// The whole file: the cities, mixed with the other lines, Windows line ends on one, and a
    /// last line cut in its coordinates with no newline (a download cut short).
    public static var fileText: String {
        var lines: [String] = []
        for (i, city) in cities.enumerated() {
            lines.append(i == 3 ? city + "\r" : city)
            if i < malformed.count { lines.append(malformed[i]) }
            if i < otherFeatures.count { lines.append(otherFeatures[i]) }
        }
        lines.append("")
        return lines.joined(separator: "\n") + "\n" + "3000009\tCut\tCut\t\t45."
    }

    /// How many lines of ``fileText`` are not geonames (the malformed ones and the cut last line).
    public static var skippedLineCount: Int { malformed.count + 1 }

    /// Writes ``fileText`` and ``countryTable`` into a directory; returns their paths.
    public static func write(in directory: TemporaryDirectory) throws -> (gazetteer: String, countries: String) {
        let gazetteer = directory.path("cities1000.txt")
        let countries = directory.path("iso3166.tab")
        try Data(fileText.utf8).write(to: gazetteer)
        try Data(countryTable.utf8).write(to: countries)
        return (gazetteer.path, countries.path)
    }
}
