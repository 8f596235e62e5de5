import Foundation
import PhotosStore
import PhotosWire
import Testing

/// A hook's status as JSON: `lastRunAt` is an ISO 8601 date at UTC, and an older daemon's seconds
/// since 1970 still read as that date.
@Suite struct HookStatusTests {
    @Test func lastRunAtIsAnISODateAndSecondsStillRead() throws {
        var row = HookState(name: "sync", cursor: 4)
        row.lastRunAt = 1_764_322_200.25
        row.runs = 2
        let status = HookStatus(name: "sync", command: ["sync-photos"], enabled: true, state: row, lag: 0)
        #expect(status.lastRunAt == "2025-11-28T09:30:00.250+00:00")
        let written = String(decoding: try WireJSON.makeEncoder().encode(status), as: UTF8.self)
        #expect(written.contains(#""lastRunAt":"2025-11-28T09:30:00.250+00:00""#), "\(written)")
        #expect(try JSONDecoder().decode(HookStatus.self, from: Data(written.utf8)) == status)

        // What photosd 0.27 wrote: the number, read as the same date.
        let old = written.replacingOccurrences(of: #""2025-11-28T09:30:00.250+00:00""#, with: "1764322200.25")
        #expect(old != written)
        #expect(try JSONDecoder().decode(HookStatus.self, from: Data(old.utf8)) == status)
        // A hook that never ran has none.
        let new = HookStatus(name: "new", command: nil, enabled: true, state: nil, lag: nil)
        let read = try JSONDecoder().decode(HookStatus.self, from: try WireJSON.makeEncoder().encode(new))
        #expect(read == new && read.lastRunAt == nil)
    }
}
