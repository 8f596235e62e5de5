import Foundation
import PhotosTestSupport
import Testing

/// `photos favorite` and `photos rate`: the change, and which sidecar it went to.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct SidecarCLITests {
    @Test func favoriteAndRateSayWhichSidecarTheyWrote() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-sidecar")
        let written = directory.path("Written").path
        let kept = directory.path("Kept").path
        for folder in [written, kept] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: try #require(Corpus.file("Test charts/Orientation/landscape_1.jpg")),
                to: URL(fileURLWithPath: folder + "/IMG_1.jpg"))
        }
        let config = directory.path("config.toml").path
        try Data(
            """
            library = "\(directory.path("library.sqlite").path)"
            [[roots]]
            path = "\(written)"
            write = "sidecars"
            [[roots]]
            path = "\(kept)"

            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        func photos(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await offPool { try BuiltProducts.run("photos", arguments + ["--config", config]) }
        }
        #expect(try await photos(["scan", written, kept]).status == 0)

        let favorite = try await photos(["favorite", written + "/IMG_1.jpg", kept + "/IMG_1.jpg"])
        #expect(favorite.status == 0, "\(favorite.stderr)")
        let lines = favorite.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix(": favorite, written to \(written)/IMG_1.jpg.xmp") == true, "\(favorite.stdout)")
        #expect(lines.last?.hasSuffix(": favorite, in the library only (its root's write policy is \"none\")") == true)
        #expect(try String(contentsOfFile: written + "/IMG_1.jpg.xmp", encoding: .utf8).contains("<fstop:favorite>1<"))
        #expect(!FileManager.default.fileExists(atPath: kept + "/IMG_1.jpg.xmp"))

        let rated = try await photos(["rate", written + "/IMG_1.jpg", "3"])
        #expect(rated.stdout.hasSuffix(": 3 stars, written to \(written)/IMG_1.jpg.xmp\n"), "\(rated.stdout)")
        #expect(try String(contentsOfFile: written + "/IMG_1.jpg.xmp", encoding: .utf8).contains("<xmp:Rating>3<"))
        let one = try await photos(["rate", written + "/IMG_1.jpg", "1"])
        #expect(one.stdout.hasSuffix(": 1 star, written to \(written)/IMG_1.jpg.xmp\n"), "\(one.stdout)")
        _ = try await photos(["rate", written + "/IMG_1.jpg", "3"])
        let off = try await photos(["favorite", "--off", written + "/IMG_1.jpg"])
        #expect(off.stdout.hasSuffix(": not a favorite, written to \(written)/IMG_1.jpg.xmp\n"), "\(off.stdout)")
        #expect(try String(contentsOfFile: written + "/IMG_1.jpg.xmp", encoding: .utf8).contains("<fstop:favorite>0<"))

        let json = try await photos(["rate", "--json", kept + "/IMG_1.jpg", "5"])
        let line = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(line?["change"] as? String == "5 stars" && line?["sidecar"] == nil, "\(json.stdout)")

        let wrong = try await photos(["rate", written + "/IMG_1.jpg", "7"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("stars: 7 is not a rating; give 0 (none) to 5"), "\(wrong.stderr)")
        let unknown = try await photos(["favorite", directory.path("nothing.jpg").path])
        #expect(unknown.status != 0 && !unknown.stderr.isEmpty)

        // The photo moved away by another program, not scanned since: no sidecar is said written,
        // and the next scan writes it beside the photo where it is now.
        let identifier = try #require(lines.first.map { String($0.prefix { $0 != ":" }) })
        #expect(rename(written + "/IMG_1.jpg", written + "/IMG_2.jpg") == 0)
        let away = try await photos(["favorite", identifier])
        #expect(
            away.stdout == "\(identifier): favorite, in the library; \(written)/IMG_1.jpg is not there now, so its "
                + "sidecar is written once the photo is found again\n", "\(away.stdout)")
        #expect(try await photos(["scan", written]).status == 0)
        #expect(try String(contentsOfFile: written + "/IMG_2.jpg.xmp", encoding: .utf8).contains("<fstop:favorite>1<"))
    }

    /// `photos scan` of a tree it scanned before takes what another tool wrote into a sidecar
    /// beside a known photo since (new there, then changed), and leaves it alone when it has not
    /// changed; under a root the config lets the library write nothing, the sidecar is never written.
    @Test func aRescanTakesASidecarAnotherToolWroteBesideAKnownPhoto() async throws {
        let directory = try TemporaryDirectory(prefix: "photos-cli-sidecar-scan")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Test charts/Orientation/landscape_1.jpg")),
            to: URL(fileURLWithPath: root + "/IMG_1.jpg"))
        let library = directory.path("library.sqlite").path
        func photos(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await offPool { try BuiltProducts.run("photos", arguments + ["--library", library]) }
        }
        func rating() async throws -> Int? {
            let listed = try await photos(["assets", "--json", "--no-daemon"])
            let line = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
            return line?["rating"] as? Int
        }
        #expect(try await photos(["scan", root]).status == 0)
        #expect(try await rating() == 0)

        let sidecar = root + "/IMG_1.jpg.xmp"
        try Data(Self.sidecar(rating: 4).utf8).write(to: URL(fileURLWithPath: sidecar))
        let rescan = try await photos(["scan", root])
        #expect(rescan.status == 0, "\(rescan.stderr)")
        #expect(try await rating() == 4, "a sidecar new beside a known photo is taken")

        try Data(Self.sidecar(rating: 2).utf8).write(to: URL(fileURLWithPath: sidecar))
        #expect(try await photos(["scan", root]).status == 0)
        #expect(try await rating() == 2, "a sidecar changed since is taken")
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8) == Self.sidecar(rating: 2), "never written")
    }

    static func sidecar(rating: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/>
         </rdf:RDF>
        </x:xmpmeta>
        """
    }
}
