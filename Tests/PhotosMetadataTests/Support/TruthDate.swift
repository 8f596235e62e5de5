import Foundation

/// A date as `truth.json` writes it: `2008-07-01T17:27:03.02`, `2021-10-27T10:43:46+02:00`,
/// `2005-10-28T17:36:40Z`. Parsed independently of the module's own date parser, so that the
/// comparison does not check the parser against itself.
struct TruthDate: CustomStringConvertible {
    /// The wall-clock time read as if it were UTC.
    let wallClock: Date
    /// Seconds east of UTC, when the truth states an offset.
    let offset: Int?

    let description: String

    init?(_ text: String) {
        description = text
        var rest = Substring(text)
        var offset: Int?
        if rest.hasSuffix("Z") {
            offset = 0
            rest = rest.dropLast()
        } else if rest.count > 6, let signIndex = rest.index(rest.endIndex, offsetBy: -6, limitedBy: rest.startIndex),
            rest[signIndex] == "+" || rest[signIndex] == "-"
        {
            let parts = rest[rest.index(after: signIndex)...].split(separator: ":")
            guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
            offset = (rest[signIndex] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            rest = rest[..<signIndex]
        }
        self.offset = offset
        let halves = rest.split(separator: "T")
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-").compactMap { Int($0) }
        let timeAndFraction = halves[1].split(separator: ".")
        let time = timeAndFraction[0].split(separator: ":").compactMap { Int($0) }
        guard day.count == 3, time.count == 3 else { return nil }
        let fraction = timeAndFraction.count > 1 ? Double("0." + timeAndFraction[1]) ?? 0 : 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: day[0], month: day[1], day: day[2], hour: time[0], minute: time[1], second: time[2]
        )
        guard let date = calendar.date(from: components) else { return nil }
        wallClock = date.addingTimeInterval(fraction)
    }

    /// The instant, when the offset is known.
    var instant: Date? { offset.map { wallClock.addingTimeInterval(-Double($0)) } }
}
