import Foundation
import PhotosStore

/// The throwaway PostgreSQL server the tests of the store's second engine use: its URL in
/// `PHOTOS_TEST_POSTGRESQL`, as `scripts/postgres-server start DIR` prints it (`.ci/run` starts one
/// and sets it). Where it is not set, those tests say so loudly and are skipped.
public enum PostgreSQLTestServer {
    /// The server's URL, or nil (with a loud message, once) when none is set.
    public static let url: String? = {
        if let url = ProcessInfo.processInfo.environment["PHOTOS_TEST_POSTGRESQL"], !url.isEmpty { return url }
        FileHandle.standardError.write(
            Data(
                ("⚠️  PHOTOS_TEST_POSTGRESQL is not set: the PostgreSQL engine's tests are SKIPPED "
                    + "(export PHOTOS_TEST_POSTGRESQL=$(scripts/postgres-server start /tmp/photos-pg))\n").utf8))
        return nil
    }()

    /// Whether a server is there to test against.
    public static var isAvailable: Bool { url != nil }

    /// A name no other test uses (a schema of its own), made of lower-case letters, digits and `_`.
    public static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
    }

    /// Runs `body` with the URL of a schema of its own on the server (`?schema=`), dropped
    /// afterwards: a new library there is made by the first `LibraryDatabase(postgreSQL:)`.
    public static func inNewSchema<T>(_ body: (String) throws -> T) throws -> T {
        guard let url else { throw StoreError(.unreachable, "no PostgreSQL server: PHOTOS_TEST_POSTGRESQL is not set") }
        let schema = uniqueName("library")
        let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(url))
        defer { connection.close() }
        try connection.execute("CREATE SCHEMA \(schema)", [])
        defer { _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE", []) }
        return try body(url + (url.contains("?") ? "&" : "?") + "schema=\(schema)")
    }
}
