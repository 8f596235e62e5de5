import Foundation
import PhotosCore
import PhotosWire

extension DescriptionReader {
    /// These assets cut into runs of one creation day, in the order given (``PhotosWire/API/DayIndex``):
    /// each asset's day is the first ten characters of the `creationDate` its JSON writes (the recorded
    /// offset, else ``timeZone``'s), read from two columns of its row in one statement, not from its JSON.
    /// Positions are indexes into `ids`; an id with no live asset leaves a gap.
    ///
    /// ```swift
    /// let index = try reader.creationDays(ids)  // {"days": [{"day": "2024-05-03", "count": 12, "start": 0}, ...]}
    /// ```
    public func creationDays(_ ids: [Int64]) throws -> API.DayIndex {
        var builder = API.DayIndex.Builder()
        guard !ids.isEmpty else { return builder.index }
        try database.read { db in
            // As the asset rows are read: the list first (CROSS JOIN), so the rows come in its order.
            let dialect = db.dialect
            var rows = try RowCursor.open(
                """
                SELECT j.key, a.creationDate, a.creationDateOffset
                FROM \(dialect.elementsOfJSONArray(as: "j", wholeNumbers: true)) \(dialect.orderedJoin) asset a
                    ON a.id = j.value\(dialect.inListOrder("j.key"))
                """, [.text(JSONText.array(ids))], on: db)
            // The text is written once a day, not once an asset: the day's number says when it changes.
            var last: (number: Int64, day: Substring)?
            while let position = rows.position {
                if let seconds = rows.double(DayColumn.creationDate) {
                    let (date, offset) = AssetRowJSON.creationDate(
                        seconds: seconds,
                        recorded: rows.isNull(DayColumn.creationDateOffset)
                            ? nil : Int(rows.integer(DayColumn.creationDateOffset)),
                        timeZone: timeZone)
                    let number = ISO8601.dayNumber(date, offset: offset)
                    if let number, let last, last.number == number {
                        builder.add(last.day, at: position)
                    } else {
                        let day = ISO8601.string(date, offset: offset).prefix(10)
                        last = number.map { ($0, day) }
                        builder.add(day, at: position)
                    }
                } else {
                    builder.add(nil, at: position)
                }
                try rows.advance()
            }
        }
        return builder.index
    }

    /// Columns of the day index's rows.
    private enum DayColumn: Int32 {
        case creationDate = 1, creationDateOffset
    }
}
