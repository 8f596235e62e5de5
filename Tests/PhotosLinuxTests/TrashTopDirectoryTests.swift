import Foundation
import Glibc
import PhotosTestSupport
import Testing

@testable import PhotosLinux

/// A photo on a second file system (a tmpfs of its own, mounted as root): it goes to a trash at the
/// top of that file system, `.Trash/$uid` only under a sticky, real `.Trash`, else `.Trash-$uid`,
/// never to the home trash on the other device; where no trash can be used it stays, and the error
/// says why. trash-cli reads and restores those trashes too.
@Suite(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs (mount -t tmpfs): SKIPPED otherwise"))
struct TrashTopDirectoryTests {
    /// A tmpfs with a photo on it, and a fixture whose home trash is on the other device.
    struct Volume {
        let fixture: TrashFixture
        let fileSystem: SmallFileSystem
        let top: String
        let photo: String

        init() throws {
            fixture = try TrashFixture()
            fileSystem = try SmallFileSystem(megabytes: 8)
            top = try #require(FileOperations.resolved(fileSystem.url.path))
            photo = try fixture.write("DCIM/100CANON/IMG 0001.JPG", "jpeg bytes", under: top)
        }

        var uid: UInt32 { UInt32(getuid()) }

        /// The home trash was never made: nothing went to the other device.
        var homeTrashUntouched: Bool { identity(fixture.homeTrash) == nil }
    }

    @Test func aPhotoOnAnotherFileSystemGoesToTheUsersTrashAtItsTop() async throws {
        let volume = try Volume()
        let before = try #require(identity(volume.photo))

        let entry = try volume.fixture.trash.trash(volume.photo)

        let expected = volume.top + "/.Trash-\(volume.uid)"
        #expect(entry.directory == TrashDirectory(path: expected, kind: .user, topDirectory: volume.top))
        #expect(modeAndOwner(expected).map { [$0.mode, $0.owner] } == [0o700, volume.uid])
        #expect(entry.file?.inode == before.inode)
        #expect(entry.file?.device == before.device)
        #expect(contents(entry.infoPath)?.contains("\nPath=DCIM/100CANON/IMG%200001.JPG\n") == true)
        #expect(volume.homeTrashUntouched)

        let date = try #require(entry.deletionDate).replacingOccurrences(of: "T", with: " ")
        let list = try await TrashTools.runIfInstalled("trash-list", [], environment: volume.fixture.environment)
        if let list { #expect(list.stdout.split(separator: "\n").contains("\(date) \(volume.photo)"), "\(list)") }
        let restore = try await TrashTools.runIfInstalled(
            "trash-restore", [volume.photo], input: "0\n", environment: volume.fixture.environment)
        if restore == nil { try volume.fixture.trash.restore(entry) }
        #expect(identity(volume.photo)?.inode == before.inode)
        #expect(identity(entry.infoPath) == nil)
    }

    @Test func aStickySharedTrashIsUsedThroughTheUsersDirectoryInIt() async throws {
        let volume = try Volume()
        let shared = volume.top + "/.Trash"
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o1777) == 0)

        let entry = try volume.fixture.trash.trash(volume.photo)

        let expected = shared + "/\(volume.uid)"
        #expect(entry.directory == TrashDirectory(path: expected, kind: .shared, topDirectory: volume.top))
        #expect(modeAndOwner(expected)?.mode == 0o700)
        #expect(identity(volume.top + "/.Trash-\(volume.uid)") == nil)
        // Path= is relative to the top directory, not to .Trash.
        #expect(contents(entry.infoPath)?.contains("\nPath=DCIM/100CANON/IMG%200001.JPG\n") == true)
        #expect(volume.fixture.trash.existingDirectories().contains(entry.directory))

        let list = try await TrashTools.runIfInstalled("trash-list", [], environment: volume.fixture.environment)
        if let list { #expect(list.stdout.contains(" \(volume.photo)\n"), "\(list)") }
        try volume.fixture.trash.restore(entry)
        #expect(contents(volume.photo) == "jpeg bytes")
    }

    @Test func aSharedTrashWithoutTheStickyBitIsNotUsed() throws {
        let volume = try Volume()
        let shared = volume.top + "/.Trash"
        #expect(mkdir(shared, 0o777) == 0 && chmod(shared, 0o777) == 0)

        let entry = try volume.fixture.trash.trash(volume.photo)

        #expect(entry.directory.path == volume.top + "/.Trash-\(volume.uid)")
        #expect(entry.directory.kind == .user)
        #expect(identity(shared + "/\(volume.uid)") == nil)
        #expect(
            !volume.fixture.trash.existingDirectories().contains { $0.kind == .shared && $0.topDirectory == volume.top }
        )
    }

    @Test func aSharedTrashThatIsASymbolicLinkIsNotUsed() throws {
        let volume = try Volume()
        let real = volume.top + "/real-trash"
        #expect(mkdir(real, 0o777) == 0 && chmod(real, 0o1777) == 0)
        #expect(symlink(real, volume.top + "/.Trash") == 0)

        let entry = try volume.fixture.trash.trash(volume.photo)

        #expect(entry.directory.path == volume.top + "/.Trash-\(volume.uid)")
        #expect(try TrashFiles.names(in: real) == [])
    }

    /// Each way the user's own trash can fail its checks, and a file system that cannot be written.
    @Test(arguments: ["regular file", "symbolic link", "other owner", "read-only"])
    func withoutAUsableTrashThePhotoStaysAndTheErrorSaysWhy(problem: String) throws {
        let volume = try Volume()
        let own = volume.top + "/.Trash-\(volume.uid)"
        let reason: String
        switch problem {
        case "regular file":
            try volume.fixture.write(".Trash-\(volume.uid)", "not a directory", under: volume.top)
            // And a shared trash that fails its own check: both reasons are given.
            #expect(mkdir(volume.top + "/.Trash", 0o777) == 0 && chmod(volume.top + "/.Trash", 0o777) == 0)
            reason = "\(own) is not a directory"
        case "symbolic link":
            #expect(mkdir(volume.top + "/elsewhere", 0o700) == 0)
            #expect(symlink(volume.top + "/elsewhere", own) == 0)
            reason = "\(own) is a symbolic link"
        case "other owner":
            #expect(mkdir(own, 0o700) == 0 && chown(own, 1234, 1234) == 0)
            reason = "\(own) is owned by user 1234"
        default:
            try volume.fileSystem.makeReadOnly()
            reason = "\(own) cannot be made: Read-only file system"
        }
        let before = try #require(identity(volume.photo))

        #expect {
            try volume.fixture.trash.trash(volume.photo)
        } throws: { error in
            guard let error = error as? TrashError else { return false }
            #expect(error.message.contains(reason), "\(error)")
            #expect(error.message.contains(volume.photo), "\(error)")
            #expect(error.message.contains("is on another file system"), "\(error)")
            if problem == "regular file" { #expect(error.message.contains(".Trash has no sticky bit"), "\(error)") }
            return error.code == .noTrash && error.path == volume.photo
        }
        #expect(identity(volume.photo) == before)
        #expect(contents(volume.photo) == "jpeg bytes")
        #expect(volume.homeTrashUntouched)
    }

    @Test func whatTrashPutTrashedThereIsListedAndRestoredByTheLibrary() async throws {
        let volume = try Volume()
        guard
            let put = try await TrashTools.runIfInstalled(
                "trash-put", [volume.photo], environment: volume.fixture.environment)
        else { return }
        #expect(put.status == 0, "\(put.stderr)")
        #expect(identity(volume.photo) == nil)
        #expect(volume.homeTrashUntouched)

        let directory = try #require(volume.fixture.trash.existingDirectories().first { $0.topDirectory == volume.top })
        #expect(directory.path == volume.top + "/.Trash-\(volume.uid)")
        let entry = try #require(try volume.fixture.trash.listing(of: directory).entries.first)
        #expect(entry.originalPath == volume.photo)

        try volume.fixture.trash.restore(entry)

        #expect(contents(volume.photo) == "jpeg bytes")
        #expect(try volume.fixture.trash.listing(of: directory).entries.isEmpty)
    }
}

extension TrashTools {
    /// Runs a trash-cli command when trash-cli is installed; nil (and the message of
    /// ``isInstalled``) when it is not.
    static func runIfInstalled(
        _ tool: String, _ arguments: [String], input: String = "", environment: [String: String]
    ) async throws -> (status: Int32, stdout: String, stderr: String)? {
        guard isInstalled else { return nil }
        return try await run(tool, arguments, input: input, environment: environment)
    }
}
