import Dispatch
import Foundation
import PhotosCore

/// Carries PhotoKit's non-Sendable change blocks and completion handlers to the queue that calls them:
/// each is called there, once, and nothing else touches it meanwhile.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}

extension PHPhotoLibrary {
    /// Runs `changeBlock` on the library's serial queue, commits the requests it made atomically,
    /// then calls `completionHandler` with the outcome on another serial queue.
    ///
    /// All requests of one block commit together or not at all. Blocks run one at a time, in the
    /// order they were submitted.
    /// ```swift
    /// PHPhotoLibrary.shared().performChanges({
    ///     let request = PHAssetChangeRequest(for: asset)
    ///     request.isFavorite = true
    /// }, completionHandler: { success, error in print(success, error as Any) })
    /// ```
    public func performChanges(
        _ changeBlock: @escaping () -> Void, completionHandler: ((Bool, (any Error)?) -> Void)? = nil
    ) {
        let work = UncheckedSendable(value: (changeBlock, completionHandler))
        changeQueue.async {
            var failure: (any Error)?
            do { try self.runChangeBlock(work.value.0) } catch { failure = error }
            let outcome = failure
            guard let completion = work.value.1 else { return }
            let handler = UncheckedSendable(value: completion)
            Self.completionQueue.async { handler.value(outcome == nil, outcome) }
        }
    }

    /// Runs `changeBlock` and commits its requests, suspending until they are committed.
    public func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            performChanges(changeBlock) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Runs `changeBlock` on this thread and commits its requests before returning; throws a
    /// `PHPhotosError` (and changes nothing) if any request fails.
    public func performChangesAndWait(_ changeBlock: () -> Void) throws {
        precondition(ChangeBlock.current == nil, "performChangesAndWait cannot be called inside a change block")
        try withoutActuallyEscaping(changeBlock) { block in
            let work = UncheckedSendable(value: block)
            try changeQueue.sync { try runChangeBlock(work.value) }
        }
    }

    /// Runs `changeBlock` on the library's serial queue and commits its requests atomically, as
    /// ``performChanges(_:)`` does, then returns the persistent change token of that commit: the
    /// token its change-log entry carries, so that a caller can tell its own change in a change
    /// stream (`fetchPersistentChanges(since:)`, photosd's `GET /v1/changes`). A block that changes
    /// nothing returns the library's current token.
    ///
    /// Not in PhotoKit: the block may throw. A block that throws commits nothing, not even the
    /// requests it made before throwing, and its error is rethrown as it is; a failed commit throws
    /// a `PHPhotosError`, as `performChanges` reports it.
    /// ```swift
    /// let token = try await library.performChangesReturningToken {
    ///     guard let album = PHAssetCollectionChangeRequest(for: trip) else { throw MyError.readOnly }
    ///     album.title = "Trip 2024"
    /// }
    /// ```
    public func performChangesReturningToken(_ changeBlock: @escaping () throws -> Void) async throws
        -> PHPersistentChangeToken
    {
        let work = UncheckedSendable(value: changeBlock)
        return try await withCheckedThrowingContinuation { continuation in
            changeQueue.async {
                continuation.resume(
                    with: Result {
                        let committed = try self.runChangeBlock(work.value)
                        do {
                            return PHPersistentChangeToken(
                                libraryIdentifier: try self.database.libraryIdentifier(),
                                token: try committed ?? self.database.currentToken())
                        } catch {
                            throw Self.photosError(error)
                        }
                    })
            }
        }
    }

    /// ``performChangesReturningToken(_:)`` for a caller that waits (a command-line tool): on the
    /// library's serial queue, the calling thread blocked until the commit.
    package func performChangesAndWaitReturningToken(_ changeBlock: () throws -> Void) throws
        -> PHPersistentChangeToken
    {
        precondition(ChangeBlock.current == nil, "performChangesAndWait cannot be called inside a change block")
        return try withoutActuallyEscaping(changeBlock) { block in
            let work = UncheckedSendable(value: block)
            return try changeQueue.sync {
                let committed = try runChangeBlock(work.value)
                do {
                    return PHPersistentChangeToken(
                        libraryIdentifier: try database.libraryIdentifier(),
                        token: try committed ?? database.currentToken())
                } catch {
                    throw Self.photosError(error)
                }
            }
        }
    }

    /// Completion handlers run here, in commit order, off the change queue (so that they may
    /// start another change block and wait for it).
    static let completionQueue = DispatchQueue(label: "photos.library.completions")
}
