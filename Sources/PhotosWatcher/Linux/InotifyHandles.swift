import PhotosLinux

/// The two descriptors a monitor lives on: the inotify instance and the `eventfd` that wakes its
/// reader thread. This type alone owns them and closes each once, when the last of the monitor and
/// its reader thread lets go, so the thread can never poll a closed or reused descriptor.
final class InotifyHandles: Sendable {
    private let inotifyDescriptor: FileDescriptor
    private let wakeUpDescriptor: FileDescriptor

    /// The inotify instance (`inotify_init1`).
    var inotify: Int32 { inotifyDescriptor.rawValue }
    /// The wake-up counter (`eventfd`).
    var wakeUp: Int32 { wakeUpDescriptor.rawValue }

    /// Opens both descriptors; nothing is left open when either fails.
    init() throws(WatchError) {
        let inotify = FileDescriptor(try Inotify.initialize())
        do {
            wakeUpDescriptor = FileDescriptor(try EventCounter.create())
        } catch {
            throw WatchError(code: .systemCallFailed, message: "cannot create the wake-up eventfd", cause: error)
        }
        inotifyDescriptor = inotify
    }
}
