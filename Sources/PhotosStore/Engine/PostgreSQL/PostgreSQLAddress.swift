import Foundation

/// Where a library kept in PostgreSQL is: a `postgresql://` (or `postgres://`) URL as libpq reads
/// one, `postgresql://user[:password]@host[:port]/database`, the port 5432 when none is given.
///
/// A server's Unix socket is named by a `host` parameter that is a directory, as with libpq:
/// `postgresql://me@/photos?host=/run/postgresql` connects to `/run/postgresql/.s.PGSQL.5432`.
/// `sslmode` and `sslrootcert` say how a TCP connection is encrypted, as libpq reads them
/// (``TLSMode``; `prefer` when absent); a Unix socket's never is. A `schema` parameter (not
/// libpq's) puts the library in that schema of the database, so that one database can hold
/// several: `postgresql://me@nas/photos?schema=family`.
///
/// ```swift
/// let address = try PostgreSQLAddress("postgresql://photos@127.0.0.1:5433/photos")
/// address.port         // 5433
/// address.description  // "postgresql://photos@127.0.0.1:5433/photos", never with the password
/// ```
package struct PostgreSQLAddress: Sendable, Hashable, CustomStringConvertible {
    /// The role connected as.
    var user: String
    /// The role's password, if the URL gives one.
    var password: String?
    /// The server's host name or address; nil for a Unix socket.
    var host: String?
    /// The server's port (also the number in a Unix socket's name).
    var port: Int
    /// The directory of the server's Unix socket, when connecting through one.
    var socketDirectory: String?
    /// The database holding the library.
    var database: String
    /// The schema of the database the library's tables are in, when not the role's default: lower
    /// case letters, digits and `_` (quoted where it is used: `check` or `user` are names too).
    var schema: String?
    /// The name the server shows for this program's connections (`pg_stat_activity`): the program
    /// and its host, `photosd@nas`, by which other hosts tell whether a host's photosd is connected.
    var applicationName = "photos"
    /// The host whose paths this connection reads and writes (``RootHosts``), given to the server as
    /// the `photos.host` setting; nil for none (a copy's, a test's: the rows of no host).
    var libraryHost: String?
    /// How a TCP connection is encrypted (`sslmode`).
    var tlsMode = TLSMode.prefer
    /// The certificates a server's is checked against (`sslrootcert`), when not the default ones:
    /// `~/.postgresql/root.crt` where it exists, else the system's.
    var rootCertificates: String?

    /// libpq's `sslmode`, as far as this engine goes.
    enum TLSMode: String, Sendable, Hashable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted where the server offers it, the certificate not checked (the default).
        case prefer
        /// Always encrypted, the certificate not checked, unless `sslrootcert` names the
        /// certificates to check it against (then as `verify-ca`, as libpq does).
        case require
        /// Always encrypted, the certificate checked against the root certificates.
        case verifyCA = "verify-ca"
        /// Always encrypted, the certificate checked, and the host name (or address) in it.
        case verifyFull = "verify-full"
    }

    /// Whether `text` is a URL this engine opens (`postgresql:` or `postgres:`), however well formed.
    static func isPostgreSQL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// Reads a URL; a ``StoreError`` (`notFound`) says what is wrong with one that cannot be used.
    package init(_ text: String) throws(StoreError) {
        func refuse(_ reason: String) -> StoreError {
            StoreError(.notFound, "\(Self.redacted(text)) is not a PostgreSQL library's address: \(reason)")
        }
        guard Self.isPostgreSQL(text), let components = URLComponents(string: text) else {
            throw refuse("write postgresql://user@host:port/database")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        let known: Set = ["host", "port", "user", "password", "dbname", "sslmode", "sslrootcert", "schema"]
        if let unknown = parameters.keys.sorted().first(where: { !known.contains($0) }) {
            throw refuse("unknown parameter \(unknown)")
        }
        if let mode = parameters["sslmode"] {
            guard let known = TLSMode(rawValue: mode) else {
                let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw refuse("sslmode=\(mode) is not one of \(modes)")
            }
            tlsMode = known
        }
        if let file = parameters["sslrootcert"] {
            guard !file.isEmpty else { throw refuse("sslrootcert names no file") }
            rootCertificates = file
        }
        let user = parameters["user"] ?? components.user ?? ProcessInfo.processInfo.environment["USER"] ?? ""
        guard !user.isEmpty else { throw refuse("no user") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = parameters["dbname"] ?? (path.isEmpty ? user : path)
        guard !database.contains("/") else { throw refuse("a database name holds no /") }
        var port = components.port ?? 5432
        if let given = parameters["port"] {
            guard let number = Int(given), (1...65535).contains(number) else { throw refuse("port \(given)") }
            port = number
        }
        guard (1...65535).contains(port) else { throw refuse("port \(port)") }
        let host = parameters["host"] ?? components.host.flatMap { $0.isEmpty ? nil : $0 }
        if let schema = parameters["schema"] {
            guard !schema.isEmpty, schema.utf8.count <= 63,
                schema.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || ($0 < 0x80 && isalnum(Int32($0)) != 0) })
            else { throw refuse("a schema is named with letters, digits and _ (\(schema))") }
            self.schema = schema.lowercased()
        } else {
            self.schema = nil
        }
        self.user = user
        self.password = parameters["password"] ?? components.password
        self.port = port
        self.database = database
        if let host, host.hasPrefix("/") {
            self.host = nil
            self.socketDirectory = host
        } else {
            guard let host else { throw refuse("no host (or host=/directory for a Unix socket)") }
            self.host = host
            self.socketDirectory = nil
        }
    }

    /// The writer lock and notification channel of the library at this address.
    var commits: PostgreSQLCommits { schema.map(PostgreSQLCommits.init(schema:)) ?? .library }

    /// The Unix socket's path, when connecting through one.
    var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// The URL without its password: what messages and logs show.
    package var description: String {
        let server = host.map { "\($0):\(port)" } ?? ""
        var parameters = socketDirectory.map { ["host=\($0)", "port=\(port)"] } ?? []
        if let schema { parameters.append("schema=\(schema)") }
        let query = parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&")
        return "postgresql://\(user)@\(server)/\(database)\(query)"
    }

    /// `text` with any password in it replaced, for messages about a URL that could not be read.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "the PostgreSQL address" }
        if components.password != nil { components.password = "…" }
        components.queryItems = components.queryItems?.map {
            $0.name == "password" ? URLQueryItem(name: $0.name, value: "…") : $0
        }
        return components.string ?? "the PostgreSQL address"
    }
}
