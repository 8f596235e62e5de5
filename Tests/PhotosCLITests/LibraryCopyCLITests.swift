import Foundation
import PhotosTestSupport
import Testing

/// `photos library copy` as a user runs it: the fixture library into the real PostgreSQL server
/// (a schema of its own, named in the URL) and back into a new file, which lists the same assets,
/// albums and folders as the original, byte for byte; a copy over a library is refused with the
/// reason and the exit status 1. A library in PostgreSQL is not opened yet: `photos` and photosd
/// say so, and make nothing named after the URL.
@Suite struct LibraryCopyCLITests {
    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
    func aLibraryCopiedToPostgreSQLAndBackListsTheSame() throws {
        let fixture = try LibraryFixture()
        let directory = try TemporaryDirectory(prefix: "library-copy-cli")
        let server = try #require(PostgreSQLTestServer.url)
        let schema = PostgreSQLTestServer.uniqueName("cli")
        let url = "\(server)\(server.contains("?") ? "&" : "?")schema=\(schema)"
        defer {
            let drop = TestProcess()
            drop.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
            drop.arguments = [server, "-qc", "DROP SCHEMA IF EXISTS \(schema) CASCADE"]
            try? drop.run()
            drop.waitUntilExit()
        }
        let there = try BuiltProducts.run("photos", ["library", "copy", fixture.libraryURL.path, url])
        #expect(there.status == 0, "\(there.stderr)")
        #expect(there.stdout.hasPrefix("copied \(fixture.libraryURL.path) to postgresql://"), "\(there.stdout)")
        let count = fixture.assets.count
        #expect(count > 10)
        #expect(
            there.stdout.contains(" \(count) assets,") && there.stderr.contains("copied asset: \(count) rows"),
            "\(there)")

        let back = directory.path("back.sqlite").path
        let returned = try BuiltProducts.run("photos", ["library", "copy", url, back, "--json"])
        #expect(returned.status == 0, "\(returned.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(returned.stdout.utf8)) as? [String: Any])
        #expect((report["rows"] as? [String: Int])?["asset"] == count && report["destination"] as? String == back)
        for listing in [
            ["assets", "--json", "--include-hidden", "--include-all-bursts"], ["albums", "--json"],
            ["folders", "--json"],
        ] {
            let original = try BuiltProducts.run(
                "photos", listing + ["--library", fixture.libraryURL.path, "--no-daemon"])
            let copied = try BuiltProducts.run("photos", listing + ["--library", back, "--no-daemon"])
            #expect(original.status == 0 && !original.stdout.isEmpty, "\(original.stderr)")
            #expect(copied.stdout == original.stdout, "\(listing)")
        }

        let again = try BuiltProducts.run("photos", ["library", "copy", fixture.libraryURL.path, back])
        #expect(again.status == 1 && again.stderr.contains("\(back) already exists"), "\(again.stderr)")
    }

    @Test func aLibraryInPostgreSQLIsRefusedWithWhatToDoAndNothingIsMade() throws {
        let directory = try TemporaryDirectory(prefix: "library-postgresql-refused")
        let url = "postgresql://me:secret@127.0.0.1:1/photos"
        // Both run where this test runs (the package's directory), where nothing may appear.
        let listed = try BuiltProducts.run("photos", ["assets", "--library", url, "--no-daemon"])
        #expect(listed.status == 1, "\(listed)")
        #expect(listed.stderr.contains("is kept in PostgreSQL, which this build copies but does not open yet"))
        #expect(listed.stderr.contains("photos library copy postgresql://me@127.0.0.1:1/photos FILE"))
        #expect(!listed.stderr.contains("secret"), "\(listed.stderr)")
        let root = directory.path("Pictures")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let daemon = try BuiltProducts.run("photosd", ["--library", url, "--watch", root.path, "--socket", ""])
        #expect(daemon.status == 78 && daemon.stderr.contains("does not open yet"), "\(daemon)")
        let made = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)
        #expect(!made.contains { $0.hasPrefix("postgres") }, "\(made)")
    }
}
