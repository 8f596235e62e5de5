import CPhotosLinux
import Glibc

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// Kills the process groups of the hooks running when photosd dies, however it dies: a `kill -9`,
/// a crash or the OOM killer leaves no hook (nor what it started in the background) running, so
/// the restarted photosd, which gives the unacknowledged batch again, never runs a second
/// instance of a hook beside the first.
///
/// photosd's own stop signals its hooks' groups itself (``HookProcess/stop(group:)``); a process
/// killed with SIGKILL can do nothing, so the killing is done by another process: the reaper,
/// forked from photosd the first time a hook runs (`cphotos_start_group_reaper`). photosd tells
/// it each hook's process group as the run starts and again as it ends (``watch(_:)``,
/// ``forget(_:)``); the reaper waits on a socket whose only other end photosd holds, so the
/// kernel closes that end when photosd is gone and the reaper then sends SIGKILL to the groups
/// it holds, and exits.
///
/// Why not the other ways:
/// - `PR_SET_PDEATHSIG` in the hook fires when the *thread* that forked it exits (one of Swift's
///   pool threads, which come and go), is cleared in what the hook forks (`sleep 300 &` would
///   stay), and Subprocess offers no step between fork and exec to set it.
/// - Killing a group recorded in the library when photosd starts again leaves the hooks running
///   until then (hours, if photosd is not restarted), and a recorded group id may name another
///   program's group by then.
///
/// The reaper is in a session of its own, so a signal to photosd's process group (a shell job
/// killed with `kill -9 %1`) does not end it with photosd; it ignores the terminal's and the usual
/// stop signals and leaves by itself when photosd does. It shows in `ps` with photosd's command
/// line and the name `hook-reaper` (`/proc/PID/comm`). A hook is watched as soon as its run's body
/// starts: one killed in the milliseconds between its start and that moment is not (Subprocess has
/// no step between fork and exec where it could be done earlier).
///
/// ```swift
/// HookGroupReaper.watch(group)   // the hook's process group, just started
/// // ... the run ...
/// kill(-group, SIGKILL)
/// HookGroupReaper.forget(group)
/// ```
enum HookGroupReaper {
    /// The reaper's socket, or why it could not be started.
    private static let channel: Result<Int32, Errno> = {
        let descriptor = cphotos_start_group_reaper(nil)
        return descriptor >= 0 ? .success(descriptor) : .failure(Errno(rawValue: errno))
    }()

    /// Asks the reaper to SIGKILL the process group `group` if photosd dies before ``forget(_:)``;
    /// nil, or why the group is not watched (the reaper could not be started, or is gone).
    static func watch(_ group: pid_t) -> Errno? { tell(group) }

    /// The group `group` has been dealt with (killed): the reaper lets it be.
    static func forget(_ group: pid_t) { _ = tell(-group) }

    private static func tell(_ record: pid_t) -> Errno? {
        switch channel {
        case .failure(let error): return error
        case .success(let descriptor):
            let code = cphotos_tell_group_reaper(descriptor, record)
            return code == 0 ? nil : Errno(rawValue: code)
        }
    }
}
