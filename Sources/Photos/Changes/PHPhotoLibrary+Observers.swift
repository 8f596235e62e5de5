import Dispatch
import Foundation
import PhotosCore
import PhotosStore
import PhotosWatcher
import Synchronization

extension PHPhotoLibrary {
    /// Registers an observer for every committed change of this library, by this process or any
    /// other (the daemon ingesting files above all). It is held weakly, as in PhotoKit.
    public func register(_ observer: any PHPhotoLibraryChangeObserver) {
        observers.register(observer, library: self)
    }

    /// Stops telling an observer about changes.
    public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
        observers.unregister(observer)
    }
}

/// Delivers change-log entries to a library's observers, one call per entry, in token order.
///
/// Commits made by this process are delivered right after they land (``kick(_:)``). Another
/// process's commits are noticed through a ``CommitSignal``: inotify on the library's directory
/// wakes the observer queue when the WAL file is written, and one indexed read of the log finds
/// what is new. The signal exists only while an observer is registered; when nobody writes, nothing
/// runs. An in-memory library (or a machine without inotify) falls back to checking every
/// ``CommitSignal/fallbackInterval``.
final class ObserverCenter: @unchecked Sendable {
    private struct Entry {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
    }

    private let state = Mutex<(observers: [Entry], lastToken: Int64?, signal: CommitSignal?)>(([], nil, nil))
    /// Observers are called here, in order; the commit signal's handler runs here too.
    private let queue = DispatchQueue(label: "photos.library.observers")

    func register(_ observer: any PHPhotoLibraryChangeObserver, library: PHPhotoLibrary) {
        // A library that cannot be read now: the first delivery that can read it starts from there.
        let start = Self.newestToken(library, while: "registering a change observer")
        let started = state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(Entry(observer: observer))
            if state.lastToken == nil { state.lastToken = start }
            guard state.signal == nil else { return false }
            state.signal = CommitSignal(path: library.database.path, queue: queue) { [weak self, weak library] in
                guard let self, let library else { return }
                self.deliver(library)
            }
            return true
        }
        // A commit between reading `start` and the watch being in place woke nobody: look once.
        if started { kick(library) }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        let signal = state.withLock { state -> CommitSignal? in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            guard state.observers.isEmpty else { return nil }
            defer {
                state.signal = nil
                state.lastToken = nil
            }
            return state.signal
        }
        signal?.cancel()
    }

    /// Looks for new entries now (after a commit of this process).
    func kick(_ library: PHPhotoLibrary) {
        guard state.withLock({ $0.signal != nil }) else { return }
        queue.async { [weak self, weak library] in
            guard let self, let library else { return }
            self.deliver(library)
        }
    }

    /// The newest token, or nil (reported) when the library cannot be read.
    private static func newestToken(_ library: PHPhotoLibrary, while action: String) -> Int64? {
        do {
            return try library.database.currentToken()
        } catch {
            library.storeFailed(error, while: action)
            return nil
        }
    }

    /// Runs on `queue`: calls every observer once per new entry, oldest first.
    private func deliver(_ library: PHPhotoLibrary) {
        guard let since = state.withLock({ $0.lastToken }) else {
            let start = Self.newestToken(library, while: "reading changes for observers")
            state.withLock { state in
                if state.lastToken == nil, !state.observers.isEmpty { state.lastToken = start }
            }
            return
        }
        let entries: [LibraryChange]
        do {
            guard try library.database.currentToken() > since else { return }
            entries = try library.database.changes(since: since)
        } catch {
            // Tried again at the next commit signal; meanwhile the library says it is unavailable.
            library.storeFailed(error, while: "reading changes for observers")
            return
        }
        for entry in entries {
            let observers = state.withLock { state in
                state.lastToken = entry.token
                return state.observers.compactMap(\.observer)
            }
            let change = PHChange(entry: entry, library: library)
            for observer in observers { observer.photoLibraryDidChange(change) }
        }
    }
}
