import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PhotosCore
import PostgresNIO
import Synchronization

/// One connection to a library kept in PostgreSQL (postgres-nio's `PostgresConnection`), as the
/// store's engine-neutral ``StoreConnection``: the store's SQL, with its `?` placeholders numbered
/// for PostgreSQL, its values bound with their types, and rows read back as the same neutral
/// values SQLite's give.
///
/// The store's work is synchronous, on its own threads: each statement waits for postgres-nio's
/// answer there (never on an event loop, where waiting would deadlock). One connection runs one
/// statement at a time; a ``transaction(_:)`` holds it from `BEGIN` to `COMMIT`.
///
/// ```swift
/// let connection = try PostgreSQLConnection.connect(to: PostgreSQLAddress(url))
/// defer { connection.close() }
/// try connection.transaction { db in
///     try db.execute("UPDATE hook SET enabled = ? WHERE name = ?", [.int(0), .text(name)])
/// }
/// ```
package final class PostgreSQLConnection: StoreConnection, Sendable {
    /// Where the connection goes.
    let address: PostgreSQLAddress
    /// postgres-nio's connection, for what the store's statements do not cover (a LISTEN).
    let connection: PostgresConnection
    private let logger: Logger

    /// The answer the statement running now waits for: failed by the connection's closing, which
    /// postgres-nio does not tell a query written to a connection that had already closed.
    private let pending = Mutex<(@Sendable (StoreError) -> Void)?>(nil)
    /// Rows held for inserting later and keys taken ahead, in the transaction running now.
    private let held = Mutex(HeldRows())
    /// How many held rows the last transaction that committed inserted.
    private let lastCommitsHeldRows = Mutex(0)
    /// How many rows of each table asked for a key (``reservedKey(of:)``) in the last transaction
    /// that committed asking for any: what the next is likely to ask for, a scan's batch after
    /// a batch.
    private let lastCommitsKeys = Mutex<[String: Int]>([:])
    /// The statements inserting held rows that this connection has prepared, with their text as
    /// the server got it, by their SQL (``insertHeldRows()``).
    private let prepared = Mutex<[String: (statement: PreparedQuery, text: String)]>([:])

    private init(address: PostgreSQLAddress, connection: PostgresConnection, logger: Logger) {
        self.address = address
        self.connection = connection
        self.logger = logger
        let lost = StoreError(.unreachable, "the connection to the library at \(address) was lost")
        connection.closeFuture.whenComplete { [weak self] _ in self?.pending.withLock { $0?(lost) } }
    }

    /// Connects to the server at `address`; a server that is not there, a refused role or a
    /// missing database is a ``StoreError`` naming the address (without its password).
    package static func connect(
        to address: PostgreSQLAddress, logger: Logger = Logger(label: "photos.store.postgresql"),
        timeout: TimeAmount = .seconds(10)
    ) throws(StoreError) -> PostgreSQLConnection {
        var configuration: PostgresConnection.Configuration
        if let socket = address.socketPath {
            configuration = .init(
                unixSocketPath: socket, username: address.user, password: address.password,
                database: address.database)
        } else {
            configuration = .init(
                host: address.host ?? "localhost", port: address.port, username: address.user,
                password: address.password, database: address.database, tls: try tls(for: address))
        }
        configuration.options.connectTimeout = timeout
        configuration.options.additionalStartupParameters =
            [("application_name", address.applicationName)] + (address.libraryHost.map { [("photos.host", $0)] } ?? [])
        do {
            let connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1, logger: logger
            ).wait()
            let opened = PostgreSQLConnection(address: address, connection: connection, logger: logger)
            if let schema = address.schema {
                do {
                    try opened.execute("SET search_path TO \"\(schema)\"", [])
                } catch {
                    opened.close()
                    throw error
                }
            }
            return opened
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(postgreSQL: error, address: address)
        }
    }

    /// The TLS of a TCP connection to `address`, as its `sslmode` and `sslrootcert` say (libpq's
    /// meanings): a root certificate file that cannot be read is a ``StoreError`` naming it.
    static func tls(
        for address: PostgreSQLAddress, home: String = NSHomeDirectory()
    ) throws(StoreError) -> PostgresConnection.Configuration.TLS {
        var mode = address.tlsMode
        if mode == .disable { return .disable }
        // libpq checks a `require` connection's certificate when it is given the roots to check it by.
        if mode == .require, address.rootCertificates != nil { mode = .verifyCA }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if mode == .verifyCA || mode == .verifyFull {
            let fallback = home + "/.postgresql/root.crt"
            if let file = address.rootCertificates
                ?? (FileManager.default.fileExists(atPath: fallback) ? fallback : nil)
            {
                guard FileManager.default.isReadableFile(atPath: file) else {
                    throw StoreError(.notFound, "\(address): cannot read the root certificates \(file) (sslrootcert)")
                }
                configuration.trustRoots = .file(file)
            }
        }
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return mode == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw StoreError(.other, "\(address): the TLS settings cannot be used: \(error)")
        }
    }

    /// Closes the connection; statements after this fail.
    package func close() {
        guard !connection.isClosed else { return }
        try? connection.close().wait()
    }

    deinit {
        // A connection let go unclosed (a failure between connecting and handing it on) is closed
        // here, where waiting is allowed: never on an event loop.
        if !connection.isClosed, MultiThreadedEventLoopGroup.currentEventLoop == nil { close() }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. A
    /// read-only one sees one snapshot throughout (`REPEATABLE READ`).
    func transaction<Value>(readOnly: Bool = false, _ body: (PostgreSQLConnection) throws -> Value) throws -> Value {
        try execute(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", [])
        let expected = lastCommitsKeys.withLock { $0 }
        held.withLock { $0 = HeldRows(inTransaction: true, keysExpected: expected) }
        defer { held.withLock { $0 = HeldRows() } }
        let value: Value
        do {
            value = try body(self)
            try insertHeldRows()
        } catch {
            held.withLock { $0 = HeldRows(inTransaction: true) }
            _ = try? execute("ROLLBACK", [])
            throw error
        }
        let (sent, keysAsked) = held.withLock { ($0.sent, $0.keysAsked) }
        try execute("COMMIT", [])
        lastCommitsHeldRows.withLock { $0 = sent }
        if !keysAsked.isEmpty { lastCommitsKeys.withLock { $0 = keysAsked } }
        return value
    }

    /// How many rows held for later (``insertLater(_:_:)``) the last transaction committed: a
    /// batch's, when it was a scan's.
    var rowsHeldByLastCommit: Int { lastCommitsHeldRows.withLock { $0 } }

    /// The rows ``insertLater(_:_:)`` holds, and the keys ``reservedKey(of:)`` took ahead, for the
    /// transaction running now.
    private struct HeldRows {
        var inTransaction = false
        /// How many held rows have been inserted.
        var sent = 0
        /// Rows of one shape each, to insert in this order.
        var runs: [(shape: LaterInsert, rows: [[SQLValue]])] = []
        /// Keys taken ahead and not yet given, by table, the next one last.
        var keys: [String: [Int64]] = [:]
        /// How many keys the last taking of each table took (4 after its first row, inserted at
        /// once): the next takes four times as many, up to 1,024, as a transaction inserting many
        /// rows goes on; the keys left at its end are never used (each key taken is a `nextval`,
        /// which costs the server more than a gap).
        var keysTaken: [String: Int] = [:]
        /// How many rows of each table the connection's last transaction asked keys for: a table
        /// that had more than one takes as many at its first row (up to 1,024), in one statement
        /// where growing fourfold from 4 took five, and as many held inserts between them.
        var keysExpected: [String: Int] = [:]
        /// How many rows of each table asked for a key in this transaction.
        var keysAsked: [String: Int] = [:]

        /// Holds a row: with the last run of its shape, unless a run after that one holds rows of
        /// a table it depends on; then in a run of its own, last.
        mutating func hold(_ shape: LaterInsert, _ row: [SQLValue]) {
            if let last = runs.lastIndex(where: { $0.shape == shape }),
                !runs[(last + 1)...].contains(where: { shape.dependsOn.contains($0.shape.table) })
            {
                runs[last].rows.append(row)
            } else {
                runs.append((shape, [row]))
            }
        }
    }

    /// Inserts the rows held, many to a statement: as columns (``PostgreSQLColumns``), up to 10,000
    /// rows a statement; else as `VALUES`, at most 1,000 rows or 65,535 values a statement
    /// (PostgreSQL's limit of parameters).
    private func insertHeldRows() throws(StoreError) {
        let runs = held.withLock { held in
            defer { held.runs = [] }
            held.sent += held.runs.reduce(0) { $0 + $1.rows.count }
            return held.runs
        }
        for (shape, rows) in runs {
            for start in stride(from: 0, to: rows.count, by: 10_000) {
                let chunk = rows[start..<min(start + 10_000, rows.count)]
                if chunk.count > 1, let columns = PostgreSQLColumns(shape, chunk) {
                    try runPrepared(columns)
                } else {
                    try insert(chunk, of: shape)
                }
            }
        }
    }

    /// Runs the statement inserting `columns` as a statement this connection prepared the first
    /// time its SQL came (a shape's columns are the same text every batch): parsing and planning
    /// a held insert took the server as long as running it, where a prepared one is planned a few
    /// times and then kept as a generic plan, which PostgreSQL itself makes again when a table's
    /// statistics change. Every placeholder of the SQL is cast to its array's type
    /// (``PostgreSQLColumns``), which is what the server takes each value for.
    private func runPrepared(_ columns: PostgreSQLColumns) throws(StoreError) {
        let (statement, text): (PreparedQuery, String)
        if let known = prepared.withLock({ $0[columns.sql] }) {
            (statement, text) = known
        } else {
            text = PostgreSQLDialect.numberingPlaceholders(columns.sql).sql
            statement = try answer(to: text) { $0.prepare(query: text) }
            prepared.withLock { $0[columns.sql] = (statement, text) }
        }
        let values = columns.arrays.map { array in
            var bytes = ByteBuffer()
            array.encode(into: &bytes, context: .default)
            return PostgresData(type: array.psqlType, formatCode: .binary, value: bytes)
        }
        _ = try answer(to: text) { _ in statement.execute(values) }
    }

    /// Inserts rows of `shape` as `VALUES`.
    private func insert(_ rows: ArraySlice<[SQLValue]>, of shape: LaterInsert) throws(StoreError) {
        let perStatement = max(1, min(1_000, 65_535 / max(1, rows.first?.count ?? 1)))
        for start in stride(from: rows.startIndex, to: rows.endIndex, by: perStatement) {
            let chunk = rows[start..<min(start + perStatement, rows.endIndex)]
            _ = try run(shape.sql(rows: chunk.count), Array(chunk.joined()))
        }
    }

    // MARK: StoreConnection

    package var dialect: SQLDialect { .postgreSQL }

    @discardableResult
    package func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    package func insert(_ sql: String, _ arguments: [SQLValue], key: String) throws -> Int64 {
        let result = try run(sql + " RETURNING \(key)", arguments)
        guard let row = result.rows.first else {
            throw StoreError(.other, "\(address): an INSERT returned no \(key): \(sql)")
        }
        return try Self.storeRow(row).int64(0)
    }

    package func integers(_ sql: String, _ arguments: [SQLValue]) throws -> [Int64] {
        try rows(sql, arguments) { try $0.int64(0) }
    }

    package func insertLater(_ insert: LaterInsert, _ arguments: [SQLValue]) throws {
        let held = held.withLock { held in
            guard held.inTransaction else { return false }
            held.hold(insert, arguments)
            return true
        }
        // Outside a transaction there may be no next statement to insert it before.
        if !held { try execute(insert.sql(rows: 1), arguments) }
    }

    package func reservedKey(of table: String) throws -> Int64? {
        let (key, count) = held.withLock { held -> (Int64?, Int) in
            guard held.inTransaction else { return (nil, 0) }
            held.keysAsked[table, default: 0] += 1
            if let key = held.keys[table]?.popLast() { return (key, 0) }
            // A table's first row in a transaction is inserted at once, unless the last
            // transaction asked for many keys: a transaction of one row (a photo arriving) would
            // spend a statement taking its key.
            guard let taken = held.keysTaken[table] else {
                let expected = min(held.keysExpected[table] ?? 0, 1_024)
                held.keysTaken[table] = max(expected, 4)
                return (nil, expected > 1 ? expected : 0)
            }
            let count = min(taken * 4, 1_024)
            held.keysTaken[table] = count
            return (nil, count)
        }
        if let key { return key }
        guard count > 0 else { return nil }
        // The sequence is found once, in a subquery the planner keeps apart (OFFSET 0): named in
        // the call itself, it was looked up again for every key, nine tenths of the statement.
        let keys = try integers(
            """
            SELECT nextval(q.s) FROM (SELECT pg_get_serial_sequence(?, 'id')::regclass AS s OFFSET 0) q,
                generate_series(1, ?) ORDER BY 1
            """,
            [.text(table), .int(Int64(count))])
        return held.withLock { held in
            held.keys[table] = keys.dropFirst().reversed()
            return keys.first
        }
    }

    package func rows<Value>(_ sql: String, _ arguments: [SQLValue], _ decode: (StoreRow) throws -> Value) throws
        -> [Value]
    {
        try run(sql, arguments).rows.map { try decode(Self.storeRow($0)) }
    }

    /// Runs one statement and waits for all of its rows.
    private func run(_ sql: String, _ arguments: [SQLValue]) throws(StoreError) -> PostgresQueryResult {
        var bindings = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: bindings.appendNull()
            case .int(let number): bindings.append(number)
            case .double(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return try run(sql, bindings, count: arguments.count)
    }

    /// Runs one statement with its values bound (`count` of them) and waits for all of its rows.
    private func run(_ sql: String, _ bindings: PostgresBindings, count bound: Int) throws(StoreError)
        -> PostgresQueryResult
    {
        if held.withLock({ !$0.runs.isEmpty }) { try insertHeldRows() }
        let (text, count) = PostgreSQLDialect.numberingPlaceholders(sql)
        guard count == bound else {
            throw StoreError(
                .other, "\(address): a statement with \(count) placeholders was given \(bound) values: \(sql)")
        }
        return try answer(to: text) { [logger] in
            $0.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger)
        }
    }

    /// Waits for what `ask` asks postgres-nio for `statement` (the SQL named in an error).
    ///
    /// postgres-nio never answers a query written to a connection that closed before it got
    /// there: the answer waited for is a promise of this connection's, which its closing fails too.
    private func answer<Value: Sendable>(
        to statement: String, _ ask: (PostgresConnection) -> EventLoopFuture<Value>
    ) throws(StoreError) -> Value {
        let answer = connection.eventLoop.makePromise(of: Value.self)
        pending.withLock { $0 = { answer.fail($0) } }
        defer { pending.withLock { $0 = nil } }
        if connection.isClosed {
            answer.fail(StoreError(.unreachable, "the connection to the library at \(address) was lost"))
        } else {
            ask(connection).cascade(to: answer)
        }
        do {
            return try answer.futureResult.wait()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(postgreSQL: error, address: address, statement: statement)
        }
    }

    /// A row PostgreSQL returned, as the store's neutral values: whole numbers, numbers, text and
    /// bytes as SQLite's rows hold them, a boolean as 0 or 1.
    static func storeRow(_ row: PostgresRow) throws(StoreError) -> StoreRow {
        var values: [SQLValue] = []
        values.reserveCapacity(row.count)
        for cell in row {
            values.append(try value(of: cell))
        }
        return StoreRow(values: values)
    }

    private static func value(of cell: PostgresCell) throws(StoreError) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid: return .int(try cell.decode(Int64.self))
            case .float4, .float8: return .double(try cell.decode(Double.self))
            case .numeric:
                return .double(NSDecimalNumber(decimal: try cell.decode(Decimal.self)).doubleValue)
            case .bool: return .int(try cell.decode(Bool.self) ? 1 : 0)
            case .bytea: return .blob(Array(buffer: try cell.decode(ByteBuffer.self)))
            case .text, .varchar, .name, .bpchar, .json, .jsonb, .uuid: return .text(try cell.decode(String.self))
            default:
                throw StoreError(
                    .missingColumn,
                    "column \(cell.columnIndex) (\(cell.columnName)) holds PostgreSQL's \(cell.dataType), "
                        + "which the store does not read")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(
                .missingColumn, "column \(cell.columnIndex) (\(cell.columnName)) cannot be read: \(error)")
        }
    }
}

