import Foundation
import PhotosCore
import PhotosStore

/// A place in a library's change history, to ask later what changed since (iOS 16's
/// `PHPersistentChangeToken`). Keep it across runs with `NSKeyedArchiver` (it is `NSSecureCoding`,
/// as PhotoKit's is), as `Codable`, or as ``dataRepresentation``.
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: library.currentChangeToken, requiringSecureCoding: true)
/// // ... later, even in another process or after a restart:
/// let token = try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data)!
/// for change in try library.fetchPersistentChanges(since: token) {
///     let assets = try change.changeDetails(for: .asset)
///     print(assets.insertedLocalIdentifiers, assets.updatedLocalIdentifiers, assets.deletedLocalIdentifiers)
/// }
/// ```
/// A token names its library: given to another library, `fetchPersistentChanges(since:)` throws
/// `PHPhotosError.persistentChangeTokenExpired` (fetch everything again), as for a token older than
/// the history kept.
public final class PHPersistentChangeToken: NSObject, Codable, NSSecureCoding, Sendable {
    /// The library the token belongs to.
    public let libraryIdentifier: String
    /// The change-log position.
    public let token: Int64

    init(libraryIdentifier: String, token: Int64) {
        self.libraryIdentifier = libraryIdentifier
        self.token = token
    }

    private enum ArchiveKey {
        static let libraryIdentifier = "libraryIdentifier"
        static let token = "token"
    }

    /// Tokens decode only as what they are (`NSKeyedUnarchiver` with secure coding).
    public static var supportsSecureCoding: Bool { true }

    /// Archives the library's identifier and the change-log position.
    public func encode(with coder: NSCoder) {
        coder.encode(libraryIdentifier as NSString, forKey: ArchiveKey.libraryIdentifier)
        coder.encode(token, forKey: ArchiveKey.token)
    }

    /// A token from an archive; nil when the archive does not hold one.
    public init?(coder: NSCoder) {
        guard
            let identifier = coder.decodeObject(of: NSString.self, forKey: ArchiveKey.libraryIdentifier),
            coder.containsValue(forKey: ArchiveKey.token)
        else { return nil }
        libraryIdentifier = identifier as String
        token = coder.decodeInt64(forKey: ArchiveKey.token)
    }

    /// The token as bytes to store.
    public var dataRepresentation: Data { (try? JSONEncoder().encode(self)) ?? Data() }

    /// A token from ``dataRepresentation``; nil for anything else.
    public convenience init?(dataRepresentation data: Data) {
        guard let decoded = try? JSONDecoder().decode(PHPersistentChangeToken.self, from: data) else { return nil }
        self.init(libraryIdentifier: decoded.libraryIdentifier, token: decoded.token)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHPersistentChangeToken else { return false }
        return libraryIdentifier == other.libraryIdentifier && token == other.token
    }

    public override var hash: Int { token.hashValue ^ libraryIdentifier.hashValue }

    public override var description: String { "<PHPersistentChangeToken \(token)>" }
}

/// The changes since a token, oldest first.
public final class PHPersistentChangeFetchResult: Sequence, Sendable {
    let changes: [PHPersistentChange]

    init(changes: [PHPersistentChange]) {
        self.changes = changes
    }

    /// Calls `block` with each change until it sets `stop`.
    public func enumerateChanges(_ block: (PHPersistentChange, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop: ObjCBool = false
        for change in changes {
            block(change, &stop)
            if stop.boolValue { return }
        }
    }

    public func makeIterator() -> IndexingIterator<[PHPersistentChange]> { changes.makeIterator() }
}

/// Something told that a library's persistent change history has grown (SDK 27), by this process
/// or another, so that it reads the new changes with ``PHPhotoLibrary/fetchPersistentChanges(since:)``
/// from the token it kept: the push counterpart of that pull, for code that keeps a token rather
/// than fetch results.
///
/// ```swift
/// // @unchecked: `token` is touched only in the callback, which the library calls on one serial queue.
/// final class Sync: PHPhotoLibraryPersistentChangesObserver, @unchecked Sendable {
///     private var token = PHPhotoLibrary.shared().currentChangeToken  // or one kept from the last run
///     func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary) {
///         guard let changes = try? photoLibrary.fetchPersistentChanges(since: token) else { return }
///         for change in changes {
///             print(try! change.changeDetails(for: .asset).insertedLocalIdentifiers)
///             token = change.changeToken
///         }
///     }
/// }
/// PHPhotoLibrary.shared().register(sync)
/// ```
public protocol PHPhotoLibraryPersistentChangesObserver: AnyObject {
    /// Called once per committed change, in commit order, on a background serial queue (the one
    /// change observers are called on); the change is already in ``PHPhotoLibrary/fetchPersistentChanges(since:)``.
    func photoLibraryPersistentChangesDidUpdate(_ photoLibrary: PHPhotoLibrary)
}

/// One committed change of the library: what it did to each type of object.
public final class PHPersistentChange: NSObject, Sendable {
    /// The token just after this change: fetch from it to get the changes that followed.
    public let changeToken: PHPersistentChangeToken
    let entry: LibraryChange

