import Foundation
import PhotosLinux
import Synchronization

/// Runs image requests first come, first served, on at most `width` threads at once: decoding
/// is CPU-bound, and a grid asking for a thousand thumbnails must not start a thousand decodes.
/// No thread waits for a slot; a slot that frees up takes the next job.
///
/// The threads are the queue's own (`photos-images`), started when a slot opens and ended when the
/// queue runs dry, never the global dispatch queue's: on Linux those are the threads Swift
/// concurrency runs on, one per core, so a program that waits for an image by blocking such a thread
/// (a semaphore after `requestImage`, as PhotoKit code often does) would wait for a decode that has
/// no thread left to run on.
final class ImageWorkQueue: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var next = 0
        var running = 0
        var suspended = false
    }

    private let state = Mutex(State())
    private let width: Int

    init(width: Int = max(ProcessInfo.processInfo.activeProcessorCount, 1)) {
        self.width = width
    }

    /// Queues `job`.
    func async(_ job: @escaping Job) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.suspended, state.running < width else { return false }
            state.running += 1
            return true
        }
        if start { startDraining() }
    }

    /// Holds queued jobs until ``resume()`` (for tests of what happens before a job runs).
    func suspend() {
        state.withLock { $0.suspended = true }
    }

    /// Lets held jobs run.
    func resume() {
        let starts = state.withLock { state -> Int in
            state.suspended = false
            let starts = min(width - state.running, state.jobs.count - state.next)
            state.running += max(starts, 0)
            return max(starts, 0)
        }
        for _ in 0..<starts { startDraining() }
    }

    /// A thread of the queue's own that runs jobs until there are none: a `SystemThread`, which lets
    /// go of the jobs' captures before the thread ends (Foundation's `Thread` keeps them until after
    /// libdispatch has torn the thread's state down; see `SystemThread`).
    private func startDraining() {
        do {
            try SystemThread(name: "photos-images") { self.drain() }.detach()
        } catch {
            // No thread to be had (the kernel's limit): the jobs run here.
            drain()
        }
    }

    private func drain() {
        while let job = takeJob() { job() }
    }

    private func takeJob() -> Job? {
        state.withLock { state -> Job? in
            guard !state.suspended, state.next < state.jobs.count else {
                state.running -= 1
                return nil
            }
            let job = state.jobs[state.next]
            state.next += 1
            if state.next > 64, state.next * 2 > state.jobs.count {
                state.jobs.removeFirst(state.next)
                state.next = 0
            }
            return job
        }
    }
}
