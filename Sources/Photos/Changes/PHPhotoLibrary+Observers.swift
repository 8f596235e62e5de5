import Dispatch
import Foundation
import PhotosCore
import PhotosStore
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
/// Commits made by this process are delivered right after they land. Another process's commits
/// are noticed by checking the newest token every ``interval`` (one indexed read of the log,
/// no file reads) while any observer is registered.
final class ObserverCenter: @unchecked Sendable {
    /// How often other processes' commits are looked for.
    static let interval: DispatchTimeInterval = .milliseconds(20)

    private struct Entry {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
    }

    private let state = Mutex<(observers: [Entry], lastToken: Int64?, timer: (any DispatchSourceTimer)?)>(
        ([], nil, nil))
    /// Observers are called here, in order.
    private let queue = DispatchQueue(label: "photos.library.observers")

    func register(_ observer: any PHPhotoLibraryChangeObserver, library: PHPhotoLibrary) {
        let start = (try? library.database.currentToken()) ?? 0
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(Entry(observer: observer))
            if state.lastToken == nil { state.lastToken = start }
            if state.timer == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(5))
                timer.setEventHandler { [weak self, weak library] in
                    guard let self, let library else { return }
                    self.deliver(library)
                }
                timer.resume()
                state.timer = timer
            }
        }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            if state.observers.isEmpty {
                state.timer?.cancel()
                state.timer = nil
                state.lastToken = nil
            }
        }
    }

    /// Looks for new entries now (after a commit of this process).
    func kick(_ library: PHPhotoLibrary) {
        guard state.withLock({ $0.timer != nil }) else { return }
        queue.async { [weak self, weak library] in
            guard let self, let library else { return }
            self.deliver(library)
        }
    }

    /// Runs on `queue`: calls every observer once per new entry, oldest first.
    private func deliver(_ library: PHPhotoLibrary) {
        guard let since = state.withLock({ $0.lastToken }),
            let newest = try? library.database.currentToken(), newest > since,
            let entries = try? library.database.changes(since: since)
        else { return }
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
