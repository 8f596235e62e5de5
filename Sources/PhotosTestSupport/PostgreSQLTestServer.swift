import Foundation
import PhotosCore
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

    /// `url` (a schema on the tests' server) through the server's Unix socket instead of TCP: the
    /// way to it from a process in a network namespace of its own, whose loopback is not the
    /// server's. Nil when the server has no socket.
    public static func throughSocket(_ url: String) throws -> String? {
        guard var components = URLComponents(string: url), let port = components.port else { return nil }
        let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(url))
        defer { connection.close() }
        guard
            let directory = try connection.scalarText("SHOW unix_socket_directories")?
                .split(separator: ",").first.map({ $0.trimmingCharacters(in: .whitespaces) }), directory.hasPrefix("/")
        else { return nil }
        components.host = ""
        components.port = nil
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "host", value: directory), URLQueryItem(name: "port", value: String(port)),
            ]
        return components.string
    }

    /// Runs `body` with the URL of a schema of its own on `server` (the tests' by default), as
    /// `?schema=`, dropped afterwards: a new library there is made by the first
    /// `LibraryDatabase(postgreSQL:)`.
    public static func inNewSchema<T>(on server: String? = url, _ body: (String) throws -> T) throws -> T {
        let (location, drop) = try newSchema(on: server)
        defer { drop() }
        return try body(location)
    }

    /// ``inNewSchema(on:_:)`` for a body that waits.
    public static func inNewSchema<T>(on server: String? = url, _ body: (String) async throws -> T) async throws -> T {
        let (location, drop) = try newSchema(on: server)
        defer { drop() }
        return try await body(location)
    }

    /// Makes a schema on `server`; returns its URL and what drops it.
    private static func newSchema(on server: String?) throws -> (String, () -> Void) {
        guard let server else {
            throw StoreError(.unreachable, "no PostgreSQL server: PHOTOS_TEST_POSTGRESQL is not set")
        }
        let schema = uniqueName("library")
        let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(server))
        do {
            try connection.execute("CREATE SCHEMA \(schema)", [])
        } catch {
            connection.close()
            throw error
        }
        let drop = {
            _ = try? connection.execute("DROP SCHEMA \(schema) CASCADE", [])
            connection.close()
        }
        return (server + (server.contains("?") ? "&" : "?") + "schema=\(schema)", drop)
    }

    /// Inserts a photo whose file is `path` on `database`'s host, as a scan of it would (the file
    /// need not exist: the host may be another machine); returns its local identifier.
    @discardableResult
    public static func insertPhoto(at path: String, in database: LibraryDatabase) throws -> String {
        let identifier = UUID().uuidString + "/L0/001"
        try database.write { transaction in
            try transaction.insertAsset(
                AssetRecord(localIdentifier: identifier, mediaType: .image),
                resources: [
                    ResourceRecord(
                        assetId: 0, type: PHAssetResourceType.photo.rawValue, path: path,
                        uniformTypeIdentifier: "public.jpeg", mimeType: "image/jpeg", fileSize: 1,
                        originalFilename: (path as NSString).lastPathComponent)
                ])
        }
        return identifier
    }
}
