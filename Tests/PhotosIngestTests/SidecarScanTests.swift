import Foundation
import PhotosIngest
import PhotosSidecars
import PhotosStore
import PhotosTestSupport
import Testing

/// Which XMP sidecars a scan hands back to be merged (`ScanReport.sidecarsToSync`): those the
/// library has not synced as they are now, never those of photos the scan itself ingests.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct SidecarScanTests {
    let directory: TemporaryDirectory
    let root: String
    let database: LibraryDatabase

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-sidecar-scan")
        root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        database = try LibraryDatabase(path: directory.path("library.sqlite").path)
    }

    func put(_ name: String) throws {
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Test charts/Orientation/landscape_1.jpg")),
            to: URL(fileURLWithPath: root + "/" + name))
    }

    func writeSidecar(_ name: String, rating: Int) throws {
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/>
            </rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: URL(fileURLWithPath: root + "/" + name))
    }

    func scan() throws -> ScanReport {
        try FolderScanner(database: database, quietTime: 0).scan(roots: [root])
    }

    @Test func aScanHandsBackOnlyTheSidecarsTheLibraryHasNotSynced() throws {
        try put("a/IMG_1.jpg")
        try writeSidecar("a/IMG_1.jpg.xmp", rating: 5)
        try put("a/IMG_2.jpg")
        try writeSidecar("a/orphan.xmp", rating: 1)

        let first = try scan()
        #expect(first.ingested == 2 && first.skipped == 2, "\(first)")
        #expect(first.sidecarsToSync == [root + "/a/orphan.xmp"], "the new photo's sidecar is taken at its ingest")

        let quiet = try scan()
        #expect(quiet.sidecarsToSync == [root + "/a/orphan.xmp"], "a sidecar of no photo is looked at again")

        // Another tool writes a sidecar beside the known IMG_2 (Lightroom's name for it) and edits IMG_1's.
        try writeSidecar("a/IMG_2.xmp", rating: 3)
        try writeSidecar("a/IMG_1.jpg.xmp", rating: 4)
        let later = try scan()
        #expect(
            Set(later.sidecarsToSync) == [root + "/a/IMG_2.xmp", root + "/a/IMG_1.jpg.xmp", root + "/a/orphan.xmp"],
            "\(later.sidecarsToSync)")
        #expect(later.unchanged == 2 && later.ingested == 0 && later.skipped == 3)

        // Once merged, they are synced as they are: not handed back again.
        let sync = SidecarSync(database: database)
        for path in later.sidecarsToSync { _ = try sync.syncChangedSidecar(at: path) { _ in false } }
        #expect(try scan().sidecarsToSync == [root + "/a/orphan.xmp"])

        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(later)) as? [String: Any]
        #expect(json?["sidecarsToSync"] == nil, "not part of the JSON report")
    }

    /// A photo copied with its sidecar (`cp -p IMG_1.jpg IMG_1.jpg.xmp ../b/`) is a new asset, whose
    /// sidecar names the original's identifier: the scan hands it back, and its sync writes the
    /// copy's own identifier there, keeping the rating; the original's sidecar is left as it was.
    @Test func aSidecarCopiedWithItsPhotoIsSyncedToNameTheCopy() throws {
        let original = "00000000-0000-4000-8000-00000000C0DE/L0/001"
        try put("a/IMG_1.jpg")
        try SidecarFile.write(SidecarState(localIdentifier: original, rating: 4), to: root + "/a/IMG_1.jpg.xmp")
        _ = try scan()
        #expect(try database.assetIdentifiers(ofFilesAt: [root + "/a/IMG_1.jpg"]) == [root + "/a/IMG_1.jpg": original])
        let originalSidecar = try Data(contentsOf: URL(fileURLWithPath: root + "/a/IMG_1.jpg.xmp"))

        try FileManager.default.createDirectory(atPath: root + "/b", withIntermediateDirectories: true)
        for name in ["IMG_1.jpg", "IMG_1.jpg.xmp"] {
            try FileManager.default.copyItem(atPath: root + "/a/" + name, toPath: root + "/b/" + name)
        }
        let report = try scan()
        #expect(report.ingested == 1 && report.sidecarsToSync == [root + "/b/IMG_1.jpg.xmp"], "\(report)")
        let copy = try #require(
            try database.assetIdentifiers(ofFilesAt: [root + "/b/IMG_1.jpg"])[root + "/b/IMG_1.jpg"])
        #expect(copy != original)

        let sync = SidecarSync(database: database)
        let outcomes = try sync.syncChangedSidecar(at: root + "/b/IMG_1.jpg.xmp") { _ in true }
        #expect(outcomes.map(\.wrote) == [true])
        let written = try #require(try SidecarFile.read(root + "/b/IMG_1.jpg.xmp")).state
        #expect(written.localIdentifier == copy && written.rating == 4)
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/a/IMG_1.jpg.xmp")) == originalSidecar)
        #expect(try scan().sidecarsToSync.isEmpty, "synced: not handed back again")
    }
}
