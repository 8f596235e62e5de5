import Foundation
import GRDB

/// The read transaction a thread's reads of one library share while
/// ``LibraryDatabase/withinOneRead(_:)`` runs: each of them runs on that transaction's connection
/// instead of taking a connection of their own and opening a transaction there.
///
/// Kept per thread (a POSIX thread-specific value), not per task: the connection may only be used
/// inside the block that opened the transaction, which runs on one thread, and a task made
/// inside it may run elsewhere.
///
/// ```swift
/// try SharedReads.shared.with(db, of: database) {
///     SharedReads.shared.connection(of: database)  // db, on this thread, for this library
/// }
/// ```
final class SharedReads: Sendable {
    static let shared = SharedReads()

    private final class Shared {
        let library: ObjectIdentifier
        let connection: Database

        init(library: ObjectIdentifier, connection: Database) {
            (self.library, self.connection) = (library, connection)
        }
    }

    private let key: pthread_key_t

    private init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The connection `library`'s reads on this thread share now, if any.
    func connection(of library: LibraryDatabase) -> Database? {
        guard let value = pthread_getspecific(key) else { return nil }
        let shared = Unmanaged<Shared>.fromOpaque(value).takeUnretainedValue()
        return shared.library == ObjectIdentifier(library) ? shared.connection : nil
    }

    /// Runs `body` with `library`'s reads on this thread on `connection`, then as before.
    func with<T>(_ connection: Database, of library: LibraryDatabase, _ body: () throws -> T) rethrows -> T {
        let shared = Shared(library: ObjectIdentifier(library), connection: connection)
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(shared).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try withExtendedLifetime(shared) { try body() }
    }
}