    init(entry: LibraryChange, libraryIdentifier: String) {
        self.entry = entry
        changeToken = PHPersistentChangeToken(libraryIdentifier: libraryIdentifier, token: entry.token)
    }

    /// What this change did to objects of one type.
    public func changeDetails(for objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
        PHPersistentObjectChangeDetails(objectType: objectType, changes: entry.changes(for: objectType))
    }

    /// The fields this change settled that the library and another tool had both changed in an
    /// asset's XMP sidecar, with both values and the one kept (not in PhotoKit's API).
    public var sidecarConflicts: [SidecarConflict] { entry.sidecarConflicts ?? [] }

    /// Where the assets this change imported from a drop folder came from (not in PhotoKit's API).
    public var imports: [ImportOrigin] { entry.imports ?? [] }
}

/// The identifiers of the objects of one type a change inserted, updated and deleted.
public final class PHPersistentObjectChangeDetails: NSObject, Sendable {
    /// The type of object these details are about.
    public let objectType: PHObjectType
    /// Objects created.
    public let insertedLocalIdentifiers: Set<String>
    /// Includes hiding and unhiding, which are updates, not deletions.
    public let updatedLocalIdentifiers: Set<String>
    /// Objects deleted.
    public let deletedLocalIdentifiers: Set<String>
    /// For updated objects, which properties changed (not in PhotoKit's API).
    public let changedProperties: [String: [String]]

    init(objectType: PHObjectType, changes: ObjectChanges) {
        self.objectType = objectType
        insertedLocalIdentifiers = Set(changes.inserted)
        updatedLocalIdentifiers = Set(changes.updated)
        deletedLocalIdentifiers = Set(changes.deleted)
        changedProperties = changes.changedProperties
    }
}

extension PHPhotoLibrary {
    /// The token of the library's latest change. When the library cannot be read, a token that no
    /// library accepts (its ``unavailabilityReason`` says why): never one that would silently skip
    /// changes.
    public var currentChangeToken: PHPersistentChangeToken {
        do {
            return PHPersistentChangeToken(
                libraryIdentifier: try database.libraryIdentifier(), token: try database.currentToken())
        } catch {
            storeFailed(error, while: "reading the current change token")
            return PHPersistentChangeToken(libraryIdentifier: "", token: 0)
        }
    }

    /// The changes committed after `token`, by any process, oldest first.
    ///
    /// Throws `PHPhotosError.persistentChangeTokenExpired` (3105) when the history since the token
    /// is no longer kept, or when the token belongs to another library: then fetch everything again.
    /// A library that cannot be read throws its reason (also its ``unavailabilityReason``).
    public func fetchPersistentChanges(since token: PHPersistentChangeToken) throws -> PHPersistentChangeFetchResult {
        do {
            let identifier = try database.libraryIdentifier()
            guard token.libraryIdentifier == identifier else {
                throw PHPhotosError(.persistentChangeTokenExpired, "the token belongs to another library")
            }
            let entries = try database.changes(after: token.token)
            return PHPersistentChangeFetchResult(
                changes: entries.map { PHPersistentChange(entry: $0, libraryIdentifier: identifier) })
        } catch let error as StoreError where error.code != .historyExpired {
            throw storeFailed(error, while: "fetching persistent changes")
        } catch {
            throw Self.photosError(error)
        }
    }
}
