import PhotosDaemon
import PhotosIngest
import PhotosWatcher
import Testing

/// The settler's rules as a table: events at given times in, the work due at a given time out.
@Suite struct EventSettlerTests {
    /// One row: events at milliseconds after a start, then what is due at `at` milliseconds.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var events: [(Int, FileEvent)]
        var at: Int
        var due: ScanWork?
        var notices: [EventSettler.Notice] = []
        /// The settle period in milliseconds.
        var settle = 200
        var testDescription: String { name }
    }

    static let root = "/p"
    static func file(_ path: String, _ kind: FileEventKind) -> FileEvent { FileEvent(path: root + path, kind: kind) }
    static func directory(_ path: String, _ kind: FileEventKind) -> FileEvent {
        FileEvent(path: root + path, kind: kind, isDirectory: true)
    }
    /// The work due: roots to rescan whole, and the files to look at by root.
    static func changes(roots: Set<String> = [], _ files: [String: Set<String>] = [:]) -> ScanWork {
        ScanWork(roots: roots, files: files, reasons: ["changes"])
    }

    static let rows: [Row] = [
        Row(
            name: "a written file is due after the settle period",
            events: [
                (0, file("/a.jpg", .created)), (1, file("/a.jpg", .closedWrite)),
            ], at: 201, due: changes(["/p": ["/p/a.jpg"]])),
        Row(
            name: "not before", events: [(0, file("/a.jpg", .created)), (1, file("/a.jpg", .closedWrite))], at: 200,
            due: nil),
        Row(
            name: "a file created and not yet closed waits the write grace (100 ms)",
            events: [
                (0, file("/a.jpg", .created)), (1, file("/a.jpg", .modified)),
            ], at: 100, due: nil, settle: 0),
        Row(
            name: "closed, it is due at once with settle 0",
            events: [
                (0, file("/a.jpg", .created)), (1, file("/a.jpg", .modified)), (2, file("/a.jpg", .closedWrite)),
            ], at: 2, due: changes(["/p": ["/p/a.jpg"]]), settle: 0),
        Row(
            name: "never closed (a hard link), after the grace", events: [(0, file("/a.jpg", .created))], at: 100,
            due: changes(["/p": ["/p/a.jpg"]]), settle: 0),
        Row(
            name: "each event restarts the quiet period",
            events: [
                (0, file("/a.jpg", .closedWrite)), (150, file("/b/c.jpg", .closedWrite)),
            ], at: 349, due: nil),
        Row(
            name: "both files once quiet",
            events: [
                (0, file("/a.jpg", .closedWrite)), (150, file("/b/c.jpg", .closedWrite)),
            ], at: 350, due: changes(["/p": ["/p/a.jpg", "/p/b/c.jpg"]])),
        Row(
            name: "created then deleted cancels: no scan at all",
            events: [
                (0, file("/a.jpg", .created)), (1, file("/a.jpg", .closedWrite)), (2, file("/a.jpg", .deleted)),
            ], at: 1000, due: nil),
        Row(
            name: "an atomic save is an update of its file",
            events: [
                (0, file("/a.jpg", .deleted)), (1, file("/a.jpg", .created)), (2, file("/a.jpg", .closedWrite)),
            ], at: 500, due: changes(["/p": ["/p/a.jpg"]])),
        Row(
            name: "a temporary name costs nothing until renamed",
            events: [
                (0, file("/.a.jpg.tmp", .created)), (1, file("/.a.jpg.tmp", .closedWrite)),
            ], at: 1000, due: nil),
        Row(
            name: "the rename that names it is due",
            events: [
                (0, file("/.a.jpg.tmp", .created)), (1, file("/.a.jpg.tmp", .closedWrite)),
                (2, file("/.a.jpg.tmp", .movedFrom(cookie: 7))), (2, file("/x/a.jpg", .movedTo(cookie: 7))),
            ], at: 500, due: changes(["/p": ["/p/.a.jpg.tmp", "/p/x/a.jpg"]])),
        Row(
            name: "a move between directories names both ends",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1))), (0, file("/b/x.jpg", .movedTo(cookie: 1))),
            ], at: 200, due: changes(["/p": ["/p/a/x.jpg", "/p/b/x.jpg"]])),
        Row(
            name: "a move there and back is no change",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1))), (0, file("/b/x.jpg", .movedTo(cookie: 1))),
                (1, file("/b/x.jpg", .movedFrom(cookie: 2))), (1, file("/a/x.jpg", .movedTo(cookie: 2))),
            ], at: 500, due: nil),
        Row(
            name: "a move's departure waits the write grace for its arrival",
            events: [(0, file("/a/x.jpg", .movedFrom(cookie: 1)))], at: 99, due: nil, settle: 0),
        Row(
            name: "which makes it due at once with settle 0",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1))), (1, file("/b/x.jpg", .movedTo(cookie: 1))),
            ], at: 1, due: changes(["/p": ["/p/a/x.jpg", "/p/b/x.jpg"]]), settle: 0),
        Row(
            name: "a move out of the roots is a deletion at its source",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1)))
            ], at: 200, due: changes(["/p": ["/p/a/x.jpg"]])),
        Row(
            name: "a file put where one left the roots is looked at (a deletion to the Trash, then a copy)",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1))), (1, file("/a/x.jpg", .created)),
                (2, file("/a/x.jpg", .closedWrite)),
            ], at: 500, due: changes(["/p": ["/p/a/x.jpg"]])),
        Row(
            name: "and a file restored from the Trash at once (moved out, then moved back in)",
            events: [
                (0, file("/a/x.jpg", .movedFrom(cookie: 1))), (1, file("/a/x.jpg", .movedTo(cookie: 2))),
            ], at: 500, due: changes(["/p": ["/p/a/x.jpg"]])),
        Row(
            name: "a move in from outside is a creation", events: [(0, file("/a/x.jpg", .movedTo(cookie: 9)))], at: 200,
            due: changes(["/p": ["/p/a/x.jpg"]])),
        Row(
            name: "a directory event rescans its root whole",
            events: [
                (0, directory("/2024", .created)), (1, file("/2024/a.jpg", .closedWrite)),
            ], at: 201, due: changes(roots: ["/p"])),
        Row(
            name: "an overflow rescans the root and is noticed", events: [(0, FileEvent(path: "/p", kind: .overflow))],
            at: 200, due: changes(roots: ["/p"]), notices: [.overflow(root: "/p")]),
        Row(
            name: "the root unmounted is offline and rescanned",
            events: [
                (0, FileEvent(path: "/p", kind: .rootUnmounted))
            ], at: 200, due: changes(roots: ["/p"]), notices: [.offline(root: "/p", reason: "unmounted or removed")]),
        Row(
            name: "a mount inside the root going away rescans quietly",
            events: [
                (0, directory("/mnt", .watchRemoved))
            ], at: 200, due: changes(roots: ["/p"])),
        Row(
            name: "a directory beyond the watch budget polls the root, scans nothing now",
            events: [
                (0, directory("/deep", .budgetExhausted))
            ], at: 1000, due: nil, notices: [.polling(root: "/p", reason: "/p/deep is beyond the inotify watch budget")]
        ),
        Row(
            name: "events outside the roots are ignored",
            events: [(0, FileEvent(path: "/q/a.jpg", kind: .closedWrite))],
            at: 1000, due: nil),
        Row(
            name: "the innermost root holds a path", events: [(0, FileEvent(path: "/p/in/a.jpg", kind: .closedWrite))],
            at: 200, due: changes(["/p/in": ["/p/in/a.jpg"]])),
    ]

    @Test(arguments: rows)
    func settles(_ row: Row) {
        var settler = EventSettler(
            roots: WatchedRoots(["/p", "/p/in/"]), rules: IgnoreRules(), settle: .milliseconds(row.settle))
        let start = ContinuousClock.now
        var notices: [EventSettler.Notice] = []
        for (offset, event) in row.events {
            if let notice = settler.record(event, at: start + .milliseconds(offset)) { notices.append(notice) }
        }
        #expect(notices == row.notices)
        #expect(settler.take(at: start + .milliseconds(row.at)) == row.due)
    }

    @Test func takingEmptiesTheQueue() {
        var settler = EventSettler(roots: WatchedRoots(["/p"]), rules: IgnoreRules(), settle: .zero)
        let now = ContinuousClock.now
        settler.record(FileEvent(path: "/p/a.jpg", kind: .created), at: now)
        settler.record(FileEvent(path: "/p/a.jpg", kind: .closedWrite), at: now)
        settler.record(FileEvent(path: "/p/b.jpg", kind: .movedFrom(cookie: 3)), at: now)
        #expect(settler.queueDepth == 2)
        #expect(settler.dueAt == now + settler.writeGrace, "settle 0: due once the move's arrival cannot come")
        #expect(settler.isAwaitingEvents)
        let due = now + settler.writeGrace
        #expect(settler.take(at: due) == Self.changes(["/p": ["/p/a.jpg", "/p/b.jpg"]]))
        #expect(settler.queueDepth == 0 && settler.dueAt == nil && !settler.hasPending)
        #expect(settler.take(at: due + .seconds(1)) == nil)
    }

    @Test func stillChangingFilesAreLookedAtAgainOnceQuiet() {
        var settler = EventSettler(roots: WatchedRoots(["/p"]), rules: IgnoreRules(), settle: .milliseconds(50))
        let now = ContinuousClock.now
        settler.recheck(roots: ["/p"], at: now)
        #expect(settler.take(at: now + .milliseconds(49)) == nil)
        #expect(settler.take(at: now + .milliseconds(50)) == Self.changes(roots: ["/p"]))
    }
}