extension StoreError {
    /// The store's view of what postgres-nio threw: the code it means for the library (by
    /// PostgreSQL's SQLSTATE where the server answered), and the server's message.
    /// `statement`: the SQL that failed, named in the message of an error in the statement itself
    /// (SQLSTATE class 42: its syntax, a name or a type), which only a bug of the store makes.
    init(postgreSQL error: any Error, address: PostgreSQLAddress, statement: String? = nil) {
        let subject = "the library at \(address)"
        // postgres-nio's prepared queries give the server's error in its older form.
        if case .server(let said) = error as? PostgresError, let state = said.fields[.sqlState] {
            self.init(
                state: state, message: said.fields[.message] ?? "\(said)", detail: said.fields[.detail],
                address: address, statement: statement)
            return
        }
        guard let error = error as? PSQLError else {
            // A connection that could not be made at all (refused, no route, a timeout).
            self.init(.unreachable, "\(subject) cannot be reached: \(error)")
            return
        }
        guard let info = error.serverInfo, let state = info[.sqlState] else {
            // A PSQLError describes itself only by its code ("Generic description to prevent
            // accidental leakage…" otherwise): its own, and what lies under it.
            let under = error.underlying.map { ($0 as? PSQLError).map { "\($0.code)" } ?? "\($0)" }
            let cause = "\(error.code)" + (under.map { " (\($0))" } ?? "")
            // TLS that cannot be had, said plainly before the library's own words for it.
            var hint = ""
            if error.code == .sslUnsupported {
                hint = "the server offers no TLS, which its sslmode requires: "
            } else if under?.contains("CERTIFICATE_VERIFY_FAILED") == true {
                hint =
                    "the server's TLS certificate is not one the root certificates vouch for "
                    + "(sslrootcert=FILE names them), or not for this host: "
            }
            self.init(.unreachable, "\(subject) cannot be reached: \(hint)\(cause)")
            return
        }
        self.init(
            state: state, message: info[.message] ?? "\(error.code)", detail: info[.detail], address: address,
            statement: statement)
    }

