import Foundation

extension API {
    /// `GET /v1/days`: a listing of assets cut into runs of one calendar day each, in the listing's
    /// order, so that a client can lay out a timeline before it fetches a single asset.
    ///
    /// Each run is the assets at positions `start..<start + count` of `GET /v1/assets` with the
    /// same options and sort. `day` is the first ten characters of those assets' `creationDate` as
    /// their JSON writes it (the photo's own UTC offset, else the library's time zone); null for
    /// assets without a date. Photos taken at different offsets can interleave across midnight, so a
    /// day may come in more than one run.
    ///
    /// ```json
    /// {"days": [{"day": "2024-05-03", "count": 12, "start": 0}, {"day": "2024-05-01", "count": 3, "start": 12}],
    ///  "count": 15}
    /// ```
    public struct DayIndex: Sendable, Codable, Hashable {
        /// One run of consecutive assets of the same day.
        public struct Day: Sendable, Codable, Hashable {
            /// `YYYY-MM-DD`, or nil for assets without a creation date.
            public var day: String?
            /// How many assets the run holds.
            public var count: Int
            /// The position of the run's first asset in the listing.
            public var start: Int

            /// A run with every value given.
            public init(day: String?, count: Int, start: Int) {
                self.day = day
                self.count = count
                self.start = start
            }

            private enum CodingKeys: String, CodingKey { case day, count, start }

            /// Writes `day` as null rather than leaving it out: every run has the three keys.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(day, forKey: .day)
                try container.encode(count, forKey: .count)
                try container.encode(start, forKey: .start)
            }
        }

        /// The runs, in the listing's order.
        public var days: [Day]
        /// The assets of the listing: the sum of the runs' counts.
        public var count: Int

        /// An index with every value given.
        public init(days: [Day], count: Int) {
            self.days = days
            self.count = count
        }

        /// Cuts a listing into runs as its assets come, in the listing's order: an asset of the
        /// previous asset's day (no date and no date alike) at the next position lengthens the run,
        /// any other starts one.
        ///
        /// | last run | asset | result |
        /// |---|---|---|
        /// | none | `2024-05-03` at 0 | a run of `2024-05-03` from 0 |
        /// | `2024-05-03` from 0, 1 asset | `2024-05-03` at 1 | that run, 2 assets |
        /// | `2024-05-03` from 0, 2 assets | `2024-05-02` at 2 | a new run from 2 |
        /// | `2024-05-02` from 2, 1 asset | no date at 3 | a new run of null from 3 |
        /// | null from 3, 1 asset | no date at 4 | that run, 2 assets |
        /// | null from 3, 2 assets | no date at 6 | a new run of null from 6 |
        ///
        /// Positions are the listing's: an asset left out (deleted since the fetch) leaves a gap, and
        /// the asset after it starts a run at its own position, so that every run is the listing's
        /// positions `start..<start + count`.
        public struct Builder: Sendable {
            /// The runs so far.
            public private(set) var days: [Day] = []
            /// The assets added so far.
            public private(set) var count = 0

            /// An empty index.
            public init() {}

            /// Adds the asset at `position` (after every position added before) of `day`, nil for
            /// no date.
            public mutating func add(_ day: Substring?, at position: Int) {
                count += 1
                if let last = days.indices.last, days[last].start + days[last].count == position,
                    Self.same(days[last].day, day)
                {
                    days[last].count += 1
                    return
                }
                days.append(Day(day: day.map(String.init), count: 1, start: position))
            }

            private static func same(_ run: String?, _ day: Substring?) -> Bool {
                switch (run, day) {
                case (nil, nil): true
                case (let run?, let day?): run[...] == day
                default: false
                }
            }

            /// The index of the assets added.
            public var index: DayIndex { DayIndex(days: days, count: count) }
        }
    }
}
