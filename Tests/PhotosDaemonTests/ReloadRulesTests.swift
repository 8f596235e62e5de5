import PhotosDaemon
import Testing

/// The rules a reload follows for roots, as tables.
struct ReloadRulesTests {
    @Test(arguments: [
        (before: ["/p"], after: ["/p", "/q"], added: ["/q"], removed: [String]()),
        (before: ["/p", "/q"], after: ["/q/"], added: [], removed: ["/p"]),
        (before: ["/p"], after: ["/p/./in", "/p"], added: ["/p/in"], removed: []),
        (before: ["/p", "/q"], after: ["/q", "/p"], added: [], removed: []),
        (before: ["/p"], after: ["/r", "/r"], added: ["/r"], removed: ["/p"]),
    ])
    func replacingRootsSaysWhatWasAddedAndRemoved(
        row: (before: [String], after: [String], added: [String], removed: [String])
    ) {
        let roots = WatchedRoots(row.before)
        let (added, removed) = roots.replace(with: row.after)
        #expect(added == row.added && removed == row.removed)
        #expect(
            Set(roots.paths)
                == Set(
                    row.after.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
                        .map { $0.replacingOccurrences(of: "/./", with: "/") }))
    }

    @Test func aRemovedRootNoLongerHoldsItsPaths() {
        let roots = WatchedRoots(["/p", "/p/in"])
        #expect(roots.root(of: "/p/in/a.jpg") == "/p/in")
        roots.replace(with: ["/p"])
        #expect(roots.root(of: "/p/in/a.jpg") == "/p")
        roots.replace(with: ["/q"])
        #expect(roots.root(of: "/p/in/a.jpg") == nil)
    }

    @Test func pendingWorkOnARemovedRootIsDropped() {
        let work = ScanWork(
            roots: ["/p", "/q"], files: ["/q": ["/q/d/c.jpg"], "/r": ["/r/a.jpg"], "/s": ["/s/b.jpg"]],
            reasons: ["startup"])
        let kept = work.without(roots: ["/q", "/r"])
        #expect(kept == ScanWork(roots: ["/p"], files: ["/s": ["/s/b.jpg"]], reasons: ["startup"]))
    }
}