    /// The store's view of an error the server answered with: its SQLSTATE `state`, `message` and
    /// `detail`, about `statement` (``init(postgreSQL:address:statement:)``).
    private init(state: String, message: String, detail: String?, address: PostgreSQLAddress, statement: String?) {
        let subject = "the library at \(address)"
        let said = "PostgreSQL \(state): \(message)\(detail.map { " (\($0))" } ?? "")"
        switch state {
        case "28000", "28P01", "42501":
            self.init(.permissionDenied, "no permission to use \(subject): \(said)")
        case "3D000":
            self.init(.notFound, "there is no library at \(address): \(said)")
        case "40001", "40P01", "55P03":
            self.init(.busy, "\(subject) is held by another writer: \(said)")
        case "53100":
            self.init(.full, "no space left to write \(subject): \(said)")
        case "25006":
            self.init(.readOnly, "\(subject) is read-only: \(said)")
        case "57014":
            self.init(.interrupted, "an operation on \(subject) was interrupted: \(said)")
        case "42703":
            self.init(.missingColumn, "\(subject): \(said)")
        case _ where state.hasPrefix("08") || state.hasPrefix("57P"):
            self.init(.unreachable, "\(subject) cannot be reached: \(said)")
        case _ where state.hasPrefix("42") && statement != nil:
            let shown = statement!.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            self.init(.other, "\(subject): \(said) in: \(shown.prefix(600))")
        default:
            self.init(.other, "\(subject): \(said)")
        }
    }
}
