import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The real `photosd` and exiftool: a sidecar another tool writes beside a watched photo reaches
/// its asset as an ordinary change, whatever the root's write policy.
@Suite(.serialized, .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct SidecarDaemonTests: DaemonSuite {
    let fixture: DaemonFixture

    init() throws { fixture = try DaemonFixture(prefix: "photosd-sidecar") }

    static let photo = "Camera/2008/Death Valley/FurnaceCreekInn.jpg"

    /// Runs exiftool with `arguments` in the root; its exit status.
    func exiftool(_ arguments: [String]) async throws -> Int32 {
        let root = self.root
        return try await offPool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["exiftool"] + arguments
            process.currentDirectoryURL = root
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test func aRatingExiftoolWritesIntoASidecarReachesTheAssetWithAChange() async throws {
        try put(Self.photo, at: "IMG.JPG")
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(with: options).firstObject)
        #expect(asset.rating == .unset)
        let token = library.currentChangeToken

        #expect(try await exiftool(["-XMP:Rating=4", "IMG.JPG.xmp"]) == 0)
        try await waitUntil("the sidecar's rating on the asset", whileRunning: daemon.process) {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?.rating
                == .four
        }
        let changes = try Array(library.fetchPersistentChanges(since: token))
        let details = try changes.map { try $0.changeDetails(for: .asset) }
        #expect(
            details.contains { $0.changedProperties[asset.localIdentifier]?.contains("rating") == true },
            "an ordinary change: observers, hooks and the API see it")

        // The next edit by another tool changes only what it changed.
        #expect(
            try await exiftool([
                "-overwrite_original", "-XMP-exif:DateTimeOriginal=2020:01:02 03:04:05+01:00", "IMG.JPG.xmp",
            ])
                == 0)
        try await waitUntil("the sidecar's date on the asset", whileRunning: daemon.process) {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?
                .creationDate == Date(timeIntervalSince1970: 1_577_930_645)
        }
        #expect(
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?.rating
                == .four)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["IMG.JPG", "IMG.JPG.xmp"],
            "a root with write = \"none\" gets no file of the library's")
        try await offPool { try daemon.stop() }

        // An edit made while photosd is stopped is found when it starts again.
        #expect(try await exiftool(["-overwrite_original", "-XMP:Rating=1", "IMG.JPG.xmp"]) == 0)
        let again = try await offPool { [fixture] in try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        try await waitUntil("the rating written while photosd was stopped", whileRunning: again.process) {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?.rating
                == .one
        }
        try await offPool { try again.stop() }
    }

    @Test func aNewPhotoTakesItsSidecarsStateAtIngest() async throws {
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:fstop="http://www.fstopapp.com/xmp/" xmp:Rating="5" fstop:favorite="1"/>
             </rdf:RDF>
            </x:xmpmeta>
            """.utf8
        ).write(to: root.appendingPathComponent("IMG.JPG.xmp"))
        try put(Self.photo, at: "IMG.JPG")
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(with: options).firstObject)
        #expect(asset.rating == .five && asset.isFavorite)
        try await offPool { try daemon.stop() }
    }
}
