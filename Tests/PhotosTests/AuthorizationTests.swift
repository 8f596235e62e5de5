import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `authorizationStatus(for:)` tells what the file system lets this user do with the library.
@Suite struct AuthorizationTests {
    /// A file system of a few paths and what this user may do with each (`F_OK` alone: it exists).
    struct Files {
        var modes: [String: Int32]

        func canAccess(_ path: String, _ mode: Int32) -> Bool {
            guard let allowed = modes[path] else { return false }
            return mode == F_OK || allowed & mode == mode
        }

        func status(_ path: String = "/data/photos/library.sqlite", _ level: PHAccessLevel = .readWrite)
            -> PHAuthorizationStatus
        {
            PHPhotoLibrary.authorizationStatus(ofLibraryAt: path, for: level, canAccess: canAccess)
        }
    }

    static let all = R_OK | W_OK | X_OK

    @Test func aLibraryThatCanBeWrittenIsAuthorized() {
        let files = Files(modes: ["/data/photos": Self.all, "/data/photos/library.sqlite": R_OK | W_OK])
        #expect(files.status() == .authorized)
        #expect(files.status("/data/photos/library.sqlite", .addOnly) == .authorized)
    }

    @Test func aLibraryThatCanOnlyBeReadIsRestricted() {
        // The file read-only, or its folder (SQLite's journal goes beside it).
        #expect(Files(modes: ["/data/photos": Self.all, "/data/photos/library.sqlite": R_OK]).status() == .restricted)
        #expect(
            Files(modes: ["/data/photos": R_OK | X_OK, "/data/photos/library.sqlite": R_OK | W_OK]).status()
                == .restricted)
        #expect(
            Files(modes: ["/data/photos": Self.all, "/data/photos/library.sqlite": R_OK]).status(
                "/data/photos/library.sqlite", .addOnly) == .restricted)
    }

    @Test func aLibraryThatCannotBeReadIsDenied() {
        #expect(Files(modes: ["/data/photos": Self.all, "/data/photos/library.sqlite": W_OK]).status() == .denied)
        #expect(Files(modes: ["/data/photos": Self.all, "/data/photos/library.sqlite": 0]).status() == .denied)
    }

    @Test func aLibraryNotMadeYetIsAuthorizedWhereItCanBeMade() {
        // Its folder, or the nearest folder that exists, writable: it is made on first use.
        #expect(Files(modes: ["/data/photos": Self.all]).status() == .authorized)
        #expect(Files(modes: ["/data": Self.all, "/": R_OK | X_OK]).status() == .authorized)
        #expect(Files(modes: ["/data": R_OK | X_OK, "/": Self.all]).status() == .denied)
        #expect(Files(modes: ["/": R_OK | X_OK]).status() == .denied)
    }

    /// On a real file: writable here (tests may run as root, whom modes do not stop: the
    /// read-only cases are checked above, through the seam).
    @Test func aRealLibraryAndTheRequests() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-authorization")
        let path = directory.path("library.sqlite").path
        #expect(PHPhotoLibrary.authorizationStatus(ofLibraryAt: path, for: .readWrite) == .authorized, "not made yet")
        _ = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        #expect(PHPhotoLibrary.authorizationStatus(ofLibraryAt: path, for: .readWrite) == .authorized)
        if getuid() != 0 {
            chmod(path, 0o444)
            #expect(PHPhotoLibrary.authorizationStatus(ofLibraryAt: path, for: .readWrite) == .restricted)
            chmod(path, 0)
            #expect(PHPhotoLibrary.authorizationStatus(ofLibraryAt: path, for: .readWrite) == .denied)
            chmod(path, 0o644)
        }
        // The requests answer with the status at once (no one to ask on Linux).
        let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
        #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == status)
        let answered = await withCheckedContinuation { continuation in
            PHPhotoLibrary.requestAuthorization { continuation.resume(returning: $0) }
        }
        #expect(answered == status)
    }
}
