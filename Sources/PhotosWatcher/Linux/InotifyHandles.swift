/// The two descriptors a monitor lives on: the inotify instance and the `eventfd` that wakes its
/// reader thread. This type alone owns them and closes each once, when the last of the monitor and
/// its reader thread lets go, so the thread can never poll a closed or reused descriptor.
final class InotifyHandles: Sendable {
    /// The inotify instance (`inotify_init1`).
    let inotify: Int32
    /// The wake-up counter (`eventfd`).
    let wakeUp: Int32

    /// Opens both descriptors; nothing is left open when either fails.
    init() throws(WatchError) {
        let inotify = try Inotify.initialize()
        do {
            wakeUp = try Syscall.eventFD()
        } catch {
            Syscall.close(inotify)
            throw error
        }
        self.inotify = inotify
    }

    deinit {
        Syscall.close(inotify)
        Syscall.close(wakeUp)
    }
}
