import Foundation
import PhotosCore
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The rules by which a rebuilt library takes identifiers back from a root's identifier log: an
/// asset at a logged path takes the logged identifier, unless its sidecar gave it its own, another
/// asset has the logged one, or it already took one.
@Suite struct IdentifierRestoreTests {
    static func id(_ n: Int) -> String { String(format: "00000000-0000-0000-0000-%012d/L0/001", n) }

    @Test func eachRuleDecidesAsItSays() throws {
        let directory = try TemporaryDirectory(prefix: "photos-restore-ids")
        let database = try LibraryDatabase(path: directory.path("library.sqlite").path)
        var rows: [String: Int64] = [:]
        for (number, name) in ["fresh", "fromSidecar", "clash", "pair", "holder"].enumerated() {
            rows[name] = try ChangeScopeTests.insertAsset(name, in: "/p", database)
            try database.write { transaction in
                try transaction.db.execute(
                    "UPDATE asset SET localIdentifier = ? WHERE id = ?", [.text(Self.id(number)), .int(rows[name]!)])
            }
        }
        // Its identifier came from its sidecar: the merge base names it.
        try database.setSidecarBase(
            SidecarBase(
                assetId: rows["fromSidecar"]!, path: "/p/fromSidecar.jpg.xmp", state: Self.id(1), modificationTime: nil)
        )
        let logged = [
            "/p/fresh.jpg": Self.id(100),  // taken back
            "/p/fromSidecar.jpg": Self.id(101),  // its sidecar's identifier stays
            "/p/clash.jpg": Self.id(4),  // "holder" has it
            "/p/pair.jpg": Self.id(103),  // taken back
            "/p/pair.jpg.gone": Self.id(104),  // no file there
            "/p/holder.jpg": Self.id(4),  // its own already
        ]
        let count = try database.write { transaction in
            try transaction.restoreIdentifiers(logged) { $0 }
        }.value
        #expect(count == 2)
        let after = try database.sqliteRead { db in
            try Dictionary(
                uniqueKeysWithValues: rows.map { name, row in
                    (
                        name,
                        try String.fetchOne(db, sql: "SELECT localIdentifier FROM asset WHERE id = ?", arguments: [row])
                            ?? ""
                    )
                })
        }
        #expect(
            after == [
                "fresh": Self.id(100), "fromSidecar": Self.id(1), "clash": Self.id(2), "pair": Self.id(103),
                "holder": Self.id(4),
            ])
    }
}
