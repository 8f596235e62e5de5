import Foundation

/// Country names by ISO 3166 code, from tzdata's `iso3166.tab` (Debian's `tzdata` installs it as
/// `/usr/share/zoneinfo/iso3166.tab`): lines of `code<TAB>name`, `#` comments.
///
/// ```swift
/// let names = CountryNames.read(contentsOf: "/usr/share/zoneinfo/iso3166.tab")
/// names["FR"]   // "France"
/// ```
public enum CountryNames {
    /// tzdata's table: `$TZDIR/iso3166.tab` when `TZDIR` is set (glibc's override of the zoneinfo
    /// directory), else `/usr/share/zoneinfo/iso3166.tab`; nil when the file is not there.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates = ["/usr/share/zoneinfo/iso3166.tab"]
        if let directory = environment["TZDIR"], directory.hasPrefix("/") {
            candidates.insert(directory + "/iso3166.tab", at: 0)
        }
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The names in a table; lines that are not `XX<TAB>name` are skipped. Throws when the file
    /// cannot be read.
    public static func read(contentsOf path: String) throws(PlacesError) -> [String: String] {
        var names: [String: String] = [:]
        try LineReader.forEachLine(of: path) { line in
            guard let first = line.first, first != UInt8(ascii: "#"),
                let tab = line.firstIndex(of: UInt8(ascii: "\t")), tab == 2
            else { return }
            let code = line[0..<2]
            guard code.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return }
            let rest = line[3...]
            let end = rest.firstIndex(of: UInt8(ascii: "\t")) ?? line.count
            let name = String(decoding: line[3..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return }
            names[String(decoding: code, as: UTF8.self)] = name
        }
        return names
    }
}
