import Testing

@testable import PhotosSidecars

@Suite struct SidecarMergeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var base: Int?
        var ours: Int?
        var theirs: Int?
        var oursTime: Double
        var theirsTime: Double
        var result: Int?
        var taken: Bool
        var written: Bool
        var conflict: SidecarMerge.Side?
        var testDescription: String { name }
    }

    /// The rating through every case of the table in SidecarMerge's documentation.
    static let rows: [Row] = [
        Row(
            name: "nobody changed", base: 3, ours: 3, theirs: 3, oursTime: 1, theirsTime: 2, result: 3, taken: false,
            written: false, conflict: nil),
        Row(
            name: "only ours changed: written", base: 3, ours: 5, theirs: 3, oursTime: 1, theirsTime: 2, result: 5,
            taken: false, written: true, conflict: nil),
        Row(
            name: "only theirs changed: taken", base: 3, ours: 3, theirs: 4, oursTime: 2, theirsTime: 1, result: 4,
            taken: true, written: false, conflict: nil),
        Row(
            name: "both changed alike", base: 3, ours: 4, theirs: 4, oursTime: 1, theirsTime: 2, result: 4,
            taken: false, written: false, conflict: nil),
        Row(
            name: "both changed, theirs newer", base: 3, ours: 5, theirs: 1, oursTime: 1, theirsTime: 2, result: 1,
            taken: true, written: false, conflict: .theirs),
        Row(
            name: "both changed, ours newer", base: 3, ours: 5, theirs: 1, oursTime: 3, theirsTime: 2, result: 5,
            taken: false, written: true, conflict: .ours),
        Row(
            name: "both changed at the same time: the sidecar wins", base: 3, ours: 5, theirs: 1, oursTime: 2,
            theirsTime: 2, result: 1, taken: true, written: false, conflict: .theirs),
        Row(
            name: "theirs removed it", base: 3, ours: 3, theirs: nil, oursTime: 2, theirsTime: 1, result: nil,
            taken: true, written: false, conflict: nil),
        Row(
            name: "ours removed it", base: 3, ours: nil, theirs: 3, oursTime: 1, theirsTime: 2, result: nil,
            taken: false, written: true, conflict: nil),
        Row(
            name: "theirs added it", base: nil, ours: nil, theirs: 2, oursTime: 2, theirsTime: 1, result: 2,
            taken: true, written: false, conflict: nil),
        Row(
            name: "darktable rejected it", base: 2, ours: 2, theirs: -1, oursTime: 2, theirsTime: 1, result: -1,
            taken: true, written: false, conflict: nil),
    ]

    @Test(arguments: rows)
    func aFieldIsTakenWrittenOrSettledByTheNewerWrite(_ row: Row) {
        let merge = SidecarMerge(
            base: SidecarState(rating: row.base), ours: SidecarState(rating: row.ours),
            theirs: SidecarState(rating: row.theirs), oursTime: row.oursTime, theirsTime: row.theirsTime)
        #expect(merge.result.rating == row.result)
        #expect(merge.takenFromTheirs == (row.taken ? [.rating] : []))
        #expect(merge.writtenFromOurs == (row.written ? [.rating] : []))
        #expect(merge.needsWrite == row.written)
        if let winner = row.conflict {
            #expect(
                merge.conflicts == [
                    SidecarMerge.Conflict(
                        field: .rating, ours: row.ours.map(SidecarValue.integer),
                        theirs: row.theirs.map(SidecarValue.integer),
                        winner: winner)
                ])
        } else {
            #expect(merge.conflicts.isEmpty)
        }
    }

    @Test func fieldsMergeEachOnItsOwn() {
        let album = SidecarAlbum(identifier: "A/L0/040", title: "Trip")
        let base = SidecarState(localIdentifier: "X/L0/001", rating: 2, isFavorite: false, isHidden: false)
        var ours = base
        ours.isFavorite = true  // the library's change
        ours.albums = [album]
        var theirs = base
        theirs.rating = 5  // digiKam's change
        theirs.isHidden = true  // and one both made differently
        ours.isHidden = nil
        let merge = SidecarMerge(base: base, ours: ours, theirs: theirs, oursTime: 10, theirsTime: 20)
        #expect(merge.result.localIdentifier == "X/L0/001")
        #expect(merge.result.rating == 5)
        #expect(merge.result.isFavorite == true)
        #expect(merge.result.albums == [album])
        #expect(merge.result.isHidden == true)
        #expect(merge.takenFromTheirs == [.rating, .isHidden])
        #expect(merge.writtenFromOurs == [.isFavorite, .albums])
        #expect(merge.conflicts.map(\.field) == [.isHidden])
        #expect(merge.conflicts.first?.description == "isHidden: ours absent, theirs true, kept theirs")
    }

    @Test func withoutABaseEveryDifferenceIsAConflict() {
        let ours = SidecarState(rating: 1, isFavorite: true)
        let theirs = SidecarState(rating: 4, isFavorite: true)
        let merge = SidecarMerge(base: nil, ours: ours, theirs: theirs, oursTime: 5, theirsTime: 1)
        #expect(merge.result == ours)
        #expect(merge.conflicts.map(\.field) == [.rating])
        #expect(merge.writtenFromOurs == [.rating])
    }
}
