import Foundation
import PhotosIngest
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
}
