import Foundation
import Glibc
import PhotosCore
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosLinux

/// The home trash, in a data home of each test's own: trashing, listing, restoring, erasing, and
/// operations stopped halfway as a killed process would stop.
@Suite struct TrashTests {
    @Test func aTrashedPhotoIsInFilesWithItsInformationWrittenFirst() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("Café Paris/IMG 0001.JPG", "jpeg bytes")
        let before = try #require(identity(path))
        var trash = fixture.trash
        let now = Date(timeIntervalSince1970: 1_764_345_909)
        trash.now = { now }
        // At the stop point the information is on disk and the photo not yet moved.
        let infoAtStop = Recorded<String>()
        let photoAtStop = Recorded<Bool>()
        let steps = Recorded<[Trash.Step]>()
        trash.stopHook = { step in
            steps.set((steps.value ?? []) + [step])
            guard step == .infoWritten else { return }
            infoAtStop.set(contents(fixture.homeTrash + "/info/IMG 0001.JPG.trashinfo") ?? "")
            photoAtStop.set(identity(path) != nil)
        }

        let entry = try trash.trash(path)

        #expect(entry.directory.path == fixture.homeTrash)
        #expect(entry.directory.kind == .home)
        #expect(entry.name == "IMG 0001.JPG")
        #expect(entry.originalPath == path)
        #expect(entry.deletionDate == expectedDeletionDate(now))
        #expect(entry.file?.device == before.device)
        #expect(entry.file?.inode == before.inode)
        #expect(identity(path) == nil)
        #expect(contents(fixture.homeTrash + "/files/IMG 0001.JPG") == "jpeg bytes")
        let info = try #require(contents(fixture.homeTrash + "/info/IMG 0001.JPG.trashinfo"))
        let lines = info.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "[Trash Info]", "Path=\(fixture.photos)/Caf%C3%A9%20Paris/IMG%200001.JPG",
                "DeletionDate=\(expectedDeletionDate(now))",
            ])
        #expect(lines.contains("X-Photosd-Process=\(getpid())"))
        #expect(steps.value == [.infoWritten, .moved])
        #expect(infoAtStop.value == info)
        #expect(photoAtStop.value == true)
        for made in [fixture.homeTrash, fixture.homeTrash + "/files", fixture.homeTrash + "/info"] {
            #expect(modeAndOwner(made)?.mode == 0o700, "\(made)")
        }
    }

    @Test func aTakenNameGetsASuffixAndNothingIsReplaced() throws {
        let fixture = try TrashFixture()
        let first = try fixture.write("2023/IMG_1.JPG", "first")
        let second = try fixture.write("2024/IMG_1.JPG", "second")
        // Another tool's file left in files/ without its information keeps its name too.
        let stray = try fixture.write("files/IMG_1.JPG_1", "stray", under: fixture.homeTrash)

        let one = try fixture.trash.trash(first)
        let two = try fixture.trash.trash(second)

        #expect(one.name == "IMG_1.JPG")
        #expect(two.name == "IMG_1.JPG_2")
        #expect(contents(one.filePath) == "first")
        #expect(contents(two.filePath) == "second")
        #expect(contents(stray) == "stray")
        #expect(identity(fixture.homeTrash + "/info/IMG_1.JPG_1.trashinfo") == nil)
        let listing = try fixture.trash.listing(of: one.directory)
        #expect(listing.entries.map(\.originalPath) == [first, second])
        #expect(listing.unlisted == ["IMG_1.JPG_1"])
    }

    @Test func aBatchTrashesEachFileOnceUnderItsOwnNameAndAFailureStaysWithItsPath() throws {
        let fixture = try TrashFixture()
        let first = try fixture.write("2023/IMG_1.JPG", "first")
        let second = try fixture.write("2024/IMG_1.JPG", "second")
        let third = try fixture.write("2024/IMG_2.JPG", "third")
        let missing = fixture.photos + "/2024/gone.JPG"
        let stray = try fixture.write("files/IMG_1.JPG_1", "stray", under: fixture.homeTrash)

        let results = try fixture.trash.trash([first, second, missing, third])

        #expect(results.count == 4)
        #expect((try? results[0].get())?.name == "IMG_1.JPG")
        #expect((try? results[1].get())?.name == "IMG_1.JPG_2")
        #expect((try? results[3].get())?.name == "IMG_2.JPG")
        #expect {
            try results[2].get()
        } throws: { error in
            let error = error as? TrashError
            return error?.code == .notFound && error?.message.contains(missing) == true
        }
        let files = fixture.homeTrash + "/files/"
        #expect(contents(files + "IMG_1.JPG") == "first")
        #expect(contents(files + "IMG_1.JPG_2") == "second")
        #expect(contents(files + "IMG_2.JPG") == "third")
        #expect(contents(stray) == "stray")
        #expect([first, second, third].allSatisfy { identity($0) == nil })
        let listing = try fixture.trash.listing(of: try #require(try? results[0].get()).directory)
        #expect(listing.entries.map(\.originalPath) == [first, second, third])
        #expect(listing.orphans.isEmpty && listing.unlisted == ["IMG_1.JPG_1"])
    }

    /// Where a batch of three files is stopped: while its `.trashinfo` files are written, after the
    /// last of them (before any move), after the first move, after the last move.
    static let batchStops: [(Trash.Step, Int)] = [(.infoWritten, 2), (.infoWritten, 3), (.moved, 1), (.moved, 3)]

    @Test(arguments: 0..<batchStops.count)
    func aBatchStoppedHalfwayLosesNothingAndRepairCleansUp(stop: Int) throws {
        let (step, time) = Self.batchStops[stop]
        let fixture = try TrashFixture()
        let names = ["IMG_1.JPG", "IMG_2.JPG", "IMG_3.JPG"]
        let paths = try names.map { try fixture.write("2024/" + $0, $0) }
        let directory = try fixture.trash.directory(for: paths[0])
        var trash = fixture.trash
        let seen = Recorded<Int>()
        trash.stopHook = { reached in
            guard reached == step else { return }
            seen.set((seen.value ?? 0) + 1)
            if seen.value == time { throw SimulatedCrash(step: reached) }
        }

        #expect(throws: SimulatedCrash(step: step)) { try trash.trash(paths) }

        // Every file is at its path or in files/ with its information, once.
        let moved = names.filter { identity(directory.filePath(of: $0)) != nil }
        #expect(moved.count == (step == .moved ? time : 0), "\(step) \(time)")
        for (name, path) in zip(names, paths) {
            let inTrash = moved.contains(name)
            #expect((identity(path) != nil) != inTrash, "\(name) in one place")
            if inTrash { #expect(identity(directory.infoPath(of: name)) != nil, "\(name) has its information") }
        }

        let written = names.filter { identity(directory.infoPath(of: $0)) != nil }
        #expect(written.count == (step == .infoWritten ? time : names.count))
        // Repair takes the information of the files that did not move, and only those.
        let repaired = try fixture.trash.repair(directory)
        #expect(Set(repaired.map(\.name)) == Set(written).subtracting(moved))
        let listing = try fixture.trash.listing(of: directory)
        #expect(listing.entries.map(\.name) == moved && listing.orphans.isEmpty)

        // The rest goes to the Trash under its own names, nothing twice.
        let rest = zip(names, paths).filter { !moved.contains($0.0) }.map(\.1)
        #expect(try fixture.trash.trash(rest).allSatisfy { (try? $0.get()) != nil })
        #expect(try fixture.trash.listing(of: directory).entries.map(\.name) == names)
        #expect(names.allSatisfy { contents(directory.filePath(of: $0)) == $0 })
    }

    @Test func aDirectoryGoesWholeAndItsSizeIsCachedAsDuCountsIt() async throws {
        let fixture = try TrashFixture()
        try fixture.write("Holiday/IMG_1.JPG", String(repeating: "x", count: 10_000))
        try fixture.write("Holiday/raw/IMG_1.CR2", String(repeating: "y", count: 70_000))
        let holiday = fixture.photos + "/Holiday"

        let entry = try fixture.trash.trash(holiday)

        #expect(contents(entry.filePath + "/raw/IMG_1.CR2")?.count == 70_000)
        let du = try await offPool { () throws -> String in
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/du")
            process.arguments = ["-B1", "-s", entry.filePath]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let size = try #require(du.split(separator: "\t").first.map(String.init))
        var info = stat()
        #expect(stat(entry.infoPath, &info) == 0)
        #expect(contents(fixture.homeTrash + "/directorysizes") == "\(size) \(info.st_mtim.tv_sec) Holiday\n")

        try fixture.trash.restore(entry)
        #expect(contents(holiday + "/IMG_1.JPG")?.count == 10_000)
        #expect(contents(fixture.homeTrash + "/directorysizes") == "")
    }

    @Test func restoringPutsTheSameFileBackAndRemovesItsInformation() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("Album/IMG_1.JPG", "photo")
        let before = try #require(identity(path))
        let entry = try fixture.trash.trash(path)
        // Its folder went too: the restore makes it again.
        try FileManager.default.removeItem(atPath: fixture.photos + "/Album")

        let restored = try fixture.trash.restore(entry)

        #expect(restored == path)
        #expect(identity(path)?.inode == before.inode)
        #expect(contents(path) == "photo")
        #expect(identity(entry.infoPath) == nil)
        #expect(try fixture.trash.listing(of: entry.directory).entries.isEmpty)
    }

    @Test func restoringOntoATakenPathIsRefusedNamingItAndReplacesNothing() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "trashed")
        let entry = try fixture.trash.trash(path)
        try fixture.write("IMG_1.JPG", "new photo")

        #expect {
            try fixture.trash.restore(entry)
        } throws: { error in
            let error = error as? TrashError
            return error?.code == .destinationTaken && error?.path == path && error?.message.contains(path) == true
        }
        #expect(contents(path) == "new photo")
        #expect(contents(entry.filePath) == "trashed")
        #expect(identity(entry.infoPath) != nil)
        // Elsewhere, it can be.
        let elsewhere = fixture.photos + "/IMG_1 (restored).JPG"
        #expect(try fixture.trash.restore(entry, to: elsewhere) == elsewhere)
        #expect(contents(elsewhere) == "trashed")
    }

    @Test func erasingRemovesTheTreeWithoutFollowingLinksThenItsInformation() throws {
        let fixture = try TrashFixture()
        let outside = try fixture.write("keep/outside.jpg", "not in the trash")
        try fixture.write("Album/IMG_1.JPG", "a")
        try fixture.write("Album/deep/er/IMG_2.JPG", "b")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.photos + "/Album/link", withDestinationPath: fixture.photos + "/keep")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.photos + "/Album/deep/file-link", withDestinationPath: outside)
        let entry = try fixture.trash.trash(fixture.photos + "/Album")
        #expect(contents(fixture.homeTrash + "/directorysizes")?.hasSuffix(" Album\n") == true)

        try fixture.trash.erase(entry)

        #expect(identity(entry.filePath) == nil)
        #expect(identity(entry.infoPath) == nil)
        #expect(contents(outside) == "not in the trash")
        #expect(contents(fixture.homeTrash + "/directorysizes") == "")
        #expect(try fixture.trash.listing(of: entry.directory).entries.isEmpty)
    }

    @Test func theListingReadsOtherToolsFilesAndReportsWhatItCannot() throws {
        let fixture = try TrashFixture()
        let info = fixture.homeTrash + "/info/"
        let files = fixture.homeTrash + "/files/"
        // GIO-style, with a comment, an extra key and carriage returns.
        try fixture.write(
            "a.jpg.trashinfo",
            "[Trash Info]\r\nPath=/srv/a%20b/a.jpg\r\nX-GNOME=1\r\nDeletionDate=2024-05-06T07:08:09\r\n",
            under: info)
        try fixture.write("a.jpg", "a", under: files)
        // An orphan: its file was removed by hand.
        try fixture.write("gone.jpg.trashinfo", "[Trash Info]\nPath=/srv/gone.jpg\n", under: info)
        // Not trash information.
        try fixture.write("bad.jpg.trashinfo", "Path=/srv/bad.jpg\n", under: info)
        try fixture.write("nopath.jpg.trashinfo", "[Trash Info]\nDeletionDate=2024-05-06T07:08:09\n", under: info)
        try fixture.write(".trashinfo", "[Trash Info]\nPath=/srv/all\n", under: info)
        try fixture.write("README", "not an entry", under: info)
        // A file without information.
        try fixture.write("lost.jpg", "lost", under: files)

        let trash = TrashDirectory(path: fixture.homeTrash, kind: .home, topDirectory: "/")
        let listing = try fixture.trash.listing(of: trash)

        #expect(listing.entries.map(\.name) == ["a.jpg", "gone.jpg"])
        #expect(listing.entries.map(\.originalPath) == ["/srv/a b/a.jpg", "/srv/gone.jpg"])
        #expect(listing.entries[0].deletionDate == "2024-05-06T07:08:09")
        #expect(listing.entries[0].file?.size == 1)
        #expect(listing.entries.map(\.isOwn) == [false, false])
        #expect(listing.orphans.map(\.name) == ["gone.jpg"])
        #expect(listing.unlisted == ["lost.jpg"])
        #expect(
            listing.unreadable.map(\.path) == [
                info + ".trashinfo", info + "bad.jpg.trashinfo", info + "nopath.jpg.trashinfo",
            ])
        #expect(listing.unreadable.allSatisfy { $0.message.contains($0.path ?? "?") })
        // Erasing the name-less entry cannot touch files/ as a whole.
        let bogus = TrashEntry(
            directory: trash, name: "", info: TrashInfo(path: "/srv/all", deletionDate: nil), file: nil)
        #expect(throws: TrashError.self) { try fixture.trash.erase(bogus) }
        #expect(contents(files + "a.jpg") == "a")
    }

    @Test func aTrashStoppedAfterItsInformationLosesNothingAndRepairCleansUp() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        let before = try #require(identity(path))
        var trash = fixture.trash
        trash.stopHook = { step in throw SimulatedCrash(step: step) }

        #expect(throws: SimulatedCrash(step: .infoWritten)) { try trash.trash(path) }

        // Stopped between the two steps: the photo is where it was, its information is in the trash.
        #expect(identity(path) == before)
        #expect(contents(path) == "photo")
        let directory = try fixture.trash.directory(for: path)
        let listing = try fixture.trash.listing(of: directory)
        #expect(listing.orphans.map(\.originalPath) == [path])

        let repaired = try fixture.trash.repair(directory)

        #expect(repaired.map(\.name) == ["IMG_1.JPG"])
        #expect(try fixture.trash.listing(of: directory).entries.isEmpty)
        #expect(identity(path) == before)
        // And it can be trashed again under its own name.
        #expect(try fixture.trash.trash(path).name == "IMG_1.JPG")
    }

    @Test func repairLeavesOperationsUnderWayAndOtherToolsEntriesAlone() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        var trash = fixture.trash
        let repairedMeanwhile = Recorded<[TrashEntry]>()
        // Another repair while this trashing is between its steps: it must not take its information.
        // At each step, the file at its path or already in files/.
        let directory = try fixture.trash.directory(for: path)
        trash.stopHook = { _ in
            repairedMeanwhile.set((repairedMeanwhile.value ?? []) + (try fixture.trash.repair(directory)))
        }
        let entry = try trash.trash(path)
        #expect(repairedMeanwhile.value == [])
        #expect(contents(entry.filePath) == "photo")
        #expect(identity(entry.infoPath) != nil)

        // trash-cli's (no X-Photosd-Process) and a running process's are not ours to clean.
        let other = try fixture.write("other.jpg", "other")
        try fixture.write("other.jpg.trashinfo", "[Trash Info]\nPath=\(other)\n", under: fixture.homeTrash + "/info")
        let running = try fixture.write("running.jpg", "running")
        try fixture.write(
            "running.jpg.trashinfo",
            "[Trash Info]\nPath=\(running)\nX-Photosd-Process=1\nX-Photosd-Boot=\(TrashFiles.bootID)\n",
            under: fixture.homeTrash + "/info")
        // One from an earlier boot is.
        let earlier = try fixture.write("earlier.jpg", "earlier")
        try fixture.write(
            "earlier.jpg.trashinfo",
            "[Trash Info]\nPath=\(earlier)\nX-Photosd-Process=1\nX-Photosd-Boot=another-boot\n",
            under: fixture.homeTrash + "/info")

        let repaired = try fixture.trash.repair(entry.directory)

        #expect(repaired.map(\.name) == ["earlier.jpg"])
        let names = try fixture.trash.listing(of: entry.directory).entries.map(\.name)
        #expect(names == ["IMG_1.JPG", "other.jpg", "running.jpg"])
        for (file, text) in [(other, "other"), (running, "running"), (earlier, "earlier")] {
            #expect(contents(file) == text)
        }
    }

    @Test func aRestoreStoppedBeforeItsInformationGoesIsFinishedByRepair() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        let entry = try fixture.trash.trash(path)
        var trash = fixture.trash
        trash.stopHook = { step in throw SimulatedCrash(step: step) }

        #expect(throws: SimulatedCrash(step: .restored)) { try trash.restore(entry) }

        #expect(contents(path) == "photo")
        #expect(identity(entry.infoPath) != nil)
        #expect(try fixture.trash.repair(entry.directory).map(\.name) == ["IMG_1.JPG"])
        #expect(identity(entry.infoPath) == nil)
        #expect(contents(path) == "photo")
    }

    @Test func aRestoreByPathStoppedAfterItsMoveIsFinishedAndLeavesAnotherToolsInformation() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        let entry = try fixture.trash.trash(path)
        var trash = fixture.trash
        trash.stopHook = { step in throw SimulatedCrash(step: step) }

        #expect(throws: SimulatedCrash(step: .restored)) { try trash.restore(file: entry.filePath, to: path) }
        #expect(contents(path) == "photo" && identity(entry.infoPath) != nil)
        try fixture.trash.finishRestore(of: entry.filePath)
        #expect(identity(entry.infoPath) == nil, "the library's own information goes")

        // Another tool's information for a new file of that name, its move not made yet, stays.
        let other = "[Trash Info]\nPath=/elsewhere/IMG_1.JPG\nDeletionDate=2026-12-02T10:00:00\n"
        try Data(other.utf8).write(to: URL(fileURLWithPath: entry.infoPath))
        try fixture.trash.finishRestore(of: entry.filePath)
        #expect(identity(entry.infoPath) != nil, "another tool's information is not the library's to remove")
    }

    @Test func anEraseStoppedHalfwayLeavesAnOrphanThatEraseFinishes() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        let entry = try fixture.trash.trash(path)
        var trash = fixture.trash
        trash.stopHook = { step in throw SimulatedCrash(step: step) }

        #expect(throws: SimulatedCrash(step: .fileErased)) { try trash.erase(entry) }

        let orphans = try fixture.trash.listing(of: entry.directory).orphans
        #expect(orphans.map(\.name) == ["IMG_1.JPG"])
        // The photo is not at its path: repair leaves the entry for the user to see.
        #expect(try fixture.trash.repair(entry.directory).isEmpty)
        try fixture.trash.erase(orphans[0])
        #expect(try fixture.trash.listing(of: entry.directory).entries.isEmpty)
    }

    @Test func aMoveThatFailsLeavesNoInformationAndNamesTheFile() throws {
        let fixture = try TrashFixture()
        let path = try fixture.write("IMG_1.JPG", "photo")
        var trash = fixture.trash
        // The file goes away between the information and the move.
        let moved = fixture.photos + "/elsewhere.JPG"
        trash.stopHook = { _ in _ = rename(path, moved) }

        #expect {
            try trash.trash(path)
        } throws: { error in
            let error = error as? TrashError
            return error?.code == .notFound && error?.message.contains(path) == true
        }
        let directory = try fixture.trash.directory(for: moved)
        #expect(try fixture.trash.listing(of: directory).entries.isEmpty)
        #expect(contents(moved) == "photo")
    }

    @Test func whatCannotBeTrashedIsRefusedByName() throws {
        let fixture = try TrashFixture()
        let inTrash = try fixture.write("files/x.jpg", "x", under: fixture.homeTrash)
        let cases: [(String, TrashError.Code)] = [
            (fixture.photos + "/missing.jpg", .notFound),
            (fixture.photos + "/no/such/folder/x.jpg", .notFound),
            ("/", .notTrashable),
            (fixture.photos + "/..", .notTrashable),
            (inTrash, .notTrashable),
            (fixture.homeTrash, .notTrashable),
            ("/proc", .notTrashable),  // A mount point.
        ]
        for (path, code) in cases {
            #expect(throws: TrashError.self, "\(path)") {
                do {
                    _ = try fixture.trash.trash(path)
                } catch let error as TrashError {
                    #expect(error.code == code, "\(path): \(error)")
                    throw error
                }
            }
        }
        #expect(contents(inTrash) == "x")
    }

    @Test func manyFilesAtOnceAreCheckedEachAsOneAloneThoughEachFolderIsLookedUpOnce() throws {
        let fixture = try TrashFixture()
        let first = try fixture.write("2024/IMG_1.JPG", "first")
        let second = try fixture.write("2024/IMG_2.JPG", "second")
        let third = try fixture.write("2024/IMG_3.JPG", "third")
        let inTrash = try fixture.write("files/x.jpg", "x", under: fixture.homeTrash)
        let linked = fixture.photos + "/linked"
        #expect(symlink(fixture.photos + "/2024", linked) == 0)
        // The folder seen twice, once through a link, and files the checks refuse after it was seen.
        let paths = [
            first, fixture.photos + "/2024/missing.jpg", inTrash, fixture.homeTrash, linked + "/IMG_3.JPG", second,
            "/proc",
        ]
        let codes: [TrashError.Code?] = [nil, .notFound, .notTrashable, .notTrashable, nil, nil, .notTrashable]

        func code(_ result: Result<some Any, any Error>) -> TrashError.Code? {
            guard case .failure(let error) = result else { return nil }
            return (error as? TrashError)?.code ?? .systemCallFailed
        }
        let alone = paths.map { path in Result { try fixture.trash.directory(for: path) } }
        let together = fixture.trash.directories(for: paths)
        #expect(alone.map(code) == codes)
        #expect(together.map(code) == codes)
        #expect(together.map { try? $0.get() } == alone.map { try? $0.get() })

        let results = try fixture.trash.trash(paths)
        #expect(results.map(code) == codes)
        // Path= holds the folder's real path, whichever way it was named.
        #expect((try? results[4].get())?.info.path == third)
        #expect([first, second, third].allSatisfy { identity($0) == nil })
        #expect(contents(inTrash) == "x")
    }

    @Test func manyFilesAtOnceReadTheMountTableOnce() throws {
        let fixture = try TrashFixture()
        let paths = try (0..<20).map { try fixture.write("2024/IMG_\($0).JPG", "\($0)") }
        let reads = Mutex(0)
        var trash = fixture.trash
        trash.mounts = {
            reads.withLock { $0 += 1 }
            return MountTable.current()
        }
        #expect(trash.directories(for: paths).allSatisfy { (try? $0.get()) != nil })
        #expect(reads.withLock { $0 } == 1)
        #expect(try trash.trash(paths).allSatisfy { (try? $0.get()) != nil })
        #expect(reads.withLock { $0 } == 2, "one read for the plan, one for the moves")
    }

    @Test func aNameThatIsNotUTF8GoesAndComesBackByteForByte() throws {
        let fixture = try TrashFixture()
        let name = PathBytes.string([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])  // "caf\xE9.jpg"
        let path = fixture.photos + "/" + name
        let fd = try FileOperations.createExclusively(path)
        close(fd)

        let entry = try fixture.trash.trash(path)

        #expect(contents(entry.infoPath)?.contains("Path=\(fixture.photos)/caf%E9.jpg\n") == true)
        let listed = try fixture.trash.listing(of: entry.directory).entries
        #expect(listed.map(\.originalPath) == [path])
        try fixture.trash.restore(listed[0])
        #expect(identity(path) != nil)
    }

    @Test func theHomeTrashFollowsXDGDataHomeThenHome() {
        #expect(Trash(environment: ["XDG_DATA_HOME": "/d/x/", "HOME": "/h"]).homeTrash == "/d/x/Trash")
        #expect(Trash(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]).homeTrash == "/h/.local/share/Trash")
        #expect(Trash(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).homeTrash == "/h/.local/share/Trash")
        #expect(Trash(environment: [:]).homeTrash == nil)
    }
}
