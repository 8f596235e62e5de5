import Foundation

extension Gazetteer {
    /// Reads a GeoNames file: `cities500.txt`, `cities1000.txt`, `cities5000.txt`,
    /// `cities15000.txt` or `allCountries.txt` from <https://download.geonames.org/export/dump/>
    /// (CC BY 4.0), unzipped.
    ///
    /// Each line is one "geoname" of 19 tab-separated columns (geonameid, name, asciiname,
    /// alternatenames, latitude, longitude, feature class, feature code, country code, cc2,
    /// admin1 to admin4, population, elevation, dem, timezone, modification date). The file is
    /// read in chunks, never whole; only populated places (class `P`) that still exist are kept
    /// (not `PPLH`, `PPLQ`, `PPLW`, `PPLCH` nor `PPLX`, a section of a city: an album is named
    /// after the city, not its quarters). A line that is not a geoname is counted in
    /// ``skippedLines`` and skipped; only a file that cannot be opened or read throws.
    ///
    /// - Parameter countryNames: country names by ISO code (``CountryNames/read(contentsOf:)``).
    public convenience init(contentsOf path: String, countryNames: [String: String] = [:]) throws(PlacesError) {
        var reader = GeoNamesReader()
        try LineReader.forEachLine(of: path) { line in reader.read(line) }
        self.init(
            builder: reader.builder, skippedLines: reader.skipped, otherFeatures: reader.otherFeatures,
            countryNames: countryNames)
    }
}

/// Parses GeoNames' lines into a ``Gazetteer/Builder``, counting what it leaves out.
struct GeoNamesReader {
    var builder = Gazetteer.Builder()
    var skipped = 0
    var otherFeatures = 0

    private static let tab = UInt8(ascii: "\t")
    /// Feature codes of class P that name no place a photo is taken in today, or part of one.
    private static let leftOut: [[UInt8]] = ["PPLH", "PPLQ", "PPLW", "PPLCH", "PPLX"].map { Array($0.utf8) }
    /// The columns' ranges in the line being read (kept between lines: one allocation a file).
    private var fields: [Range<Int>] = []

    mutating func read(_ line: UnsafeBufferPointer<UInt8>) {
        guard !line.isEmpty else { return }
        // The columns up to the population (15 of the 19); the rest are not read, but a line with
        // more than 19 columns is not a geoname.
        fields.removeAll(keepingCapacity: true)
        var start = 0
        var columns = 1
        for i in 0..<line.count where line[i] == Self.tab {
            if fields.count < 15 { fields.append(start..<i) }
            start = i + 1
            columns += 1
        }
        if fields.count < 15 { fields.append(start..<line.count) }
        guard fields.count >= 15, columns <= 19,
            !fields[0].isEmpty, fields[0].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[$0]) }),
            !fields[1].isEmpty,
            let latitude = Self.decimal(line, fields[4]), (-90...90).contains(latitude),
            let longitude = Self.decimal(line, fields[5]), (-180...180).contains(longitude)
        else {
            skipped += 1
            return
        }
        let featureClass = line[fields[6]]
        guard featureClass.count == 1, featureClass.first == UInt8(ascii: "P"),
            !Self.leftOut.contains(where: { $0.elementsEqual(line[fields[7]]) })
        else {
            otherFeatures += 1
            return
        }
        let country = line[fields[8]]
        let key: UInt16 =
            country.count == 2 && country.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) })
            ? UInt16(country[country.startIndex]) << 8 | UInt16(country[country.startIndex + 1]) : 0
        let population = Self.decimal(line, fields[14]).map { Int(max(0, min($0, 4e9))) } ?? 0
        builder.add(
            name: line[fields[1]], country: key, latitude: latitude, longitude: longitude, population: population)
    }

    /// A plain decimal number (`-33.86785`, `4`); nil for anything else, so a garbled coordinate
    /// skips its line instead of placing a town at 0°.
    static func decimal(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        guard i < range.upperBound else { return nil }
        var negative = false
        if line[i] == UInt8(ascii: "-") || line[i] == UInt8(ascii: "+") {
            negative = line[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while i < range.upperBound {
            let byte = line[i]
            if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                // Beyond 18 digits, the rest cannot matter to a coordinate or a population.
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                    if seenPoint { scale += 1 }
                } else if !seenPoint {
                    return nil
                }
                digits += 1
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / pow(10, Double(scale))
        return negative ? -value : value
    }
}

/// Reads a file a chunk at a time and hands over its lines, without their `\n` (or `\r\n`).
enum LineReader {
    static let chunkSize = 1 << 20

    static func forEachLine(of path: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(PlacesError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PlacesError(.unreadable, path: path, message: "cannot be opened")
        }
        defer { try? handle.close() }
        // The start of a line the previous chunk cut.
        var carry: [UInt8] = []
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw PlacesError(.unreadable, path: path, message: "\(error)")
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                let bytes = raw.bindMemory(to: UInt8.self)
                var start = 0
                for i in 0..<bytes.count where bytes[i] == UInt8(ascii: "\n") {
                    if carry.isEmpty {
                        emit(UnsafeBufferPointer(rebasing: bytes[start..<i]), body)
                    } else {
                        carry.append(contentsOf: bytes[start..<i])
                        carry.withUnsafeBufferPointer { emit($0, body) }
                        carry.removeAll(keepingCapacity: true)
                    }
                    start = i + 1
                }
                carry.append(contentsOf: bytes[start..<bytes.count])
            }
        }
        // A last line without its newline (a truncated file) is still a line.
        if !carry.isEmpty { carry.withUnsafeBufferPointer { emit($0, body) } }
    }

    private static func emit(_ line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let last = line.last, last == UInt8(ascii: "\r") {
            body(UnsafeBufferPointer(rebasing: line[..<(line.count - 1)]))
        } else {
            body(line)
        }
    }
}