/// Work merges in the queue between the settler and the scan runner, so nothing is lost.
@Suite struct ScanQueueTests {
    @Test func submittedWorkMergesUntilTaken() async {
        let queue = ScanQueue()
        queue.submit(ScanWork(files: ["/p": ["/p/a.jpg"]], reasons: ["changes"]))
        queue.submit(ScanWork(files: ["/p": ["/p/b.jpg"], "/q": ["/q/c.jpg"]], reasons: ["changes"]))
        queue.submit(ScanWork(roots: ["/q"], reasons: ["poll"]))
        queue.submit(ScanWork())
        let work = queue.take()
        #expect(
            work
                == ScanWork(
                    roots: ["/q"], files: ["/p": ["/p/a.jpg", "/p/b.jpg"], "/q": ["/q/c.jpg"]],
                    reasons: ["changes", "poll"]))
        #expect(work?.partialFiles == ["/p": ["/p/a.jpg", "/p/b.jpg"]])
        #expect(work?.wholeRoots == ScanWork(roots: ["/p", "/q"], reasons: ["retry"]))
        #expect(queue.take() == nil)
        var wakes = queue.wakes.makeAsyncIterator()
        #expect(await wakes.next() != nil, "submitted work woke the runner (the wakes fold into one)")
        queue.finish()
        #expect(await wakes.next() == nil)
    }

    @Test func filesAreLookedAtAloneUnlessTheirRootIsRescanned() {
        var work = ScanWork(files: ["/p": ["/p/a/1.jpg", "/p/b/2.jpg"], "/q": ["/q/3.jpg"]], reasons: ["changes"])
        work.merge(ScanWork(files: ["/p": ["/p/a/4.jpg"]], reasons: ["changes"]))
        #expect(work.partialFiles == ["/p": ["/p/a/1.jpg", "/p/a/4.jpg", "/p/b/2.jpg"], "/q": ["/q/3.jpg"]])
        work.merge(ScanWork(roots: ["/q"], reasons: ["poll"]))
        #expect(work.partialFiles == ["/p": ["/p/a/1.jpg", "/p/a/4.jpg", "/p/b/2.jpg"]], "/q is rescanned whole")
        #expect(work.wholeRoots == ScanWork(roots: ["/p", "/q"], reasons: ["retry"]))
        #expect(!ScanWork(files: ["/p": []]).isEmpty == false, "an empty set of files is no work")
    }
}
