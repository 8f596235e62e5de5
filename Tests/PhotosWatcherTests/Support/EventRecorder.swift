import PhotosWatcher
import Synchronization

/// Reads a monitor's events as they come, so that tests can wait for the ones they expect.
///
/// Every wait has a deadline: a monitor that misses an event fails the test instead of hanging it.
final class EventRecorder: Sendable {
    /// How long a wait for an event may take before the test fails: the whole test run shares two
    /// threads, and a full run on a loaded machine was seen to hold this target's waits for over a
    /// minute. A wait that succeeds ends when its event comes.
    static let defaultTimeout: Duration = .seconds(120)

    private final class Log: Sendable {
        let events = Mutex<[FileEvent]>([])
        let isFinished = Mutex(false)
    }

    private let log = Log()
    private let task: Task<Void, Never>

    /// Starts reading `stream` (a monitor's ``InotifyMonitor/events``).
    init(_ stream: AsyncStream<FileEvent>) {
        task = Task { [log] in
            for await event in stream { log.events.withLock { $0.append(event) } }
            log.isFinished.withLock { $0 = true }
        }
    }

    deinit { task.cancel() }

    /// The events so far.
    var events: [FileEvent] { log.events.withLock { $0 } }

    /// Whether the stream has finished.
    var isFinished: Bool { log.isFinished.withLock { $0 } }

    /// Waits until `condition` holds for the events so far, or `timeout` passes; returns whether it held.
    func waitUntil(timeout: Duration = EventRecorder.defaultTimeout, _ condition: @escaping ([FileEvent]) -> Bool) async
        -> Bool
    {
        await eventually(timeout: timeout) { self.log.events.withLock { condition($0) } }
    }

    /// Waits for an event.
    func waitFor(_ event: FileEvent, timeout: Duration = EventRecorder.defaultTimeout) async -> Bool {
        await waitUntil(timeout: timeout) { $0.contains(event) }
    }

    /// Waits until no event has come for `quiet` (the monitor's buffer drained), or `timeout` passes.
    /// (A quiet span is the absence of an event: only time can show it, so this sleeps.)
    func waitUntilQuiet(for quiet: Duration = .milliseconds(300), timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var count = log.events.withLock { $0.count }
        var since = ContinuousClock.now
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            let now = log.events.withLock { $0.count }
            if now != count {
                count = now
                since = ContinuousClock.now
            } else if ContinuousClock.now - since >= quiet {
                return true
            }
        }
        return false
    }

    /// Waits for the stream to finish.
    func waitUntilFinished(timeout: Duration = EventRecorder.defaultTimeout) async -> Bool {
        await eventually(timeout: timeout) { self.isFinished }
    }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes; returns whether it held.
/// (This target's one polling wait: it does not link PhotosTestSupport, whose `waitUntil` does the same.)
func eventually(timeout: Duration = EventRecorder.defaultTimeout, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

extension Array where Element == FileEvent {
    /// The kinds of the events for `path`, in order.
    func kinds(at path: String) -> [FileEventKind] { filter { $0.path == path }.map(\.kind) }
}
