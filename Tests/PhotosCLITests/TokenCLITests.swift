import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// `photos token create|list|revoke` on a fixture library: the secret is printed once and kept
/// only as its SHA-256.
@Suite struct TokenCLITests {
    let fixture: LibraryFixture

    init() throws { fixture = try LibraryFixture() }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltProducts.run("photos", arguments + ["--library", fixture.libraryURL.path])
    }

    @Test func aTokenIsPrintedOnceAndStoredOnlyHashed() throws {
        let made = try run(["token", "create", "--access", "read-only", "--name", "backup", "--expires", "30d"])
        #expect(made.status == 0, "\(made.stderr)")
        let secret = try #require(made.stdout.split(whereSeparator: \.isWhitespace).last.map(String.init))
        #expect(secret.hasPrefix("pht_") && secret.count == 4 + 43, "\(secret)")
        // The file holds the hash, never the secret. Read by another process: closing a descriptor
        // of the file in this one would drop SQLite's locks on it (POSIX locks are per process).
        let grep = TestProcess()
        grep.executableURL = URL(fileURLWithPath: "/bin/grep")
        grep.arguments = ["-q", "-F", "-a", secret, fixture.libraryURL.path, fixture.libraryURL.path + "-wal"]
        try grep.run()
        grep.waitUntilExit()
        #expect(grep.terminationStatus == 1, "the secret is in the library file")
        let token = try #require(try fixture.library.database.accessToken(secret: secret))
        #expect(token.accessLevel == .readOnly && token.name == "backup")
        #expect(abs(token.expiresAt! - Date().addingTimeInterval(30 * 86400).timeIntervalSince1970) < 60)

        let listed = try run(["token", "list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!listed.stdout.contains(secret))
        let rows = try listed.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(rows.count == 1)
        #expect(rows.first?["id"] as? String == token.id && rows.first?["access"] as? String == "read-only")
        #expect(rows.first?["name"] as? String == "backup" && rows.first?["token"] == nil)
        let table = try run(["token", "list"])
        #expect(table.stdout.contains(token.id) && !table.stdout.contains(secret))

        let revoked = try run(["token", "revoke", token.id])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try fixture.library.database.accessToken(secret: secret) == nil)
        let again = try run(["token", "revoke", token.id])
        #expect(again.status != 0 && again.stderr.contains("no token"))
    }

    @Test func limitedTokensNameAlbumsAndJSONCarriesTheSecretOnce() throws {
        let trip = try #require(fixture.collections["Trip"])
        let made = try run(["token", "create", "--access", "limited", "--album", trip, "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        let secret = try #require(object["token"] as? String)
        #expect(object["access"] as? String == "limited" && object["albums"] as? [String] == [trip])
        #expect(try fixture.library.database.accessToken(secret: secret)?.albums == [trip])

        for bad in [
            ["--access", "limited"], ["--access", "read-only", "--album", trip], ["--access", "everything"],
            ["--access", "limited", "--album", "no-such-album"], ["--access", "read-write", "--expires", "soon"],
            ["--access", "limited", "--album", "00000000-0000-0000-0000-000000000209/L0/040"],
            ["--access", "read-only", "--expires", "99999999999999d"], ["--access", "read-only", "--expires", "5300w"],
        ] {
            let refused = try run(["token", "create"] + bad)
            #expect(refused.status != 0, "\(bad) was accepted")
        }
        let smart = try run([
            "token", "create", "--access", "limited", "--album", "00000000-0000-0000-0000-000000000209/L0/040",
        ])
        #expect(smart.stderr.contains("is a smart album"), "\(smart.stderr)")
        #expect(try fixture.library.database.accessTokens().count == 1)
    }

    @Test func anExpiredTokenIsRefused() throws {
        let (token, secret) = try fixture.library.database.createAccessToken(
            level: .readWrite, expiresAt: Date().addingTimeInterval(-1))
        #expect(try fixture.library.database.accessToken(secret: secret) == nil)
        let listed = try run(["token", "list", "--json"])
        #expect(listed.stdout.contains(token.id) && listed.stdout.contains("\"expired\":true"))
    }
}
