import Foundation
import Photos
import PhotosSidecars
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
            let process = TestProcess()
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

    /// A photo that had no sidecar when photosd last ran gets one from another tool while it is
    /// stopped (the library never synced it, so holds no base for it): the next start takes it, and
    /// a second start with nothing changed takes nothing again.
    @Test func aSidecarWrittenWhileStoppedBesideAKnownPhotoIsTaken() async throws {
        try put(Self.photo, at: "IMG.JPG")
        let first = try await offPool { [fixture] in try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        try await offPool { try first.stop() }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(with: options).firstObject)
        #expect(asset.rating == .unset && !asset.isFavorite)

        // darktable's name for it: IMG.JPG.xmp, written while nobody watches.
        #expect(try await exiftool(["-XMP:Rating=3", "-o", "IMG.JPG.xmp", "IMG.JPG"]) == 0)
        let token = library.currentChangeToken
        let second = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        try await waitUntil("the rating of a sidecar written while photosd was stopped", whileRunning: second.process) {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?.rating
                == .three
        }
        try await offPool { try second.stop() }
        let changes = try Array(library.fetchPersistentChanges(since: token))
        #expect(
            try changes.map { try $0.changeDetails(for: .asset) }.contains {
                $0.changedProperties[asset.localIdentifier]?.contains("rating") == true
            }, "an ordinary change")

        // Synced now: the next start finds nothing to take.
        let synced = library.currentChangeToken
        let third = try await offPool { [fixture] in try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        try await offPool { try third.stop() }
        #expect(try Array(library.fetchPersistentChanges(since: synced)).isEmpty, "nothing taken twice")
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

    /// Two photos' names swapped with their sidecars (as a renaming tool does) while photosd
    /// watches: each photo keeps its asset, and each sidecar meets its own photo's asset, not the
    /// one the library had at its name a moment before. The six renames fall within one settle
    /// time (with none, photosd could look between two of them, when a sidecar is another photo's).
    @Test func namesSwappedWithTheirSidecarsKeepEachPhotosState() async throws {
        try put(Self.photo, at: "A.JPG")
        try put("Camera/2002/Fujifilm/DSCF0001.JPG", at: "B.JPG")
        #expect(try await exiftool(["-XMP:Rating=5", "A.JPG.xmp"]) == 0)
        #expect(try await exiftool(["-XMP:Rating=1", "B.JPG.xmp"]) == 0)
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "500"])
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        func asset(named name: String) -> PHAsset? {
            PHAsset.fetchAssets(with: options).first { asset in
                PHAssetResource.assetResources(for: asset).first?.fileURL.lastPathComponent == name
            }
        }
        let a = try #require(asset(named: "A.JPG"))
        let b = try #require(asset(named: "B.JPG"))
        #expect(a.rating == .five && b.rating == .one)

        let root = self.root
        func rename(_ from: String, _ to: String) throws {
            try FileManager.default.moveItem(
                at: root.appendingPathComponent(from), to: root.appendingPathComponent(to))
        }
        for suffix in ["JPG.xmp", "JPG"] {
            try rename("A.\(suffix)", "T.\(suffix)")
            try rename("B.\(suffix)", "A.\(suffix)")
            try rename("T.\(suffix)", "B.\(suffix)")
        }
        try await waitUntil("the swap seen", whileRunning: daemon.process) {
            asset(named: "B.JPG")?.localIdentifier == a.localIdentifier
                && asset(named: "A.JPG")?.localIdentifier == b.localIdentifier
        }
        try await offPool { try daemon.stop() }
        func rating(of asset: PHAsset) -> PHAssetRating? {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: options).firstObject?.rating
        }
        #expect(rating(of: a) == .five && rating(of: b) == .one)
    }

    /// photosd started on a library that is not there makes it and brings the user albums and
    /// folders back from the roots' album manifests after its startup scan, with their identifiers
    /// and photos: a photo without a sidecar is found by its file and takes its identifier back.
    @Test func aNewLibraryGetsItsUserAlbumsBackFromTheRootsManifest() async throws {
        try put(Self.photo, at: "2008/IMG.JPG")
        let asset = "01A22462-0000-7000-8000-000000000001/L0/001"
        let folder = "01A22462-0000-7000-8000-000000000002/L0/040"
        let album = "01A22462-0000-7000-8000-000000000003/L0/040"
        let manifest = AlbumManifest(
            folders: [
                .init(localIdentifier: folder, title: "Trips", parent: nil, position: 5, createdDate: 1_700_000_000)
            ],
            albums: [
                .init(
                    localIdentifier: album, title: "Best", parent: folder, position: 0, createdDate: 1_700_000_001,
                    assets: [.init(localIdentifier: asset, file: root.path + "/2008/IMG.JPG")])
            ])
        try manifest.write(to: AlbumManifest.path(inRoot: root.path))
        #expect(!FileManager.default.fileExists(atPath: libraryURL.path))
        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        let best = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album], options: options).firstObject,
            "the album is back once photosd is ready")
        #expect(best.localizedTitle == "Best")
        let members = PHAsset.fetchAssets(in: best, options: options)
        #expect(members.count == 1 && members.firstObject?.localIdentifier == asset)
        let trips = try #require(
            PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: options).firstObject)
        #expect(trips.localizedTitle == "Trips")
        let children = PHCollection.fetchCollections(in: trips, options: options)
        #expect(children.count == 1 && children.firstObject?.localIdentifier == album)
        try await offPool { try daemon.stop() }
    }

    /// photosd started on a library that is not there gives a photo whose identifier came back the
    /// edit the library's folder kept for it (an envelope and its render in `Imports/.edits`), as
    /// `photos rebuild` does: the render is the asset's full-size photo again.
    @Test func aNewLibraryGetsItsEditsBackFromTheLibrarysFolder() async throws {
        try put(Self.photo, at: "2008/IMG.JPG")
        let asset = "01A22463-0000-7000-8000-000000000001/L0/001"
        let album = "01A22463-0000-7000-8000-000000000003/L0/040"
        // The album's manifest gives the photo its identifier back; the edit is named by it.
        try AlbumManifest(
            folders: [],
            albums: [
                .init(
                    localIdentifier: album, title: "Edited", parent: nil, position: 0, createdDate: 1_700_000_001,
                    assets: [.init(localIdentifier: asset, file: root.path + "/2008/IMG.JPG")])
            ]
        ).write(to: AlbumManifest.path(inRoot: root.path))
        let edit = libraryURL.deletingLastPathComponent()
            .appendingPathComponent("Imports/.edits/\(asset.prefix(36))/01A22463-EDIT")
        try FileManager.default.createDirectory(at: edit, withIntermediateDirectories: true)
        let envelope: [String: Any] = [
            "adjustmentFormatIdentifier": "org.example.crop", "adjustmentFormatVersion": "1.0",
            "adjustmentData": Data("crop 10 10 100 100".utf8), "adjustmentBaseVersion": 0,
            "adjustmentTimestamp": Date(timeIntervalSince1970: 1_700_000_002),
        ]
        try PropertyListSerialization.data(fromPropertyList: envelope, format: .xml, options: 0)
            .write(to: edit.appendingPathComponent("Adjustments.plist"))
        let render = edit.appendingPathComponent("FullSizeRender.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Phone/DCIM/Camera/20180530_212539.jpg")), to: render)

        let daemon = try await offPool { [fixture] in
            try fixture.start(["--watch", fixture.root.path, "--settle", "0"])
        }
        let library = try PHPhotoLibrary(url: libraryURL)
        let options = PHFetchOptions()
        options.photoLibrary = library
        try await waitUntil("the edit is back", whileRunning: daemon.process) {
            PHAsset.fetchAssets(withLocalIdentifiers: [asset], options: options).firstObject?.hasAdjustments == true
        }
        let edited = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [asset], options: options).firstObject)
        let resources = PHAssetResource.assetResources(for: edited)
        #expect(resources.map(\.type).contains(.fullSizePhoto), "\(resources.map(\.type))")
        #expect(resources.contains { $0.type == .adjustmentData && $0.originalFilename == "Adjustments.plist" })
        #expect(resources.first { $0.type == .fullSizePhoto }?.originalFilename == "FullSizeRender.jpg")
        try await offPool { try daemon.stop() }
    }
}
