import Foundation

/// A small gazetteer in GeoNames' format (thirteen real cities with GeoNames' coordinates, a few
/// lines that must be left out, a few that are not geonames at all) and a country table in
/// tzdata's `iso3166.tab` format, written by the tests that need them.
public enum GazetteerFixture {
    /// The cities' lines: 19 tab-separated columns each, as in `cities1000.txt`.
    public static let cities = [
        "2996944\tLyon\tLyon\t\t45.74846\t4.84671\tP\tPPLA\tFR\t\t84\t\t\t\t522969\t\t200\tEurope/Paris\t2024-01-01",
        "2968254\tVilleurbanne\tVilleurbanne\t\t45.76601\t4.8795\tP\tPPL\tFR\t\t84\t\t\t\t150659\t\t200\tEurope/Paris\t2024-01-01",
        "3037543\tAnnecy\tAnnecy\t\t45.9\t6.11667\tP\tPPLA3\tFR\t\t84\t\t\t\t128199\t\t200\tEurope/Paris\t2024-01-01",
        "3014728\tGrenoble\tGrenoble\t\t45.16667\t5.71667\tP\tPPLA3\tFR\t\t84\t\t\t\t158552\t\t200\tEurope/Paris\t2024-01-01",
        "2660646\tGeneva\tGeneva\t\t46.20222\t6.14569\tP\tPPLA\tCH\t\tGE\t\t\t\t183981\t\t200\tEurope/Zurich\t2024-01-01",
        "2988507\tParis\tParis\t\t48.85341\t2.3488\tP\tPPLC\tFR\t\t11\t\t\t\t2138551\t\t200\tEurope/Paris\t2024-01-01",
        "3169070\tRome\tRome\tRoma,Rom\t41.89193\t12.51133\tP\tPPLC\tIT\t\t07\t\t\t\t2318895\t\t200\tEurope/Rome\t2024-01-01",
        "3176959\tFlorence\tFlorence\tFirenze\t43.77925\t11.24626\tP\tPPLA\tIT\t\t16\t\t\t\t349296\t\t200\tEurope/Rome\t2024-01-01",
        "2643743\tLondon\tLondon\t\t51.50853\t-0.12574\tP\tPPLC\tGB\t\tENG\t\t\t\t8961989\t\t200\tEurope/London\t2024-01-01",
        "3413829\tReykjavík\tReykjavik\t\t64.13548\t-21.89541\tP\tPPLC\tIS\t\t39\t\t\t\t118918\t\t200\tAtlantic/Reykjavik\t2024-01-01",
        "2198148\tSuva\tSuva\t\t-18.14161\t178.44149\tP\tPPLC\tFJ\t\t01\t\t\t\t77366\t\t200\tPacific/Fiji\t2024-01-01",
        "1850147\tTokyo\tTokyo\t\t35.6895\t139.69171\tP\tPPLC\tJP\t\t40\t\t\t\t8336599\t\t200\tAsia/Tokyo\t2024-01-01",
        "3451190\tRio de Janeiro\tRio de Janeiro\t\t-22.90642\t-43.18223\tP\tPPLA\tBR\t\t21\t\t\t\t6747815\t\t200\tAmerica/Sao_Paulo\t2024-01-01",
    ]

    /// Well-formed lines that name no place a photo is named after: a mountain (class T) and a
    /// section of a city (PPLX).
    public static let otherFeatures = [
        "2995603\tMont Blanc\tMont Blanc\t\t45.83265\t6.86517\tT\tMT\tFR\t\t84\t\t\t\t0\t4808\t4695\tEurope/Paris\t2024-01-01",
        "6615344\tVieux Lyon\tVieux Lyon\t\t45.7626\t4.8271\tP\tPPLX\tFR\t\t84\t\t\t\t0\t\t170\tEurope/Paris\t2024-01-01",
    ]

    /// Lines that are not geonames, each for its own reason.
    public static let malformed = [
        "only\tfive\tcolumns\there\t1",
        "3000000\tNowhere\tNowhere\t\tnorth\t4.8\tP\tPPL\tFR\t\t84\t\t\t\t10\t\t0\tEurope/Paris\t2024-01-01",
        "3000001\tBeyond\tBeyond\t\t123.5\t4.8\tP\tPPL\tFR\t\t84\t\t\t\t10\t\t0\tEurope/Paris\t2024-01-01",
        "3000002\t\t\t\t45.7\t4.8\tP\tPPL\tFR\t\t84\t\t\t\t10\t\t0\tEurope/Paris\t2024-01-01",
        "3000003\tToo\tmany\t\t45.7\t4.8\tP\tPPL\tFR\t\t84\t\t\t\t10\t\t0\tEurope/Paris\t2024-01-01\textra\tmore",
        "not a number\tLyon 2\tLyon 2\t\t45.7\t4.8\tP\tPPL\tFR\t\t84\t\t\t\t10\t\t0\tEurope/Paris\t2024-01-01",
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
