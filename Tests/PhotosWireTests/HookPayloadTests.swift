import Foundation
import PhotosCore
import PhotosWire
import Testing

/// The hook payload's JSON, written by hand for speed: valid JSON, and the sidecar conflicts of an
/// entry only where it has some.
@Suite struct HookPayloadTests {
    @Test func anEntryCarriesItsSidecarConflictsAndOthersHaveNoKey() throws {
        var payload = HookPayload(hook: "record", since: 3, until: 5)
        var settled = HookPayload.Change(token: 4)
        settled.sidecarConflicts = [
            SidecarConflict(
                localIdentifier: "A/L0/001", sidecar: "/p/IMG_1.JPG.xmp", field: "rating", libraryValue: "2",
                sidecarValue: "5", kept: .sidecar)
        ]
        payload.changes = [settled, HookPayload.Change(token: 5)]
        let json = try JSONSerialization.jsonObject(with: Data(payload.encoded())) as? [String: Any]
        let changes = try #require(json?["changes"] as? [[String: Any]])
        #expect(changes.count == 2)
        let conflicts = try #require(changes[0]["sidecarConflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1)
        #expect(conflicts[0]["localIdentifier"] as? String == "A/L0/001")
        #expect(conflicts[0]["sidecar"] as? String == "/p/IMG_1.JPG.xmp")
        #expect(conflicts[0]["field"] as? String == "rating")
        #expect(conflicts[0]["libraryValue"] as? String == "2" && conflicts[0]["sidecarValue"] as? String == "5")
        #expect(conflicts[0]["kept"] as? String == "sidecar")
        #expect(changes[1]["sidecarConflicts"] == nil)
        #expect(changes[1]["assets"] != nil)
    }
}
