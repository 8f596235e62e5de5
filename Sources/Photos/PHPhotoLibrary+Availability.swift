import Dispatch
import Foundation
import Logging
import PhotosCore
import PhotosStore
import Synchronization

/// Something told when a library can no longer be read: its file is damaged, locked, unreadable,
/// gone with its volume, or made by a newer build.
///
/// As in PhotoKit, fetches do not throw: a fetch that fails returns an empty result, logs the
/// cause, sets ``PHPhotoLibrary/unavailabilityReason`` and tells these observers. An empty result
/// with a reason is a failure, never an empty library:
/// ```swift
/// final class Browser: PHPhotoLibraryAvailabilityObserver {
///     func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary) {
///         print("cannot read the library:", photoLibrary.unavailabilityReason as Any)
///     }
/// }
/// library.register(browser)
/// ```
public protocol PHPhotoLibraryAvailabilityObserver: AnyObject, Sendable {
    /// Called on a background queue when the library becomes unavailable; the reason is in
    /// `photoLibrary.unavailabilityReason`.
    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary)
}

extension PHPhotoLibrary {
    /// Why the library cannot be read now, as a `PHPhotosError` with the cause in its `userInfo`;
    /// nil while it can. Set when a fetch or a change notification fails, cleared by the next fetch
    /// that succeeds. While a watched root is offline (an unmounted disk), an asset fetch sets it to
    /// `libraryVolumeOffline` with the root in `NSFilePathErrorKey`: the root's assets are kept and
    /// fetched, but their files cannot be read (``PHAsset/isAvailable``).
    public var unavailabilityReason: (any Error)? { availability.reason }

    /// Registers an observer told when the library becomes unavailable. It is held weakly, as in PhotoKit.
    public func register(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        availability.register(observer)
    }

    /// Stops telling an observer about the library's availability.
    public func unregisterAvailabilityObserver(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        availability.unregister(observer)
    }

    /// Records a failure of the store on a path that cannot throw (fetches, lazy loads,
    /// notifications): logs it with its cause, makes it the unavailability reason and tells the
    /// availability observers. Returns the error as the public API shows it.
    @discardableResult
    func storeFailed(_ error: any Error, while action: String) -> PHPhotosError {
        let photosError = Self.photosError(error)
        configuration.logger.error(
            "the photo library cannot be read",
            metadata: [
                "library.path": "\(database.location)", "action": "\(action)",
                "error.code": "\(photosError.code.rawValue)", "error": "\(photosError)",
            ])
        if availability.fail(photosError) {
            availability.notify(self)
        }
        return photosError
    }

    /// Records that the store answered: the library is available again.
    func storeAnswered() {
        availability.succeed()
    }

    /// Records which watched roots are offline now, read with an asset fetch: their assets are in
    /// the result, but their files cannot be read (PhotoKit's `libraryVolumeOffline`).
    func noteOfflineRoots(_ roots: [String]) {
        guard let first = roots.first else {
            availability.setOffline(nil)
            return
        }
        let error = PHPhotosError(
            .libraryVolumeOffline,
            "\(roots.count == 1 ? "a watched folder is" : "\(roots.count) watched folders are") offline ("
                + roots.joined(separator: ", ") + "): their assets are kept, but their files cannot be read",
            userInfo: [NSFilePathErrorKey: first])
        if availability.setOffline(error) {
            configuration.logger.warning(
                "watched folders are offline", metadata: ["roots": "\(roots.joined(separator: ", "))"])
            availability.notify(self)
        }
    }
}

/// A library's availability: the reason it cannot be read, and who to tell when it becomes so.
final class AvailabilityCenter: Sendable {
    private struct Entry {
        weak var observer: (any PHPhotoLibraryAvailabilityObserver)?
    }

    /// The store's last failure, the offline roots' error, and the observers.
    private let state = Mutex<(failure: PHPhotosError?, offline: PHPhotosError?, observers: [Entry])>((nil, nil, []))
    /// Observers are called here, in order, off the thread whose fetch failed (which may hold the
    /// change queue: an observer may start a change block).
    private let queue = DispatchQueue(label: "photos.library.availability")

    /// A failure of the store first: it hides everything; offline roots hide only their assets' files.
    var reason: PHPhotosError? { state.withLock { $0.failure ?? $0.offline } }

    func register(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(Entry(observer: observer))
        }
    }

    func unregister(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        state.withLock { state in state.observers.removeAll { $0.observer == nil || $0.observer === observer } }
    }

    /// Sets the reason; returns true when the library was available until now (observers are
    /// told once per outage, not once per failing fetch).
    func fail(_ error: PHPhotosError) -> Bool {
        state.withLock { state in
            defer { state.failure = error }
            return state.failure == nil
        }
    }

    func succeed() {
        state.withLock { state in
            if state.failure != nil { state.failure = nil }
        }
    }

    /// Sets the offline roots' error; returns true when the library was available until now or
    /// other roots went offline (observers are told then).
    @discardableResult
    func setOffline(_ error: PHPhotosError?) -> Bool {
        state.withLock { state in
            defer { state.offline = error }
            guard let error, state.failure == nil else { return false }
            return state.offline?.message != error.message
        }
    }

    /// Tells every observer, on the availability queue.
    func notify(_ library: PHPhotoLibrary) {
        let observers = state.withLock { $0.observers.compactMap(\.observer) }
        guard !observers.isEmpty else { return }
        queue.async { [weak library] in
            guard let library else { return }
            for observer in observers { observer.photoLibraryDidBecomeUnavailable(library) }
        }
    }
}
