import Foundation
import PhotosIngest
import PhotosSidecars
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// User state set through the library reaches the photo's XMP sidecar under roots whose policy
/// allows it (`write = "sidecars"`), merged with what other tools keep there, and survives a crash
/// at every step of the write.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
final class SidecarWriteBackTests {
    /// A JPEG with no rating and no sidecar.
    static let photo = Corpus.file("Test charts/Orientation/landscape_1.jpg")!
    let directory: TemporaryDirectory
    let pictures: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-sidecar-write")
        pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.photo, to: pictures.appendingPathComponent("IMG_1.jpg"))
    }

    var sidecar: String { pictures.path + "/IMG_1.jpg.xmp" }

    /// The library over `root` (``pictures`` unless given), scanned once.
    func openLibrary(root: URL? = nil, write: RootWritePolicy = .sidecars, scan: Bool = true) throws -> PHPhotoLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: (root ?? pictures).path, write: write)]
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        if scan {
            _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [(root ?? pictures).path])
        }
        return library
    }

    func onlyAsset(_ library: PHPhotoLibrary) throws -> PHAsset {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        let assets = PHAsset.fetchAssets(with: options)
        try #require(assets.count == 1)
        return try #require(assets.firstObject)
    }

    /// exiftool's `-j -G1 -a` of a file: group:tag → value.
    static func exiftoolTags(_ path: String, _ extra: [String] = []) async throws -> [String: Any] {
        let text = try await exiftool(["-j", "-G1", "-a"] + extra + [path])
        let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return array?.first ?? [:]
    }

    static func exiftool(_ arguments: [String]) async throws -> String {
        try await offPool {
            let process = TestProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["exiftool"] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test func aFavoriteAndARatingSetThroughTheLibraryAreReadBackByExiftool() async throws {
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            request.isFavorite = true
            request.rating = .four
        }
        #expect(FileManager.default.fileExists(atPath: sidecar), "IMG_1.jpg.xmp is written beside the photo")
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-xmp:Rating"] as? Int == 4)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        #expect(tags["XMP-fstop:Favorite"] as? Int == 1, "PhotoPrism's favorite")
        #expect(
            tags["XMP-photosd:LocalIdentifier"] as? String == asset.localIdentifier, "the file carries the identity")
        #expect(tags["XMP-exif:DateTimeOriginal"] == nil, "a photo that states no date gets none from its file time")
        let own = try await Self.exiftool(["-XMP-photosd:all", sidecar])
        #expect(own.contains(asset.localIdentifier))
        #expect(try Data(contentsOf: pictures.appendingPathComponent("IMG_1.jpg")) == Data(contentsOf: Self.photo))

        // Unfavorited: the sidecar says so.
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = false }
        let after = try await Self.exiftoolTags(sidecar)
        #expect(after["XMP-photosd:Favorite"] as? Bool == false)
        #expect(after["XMP-xmp:Rating"] as? Int == 4)
    }

    /// The library and another tool both change the rating after they last agreed: the newer write
    /// wins, and the change that settles it carries the conflict with both values, for observers
    /// (`PHPersistentChange`, `PHChange`) and in the change JSON.
    /// An edit made while another program had moved the photo away (the library not told yet) has
    /// no photo to write a sidecar beside; once a scan finds the photo at its new path, the state is
    /// written there, where a rebuild finds it. Where the root may not write, nothing is.
    @Test func anEditMadeWhileThePhotoWasAwayReachesItsSidecarOnceTheMoveIsSeen() throws {
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        let moved = pictures.path + "/IMG_1-renamed.jpg"
        #expect(rename(pictures.path + "/IMG_1.jpg", moved) == 0)
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            request.isFavorite = true
            request.rating = .five
        }
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        #expect(!FileManager.default.fileExists(atPath: moved + ".xmp"))

        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        #expect(report.moved == 1 && report.movedFiles == [moved])
        let sync = SidecarSync(database: library.database)
        #expect(try sync.syncMovedPhotos(at: [moved]) { _ in false }.first?.outcome.get() == nil)
        #expect(!FileManager.default.fileExists(atPath: moved + ".xmp"))
        let outcome = try #require(try sync.syncMovedPhotos(at: [moved]) { _ in true }.first?.outcome.get())
        #expect(outcome.wrote && outcome.sidecar == moved + ".xmp")
        let state = try #require(try SidecarFile.read(moved + ".xmp")?.state)
        #expect(state.isFavorite == true && state.rating == 5 && state.localIdentifier == asset.localIdentifier)
        #expect(
            try sync.syncMovedPhotos(at: [moved]) { _ in true }.first?.outcome.get() == nil, "its sidecar is there now")
    }

    /// `mv IMG_1.jpg IMG_2.jpg`, the sidecars left where they were: IMG_2's sidecar names IMG_2's
    /// asset, gone with its photo, and says its state. The scan that finds the move makes that
    /// sidecar the moved photo's, the library's state written over it and nothing taken from it,
    /// so a rebuild gives the photo its own identifier and state, not the one it replaced.
    @Test func aSidecarLeftAtTheNameAPhotoWasMovedToBecomesItsOwn() throws {
        try FileManager.default.copyItem(at: Self.photo, to: pictures.appendingPathComponent("IMG_2.jpg"))
        let library = try openLibrary()
        let options = PHFetchOptions()
        options.photoLibrary = library
        var byName: [String: PHAsset] = [:]
        PHAsset.fetchAssets(with: options).enumerateObjects { asset, _, _ in
            if let name = PHAssetResource.assetResources(for: asset).first?.originalFilename { byName[name] = asset }
        }
        let (first, second) = (try #require(byName["IMG_1.jpg"]), try #require(byName["IMG_2.jpg"]))
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: first).rating = .two
            let other = PHAssetChangeRequest(for: second)
            other.isFavorite = true
            other.rating = .five
        }
        let left = pictures.path + "/IMG_2.jpg.xmp"
        #expect(try SidecarFile.read(left)?.state.localIdentifier == second.localIdentifier)

        let moved = pictures.path + "/IMG_2.jpg"
        #expect(rename(pictures.path + "/IMG_1.jpg", moved) == 0)
        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        #expect(report.moved == 1 && report.removed == 1 && report.movedFiles == [moved], "\(report)")
        let sync = SidecarSync(database: library.database)
        let outcome = try #require(try sync.syncMovedPhotos(at: [moved]) { _ in true }.first?.outcome.get())
        #expect(outcome.wrote && outcome.sidecar == left && outcome.taken.isEmpty && outcome.conflicts.isEmpty)
        let state = try #require(try SidecarFile.read(left)?.state)
        #expect(state.localIdentifier == first.localIdentifier && state.rating == 2 && state.isFavorite == false)
        let now = try #require(
            PHAsset.fetchAssets(withLocalIdentifiers: [first.localIdentifier], options: options).firstObject)
        #expect(now.rating == .two && !now.isFavorite, "nothing taken from the other photo's sidecar")
        #expect(
            try sync.syncMovedPhotos(at: [moved]) { _ in true }.first?.outcome.get() == nil, "its own sidecar now")
    }

    /// Photos moved together into one folder each get their own sidecar (the folder's files listed
    /// once for all of them); one whose asset keeps nothing gets none.
    @Test func photosMovedTogetherEachGetTheirOwnSidecar() throws {
        for name in ["IMG_2.jpg", "IMG_3.jpg"] {
            try FileManager.default.copyItem(at: Self.photo, to: pictures.appendingPathComponent(name))
        }
        let library = try openLibrary()
        let options = PHFetchOptions()
        options.photoLibrary = library
        let fetched = PHAsset.fetchAssets(with: options)
        var byName: [String: PHAsset] = [:]
        fetched.enumerateObjects { asset, _, _ in
            if let name = PHAssetResource.assetResources(for: asset).first?.originalFilename { byName[name] = asset }
        }
        try #require(byName.count == 3)
        let trip = pictures.path + "/Trip"
        try FileManager.default.createDirectory(atPath: trip, withIntermediateDirectories: false)
        for name in ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"] {
            #expect(rename(pictures.path + "/" + name, trip + "/" + name) == 0)
        }
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: byName["IMG_1.jpg"]!).isFavorite = true
            PHAssetChangeRequest(for: byName["IMG_2.jpg"]!).rating = .three
        }

        let report = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        #expect(Set(report.movedFiles) == Set(["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"].map { trip + "/" + $0 }))
        let outcomes = SidecarSync(database: library.database).syncMovedPhotos(at: report.movedFiles.sorted()) { _ in
            true
        }
        #expect(outcomes.map(\.photo) == report.movedFiles.sorted())
        let wrote = try outcomes.map { try $0.outcome.get()?.wrote ?? false }
        #expect(wrote == [true, true, false])
        let first = try #require(try SidecarFile.read(trip + "/IMG_1.jpg.xmp")?.state)
        #expect(first.isFavorite == true && first.localIdentifier == byName["IMG_1.jpg"]!.localIdentifier)
        let second = try #require(try SidecarFile.read(trip + "/IMG_2.jpg.xmp")?.state)
        #expect(second.rating == 3 && second.localIdentifier == byName["IMG_2.jpg"]!.localIdentifier)
        #expect(!FileManager.default.fileExists(atPath: trip + "/IMG_3.jpg.xmp"))
    }

    @Test func aConflictWithAnotherToolIsSettledByTheNewerWriteAndCarriedByTheChange() throws {
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = .three }
        let written = try String(contentsOfFile: sidecar, encoding: .utf8)
        #expect(written.contains("<xmp:Rating>3<"))

        // Another tool rates it 5, and its write is the newer one (dated an hour ahead).
        try Data(written.replacingOccurrences(of: "<xmp:Rating>3<", with: "<xmp:Rating>5<").utf8)
            .write(to: URL(fileURLWithPath: sidecar))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(3600)], ofItemAtPath: sidecar)
        let token = library.currentChangeToken
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).rating = .two }

        #expect(try onlyAsset(library).rating == .five, "the newer write wins")
        let changes = try Array(library.fetchPersistentChanges(since: token))
        let conflicts = changes.flatMap(\.sidecarConflicts)
        #expect(
            conflicts == [
                SidecarConflict(
                    localIdentifier: asset.localIdentifier, sidecar: sidecar, field: "rating", libraryValue: "2",
                    sidecarValue: "5", kept: .sidecar)
            ], "\(conflicts)")
        let settling = try #require(changes.last)
        #expect(try settling.changeDetails(for: .asset).changedProperties[asset.localIdentifier] == ["rating"])
        let ownChangesClean = changes.dropLast().allSatisfy { $0.sidecarConflicts.isEmpty }
        #expect(ownChangesClean, "the library's own change has none")

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(settling.entry)) as? [String: Any]
        let first = (json?["sidecarConflicts"] as? [[String: Any]])?.first
        #expect(first?["field"] as? String == "rating" && first?["kept"] as? String == "sidecar")
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(changes[0].entry)) as? [String: Any]
        #expect(plain?.keys.contains("sidecarConflicts") == false, "absent from entries without conflicts")
    }

    @Test func aRootWithoutASidecarPolicyKeepsTheStateInTheLibraryOnly() throws {
        let library = try openLibrary(write: .none)
        let asset = try onlyAsset(library)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        #expect(try onlyAsset(library).isFavorite)
        #expect(try FileManager.default.contentsOfDirectory(atPath: pictures.path) == ["IMG_1.jpg"])
        #expect(try library.database.fileJournal().isEmpty)
    }

    /// darktable's and digiKam's properties in a sidecar the library then writes into ten times.
    static let otherTools = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:darktable="http://darktable.sf.net/"
            xmlns:digiKam="http://www.digikam.org/ns/1.0/"
            xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
           darktable:xmp_version="5"
           darktable:history_end="1"
           digiKam:PickLabel="2"
           digiKam:ColorLabel="4"
           MicrosoftPhoto:Rating="50">
           <darktable:history>
            <rdf:Seq>
             <rdf:li
              darktable:num="0"
              darktable:operation="exposure"
              darktable:enabled="1"
              darktable:params="00000000000080b90000003f00004842000080c0"/>
            </rdf:Seq>
           </darktable:history>
           <digiKam:TagsList>
            <rdf:Seq>
             <rdf:li>Family/Anna</rdf:li>
             <rdf:li>Places/Paris</rdf:li>
            </rdf:Seq>
           </digiKam:TagsList>
           <dc:title>
            <rdf:Alt>
             <rdf:li xml:lang="x-default">Évening</rdf:li>
             <rdf:li xml:lang="fr-FR">Soir</rdf:li>
            </rdf:Alt>
           </dc:title>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """

    /// A sidecar's text without the library's own `rdf:Description` (the one declaring `photosd`),
    /// from the line end before it to its end tag.
    static func withoutLibraryDescription(_ text: String) -> String {
        guard let declaration = text.range(of: "xmlns:photosd=\""),
            let start = text[..<declaration.lowerBound].range(of: "<rdf:Description", options: .backwards),
            let end = text[declaration.upperBound...].range(of: "</rdf:Description>")
        else { return text }
        var lineStart = start.lowerBound
        while lineStart > text.startIndex, text[text.index(before: lineStart)].isWhitespace {
            lineStart = text.index(before: lineStart)
        }
        return String(text[..<lineStart] + text[end.upperBound...])
    }

    @Test func anotherToolsSidecarKeepsItsPropertiesByteForByteAfterTenLibraryEdits() async throws {
        try Data(Self.otherTools.utf8).write(to: URL(fileURLWithPath: sidecar))
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        let edits: [(PHAssetChangeRequest) -> Void] = [
            { $0.isFavorite = true }, { $0.rating = .five }, { $0.isHidden = true }, { $0.isFavorite = false },
            { $0.rating = .one }, { $0.location = CLLocation(latitude: 48.8566, longitude: 2.3522) },
            { $0.creationDate = Date(timeIntervalSince1970: 1_700_000_000) }, { $0.isHidden = false },
            { $0.rating = .three }, { $0.isFavorite = true },
        ]
        for edit in edits {
            try library.performChangesAndWait { edit(PHAssetChangeRequest(for: asset)) }
            let text = try String(contentsOfFile: sidecar, encoding: .utf8)
            #expect(Self.withoutLibraryDescription(text) == Self.otherTools, "other tools' bytes are kept")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted() == [
                "IMG_1.jpg", "IMG_1.jpg.xmp",
            ])
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-xmp:Rating"] as? Int == 3)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        #expect(tags["XMP-photosd:Hidden"] as? Bool == false)
        #expect(tags["XMP-digiKam:PickLabel"] as? Int == 2, "exiftool still reads digiKam's fields")
        #expect(tags["XMP-exif:DateTimeOriginal"] as? String == "2023:11:14 22:13:20Z")
        #expect((tags["XMP-exif:GPSLatitude"] as? String)?.hasPrefix("48 deg 51'") == true)
    }

    @Test func aSidecarEditedByAnotherToolIsMergedWithTheLibrarysNextChange() async throws {
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        // exiftool changes the rating; the library then hides the photo.
        _ = try await Self.exiftool(["-overwrite_original", "-XMP:Rating=2", sidecar])
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }
        let reread = try onlyAsset(library)
        #expect(reread.rating == .two, "the field only the other tool changed is taken")
        #expect(reread.isFavorite && reread.isHidden)
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-xmp:Rating"] as? Int == 2)
        #expect(tags["XMP-photosd:Hidden"] as? Bool == true)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
    }

    @Test(arguments: [FaultInjection.Step.committed, .sidecarMerged, .sidecarWritten])
    func aSidecarWriteKilledAtAnyStepEndsWithTheLibrarysStateAtTheNextOpen(step: FaultInjection.Step) async throws {
        try Data(Self.otherTools.utf8).write(to: URL(fileURLWithPath: sidecar))
        let identifier: String
        do {
            let library = try openLibrary()
            let asset = try onlyAsset(library)
            identifier = asset.localIdentifier
            let imports = library.importDirectory.standardizedFileURL.path
            FaultInjection.set(in: imports) { $0 == step }
            defer { FaultInjection.clear(in: imports) }
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait {
                    let request = PHAssetChangeRequest(for: asset)
                    request.isFavorite = true
                    request.rating = .five
                }
            }
            #expect(try library.database.fileJournal().count == 1, "the sidecar's work is journaled")
            let text = try String(contentsOfFile: sidecar, encoding: .utf8)
            #expect(Self.withoutLibraryDescription(text) == Self.otherTools, "whole at the moment of the crash")
        }
        // A write killed between its temporary file and the rename left one behind.
        let abandoned = pictures.path + "/.IMG_1.jpg.xmp.photosd-4194999-1.tmp"
        try Data("half a sidecar".utf8).write(to: URL(fileURLWithPath: abandoned))
        let reopened = try openLibrary(scan: false)
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        let asset = try onlyAsset(reopened)
        #expect(asset.localIdentifier == identifier && asset.isFavorite && asset.rating == .five)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted() == [
                "IMG_1.jpg", "IMG_1.jpg.xmp",
            ],
            "no temporary file is left, no second sidecar made")
        let text = try String(contentsOfFile: sidecar, encoding: .utf8)
        #expect(Self.withoutLibraryDescription(text) == Self.otherTools, "nothing of the other tools is lost")
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-xmp:Rating"] as? Int == 5)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        #expect(tags["XMP-photosd:LocalIdentifier"] as? String == identifier)
        #expect(try Data(contentsOf: pictures.appendingPathComponent("IMG_1.jpg")) == Data(contentsOf: Self.photo))
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aChangeToAPhotoOnAReadOnlyRootFailsWithAccessRestricted() throws {
        let disk = try SmallFileSystem(megabytes: 4)
        try FileManager.default.copyItem(at: Self.photo, to: disk.url.appendingPathComponent("IMG_1.jpg"))
        let library = try openLibrary(root: disk.url)
        let asset = try onlyAsset(library)
        try disk.makeReadOnly()
        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        #expect(refused?.code == .accessRestricted)
        #expect(refused?.message.contains("\(disk.url.path): a read-only file system") == true)
        #expect(refused?.localIdentifiers == [asset.localIdentifier])
        #expect(try !onlyAsset(library).isFavorite, "the block did not commit")
        #expect(try library.database.fileJournal().isEmpty)
    }

    @Test(.enabled(if: SmallFileSystem.isAvailable, "needs root and tmpfs"))
    func aSidecarAFullDiskRefusedIsWrittenAtTheNextOpenOnceThereIsRoom() async throws {
        let disk = try SmallFileSystem(megabytes: 4)
        try FileManager.default.copyItem(at: Self.photo, to: disk.url.appendingPathComponent("IMG_1.jpg"))
        let library = try openLibrary(root: disk.url)
        let asset = try onlyAsset(library)
        try disk.fill()
        let failed = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        #expect(failed?.message.contains("kept: written at the next open") == true, "\(String(describing: failed))")
        #expect(try onlyAsset(library).isFavorite, "the block committed: the library has the state")
        #expect(try library.database.fileJournal().count == 1, "the sidecar's write is kept")
        let sidecar = disk.url.appendingPathComponent("IMG_1.jpg.xmp").path
        #expect(!FileManager.default.fileExists(atPath: sidecar))

        try disk.free()
        let reopened = try openLibrary(root: disk.url, scan: false)
        #expect(try reopened.database.fileJournal().isEmpty, "the next open wrote it")
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        #expect(tags["XMP-photosd:LocalIdentifier"] as? String == asset.localIdentifier)
    }

    @Test func aScanReadsTheSidecarBesideANewPhotoIntoItsAsset() async throws {
        let identifier = UUID().uuidString + "/L0/001"
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmlns:fstop="http://www.fstopapp.com/xmp/"
                xmlns:photosd="http://ns.photosd.org/xmp/1.0/"
                xmlns:digiKam="http://www.digikam.org/ns/1.0/"
               xmp:Rating="4"
               fstop:favorite="1"
               photosd:Hidden="True"
               photosd:LocalIdentifier="\(identifier)"
               exif:DateTimeOriginal="2019-06-01T12:30:00+02:00"
               exif:GPSLatitude="59,19.8000N"
               exif:GPSLongitude="18,4.2000E"
               digiKam:ColorLabel="3"/>
             </rdf:RDF>
            </x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: pictures.path + "/IMG_1.xmp"))
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        #expect(asset.localIdentifier == identifier, "the sidecar's identifier: the same asset after a rebuild")
        #expect(asset.rating == .four && asset.isFavorite && asset.isHidden)
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_559_385_000))
        #expect(abs((asset.location?.coordinate.latitude ?? 0) - 59.33) < 1e-6)
        #expect(abs((asset.location?.coordinate.longitude ?? 0) - 18.07) < 1e-6)

        // The library's next change merges against what the scan read: IMG_1.xmp is updated in
        // place (no second sidecar), digiKam's label stays.
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = false }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pictures.path).sorted() == ["IMG_1.jpg", "IMG_1.xmp"])
        let tags = try await Self.exiftoolTags(pictures.path + "/IMG_1.xmp")
        #expect(tags["XMP-fstop:Favorite"] as? Int == 0)
        #expect(tags["XMP-xmp:Rating"] as? Int == 4)
        #expect(tags["XMP-digiKam:ColorLabel"] as? Int == 3)
        #expect(try onlyAsset(library).rating == .four && !onlyAsset(library).isFavorite)
    }

    @Test func aToolThatRewritesTheSidecarWithoutTheLibrarysPropertiesChangesNothingInTheLibrary() async throws {
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            request.isFavorite = true
            request.rating = .four
        }
        // darktable #12322: a tool writes its own sidecar over the library's, without its properties.
        try Data(Self.otherTools.utf8).write(to: URL(fileURLWithPath: sidecar))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }
        let reread = try onlyAsset(library)
        #expect(reread.isFavorite && reread.isHidden, "an absent favorite is no edit")
        #expect(reread.rating == .three, "digiKam's MicrosoftPhoto:Rating 50 is an edit: three stars")
        let text = try String(contentsOfFile: sidecar, encoding: .utf8)
        #expect(Self.withoutLibraryDescription(text) == Self.otherTools)
        let tags = try await Self.exiftoolTags(sidecar)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true, "the library's properties are written again")
        #expect(tags["XMP-photosd:LocalIdentifier"] as? String == asset.localIdentifier)

        // A sidecar removed is no edit either.
        try FileManager.default.removeItem(atPath: sidecar)
        let outcomes = try SidecarSync(database: library.database).syncChangedSidecar(at: sidecar) { _ in true }
        #expect(outcomes.isEmpty)
        #expect(try onlyAsset(library).isFavorite)
        #expect(!FileManager.default.fileExists(atPath: sidecar))
    }

    @Test func aSidecarThatIsNotXMPIsNeverOverwrittenAndTheChangeSaysSo() throws {
        let garbage = Data("not XMP at all\n".utf8)
        try garbage.write(to: URL(fileURLWithPath: sidecar))
        let library = try openLibrary()
        let asset = try onlyAsset(library)
        let failed = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        #expect(failed?.message.contains("the library keeps them, but cannot update the sidecar \(sidecar)") == true)
        #expect(try onlyAsset(library).isFavorite, "the change committed")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: sidecar)) == garbage, "the file is not the library's to replace")
        #expect(try library.database.fileJournal().isEmpty, "and it is not tried again at every open")
        _ = try openLibrary(scan: false)
    }
}
