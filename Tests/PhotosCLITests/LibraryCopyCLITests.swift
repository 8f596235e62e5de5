import Foundation
import PhotosTestSupport
import Testing

/// `photos library copy` as a user runs it: the fixture library into the real PostgreSQL server
/// (a schema of its own, named in the URL) and back into a new file, which lists the same assets,
/// albums and folders as the original, byte for byte; a copy over a library is refused with the
/// reason and the exit status 1. `photos` scans a folder into a library kept in PostgreSQL and
/// lists what the same scan into a file lists; a command that reads makes no library there, a
/// rebuild (which replaces a file) is refused, and a server that is not there is named without the
/// URL's password, with nothing made named after the URL.
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

    @Test func aServerThatIsNotThereIsNamedWithoutItsPasswordAndNothingIsMade() throws {
        let url = "postgresql://me:secret@127.0.0.1:1/photos"
        // It runs where this test runs (the package's directory), where nothing may appear.
        let listed = try BuiltProducts.run("photos", ["assets", "--library", url, "--no-daemon"])
        #expect(listed.status == 1, "\(listed)")
        #expect(
            listed.stderr.contains("cannot open the library at postgresql://me@127.0.0.1:1/photos (--library)"),
            "\(listed.stderr)")
        #expect(!listed.stderr.contains("secret"), "\(listed.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.currentDirectoryPath)
        #expect(!made.contains { $0.hasPrefix("postgres") }, "\(made)")
    }

    /// A command that reads says why the address names no library (no such database, a schema
    /// name that cannot be one), not only that there is none to list.
    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
    func aWrongAddressSaysWhatIsWrongWithIt() throws {
        try PostgreSQLTestServer.inNewSchema { url in
            var components = try #require(URLComponents(string: url))
            components.path = "/no_such_database"
            components.query = nil
            let noDatabase = try BuiltProducts.run(
                "photos", ["assets", "--library", try #require(components.string), "--no-daemon"])
            #expect(noDatabase.status == 1 && noDatabase.stderr.contains("does not exist"), "\(noDatabase)")
            components = try #require(URLComponents(string: url))
            components.query = "schema=a-b"
            let badSchema = try BuiltProducts.run(
                "photos", ["assets", "--library", try #require(components.string), "--no-daemon"])
            #expect(badSchema.status == 1 && badSchema.stderr.contains("a schema is named with"), "\(badSchema)")
        }
    }

    @Test(.enabled(if: PostgreSQLTestServer.isAvailable, "needs PHOTOS_TEST_POSTGRESQL"))
    func photosScansIntoPostgreSQLAndListsWhatAFileLists() throws {
        let corpus = try #require(Corpus.file("Camera/2008"))
        try #require(FileManager.default.fileExists(atPath: corpus.path), "needs ../shared/corpus")
        try PostgreSQLTestServer.inNewSchema { url in
            let directory = try TemporaryDirectory(prefix: "photos-postgresql")
            let environment = ["XDG_DATA_HOME": directory.path("data").path]
            // A command that reads never makes a library: the server is asked whether it holds one.
            let empty = try BuiltProducts.run(
                "photos", ["assets", "--library", url, "--no-daemon"], environment: environment)
            #expect(empty.status == 1 && empty.stderr.contains("no library at postgresql://"), "\(empty)")
            let rebuild = try BuiltProducts.run(
                "photos", ["rebuild", corpus.path, "--library", url], environment: environment)
            #expect(rebuild.status == 1 && rebuild.stderr.contains("is kept in PostgreSQL"), "\(rebuild)")

            let file = directory.path("library.sqlite").path
            for library in [url, file] {
                let scan = try BuiltProducts.run(
                    "photos", ["scan", corpus.path, "--library", library], environment: environment)
                #expect(scan.status == 0, "\(scan.stderr)")
            }
            // Everything but the identifiers, which each library gives its own.
            func listing(_ library: String) throws -> [String] {
                let listed = try BuiltProducts.run(
                    "photos", ["assets", "--json", "--library", library, "--no-daemon"], environment: environment)
                #expect(listed.status == 0, "\(listed.stderr)")
                return try listed.stdout.split(separator: "\n").map { line in
                    var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    object["localIdentifier"] = nil
                    object["addedDate"] = nil
                    object["albums"] = (object["albums"] as? [[String: Any]])?.map {
                        $0.filter { $0.key != "localIdentifier" }
                    }
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    return String(decoding: data, as: UTF8.self)
                }
            }
            let kept = try listing(url)
            let filed = try listing(file)
            #expect(kept.count >= 2 && kept == filed)
        }
    }
}
