import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosSidecars

@Suite struct SidecarFileTests {
    static let everything = SidecarState(
        localIdentifier: "0192F3A4-1B2C-7D3E-8F40-123456789ABC/L0/001", rating: 4, isFavorite: true, isHidden: false,
        creationDate: SidecarDate(year: 2024, month: 5, day: 1, hour: 10, minute: 30, utcOffsetSeconds: 7200),
        location: SidecarLocation(latitude: 48.8566, longitude: 2.3522, altitude: 35.2),
        albums: [
            SidecarAlbum(identifier: "A1/L0/040", title: "Trip & <Friends>"),
            SidecarAlbum(identifier: "B2/L0/040", title: nil),
        ],
        pair: SidecarPair(kind: .livePhoto, file: "IMG_1.MOV"),
        adjustment: SidecarAdjustment(
            formatIdentifier: "com.example.filters", formatVersion: "1.2", data: "edits/0192F3A4/adjustment.plist"))

    private func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func aNewSidecarHoldsEveryFieldAndReadsBackEqual() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let path = directory.path("IMG_1.JPG.xmp").path
        let written = try SidecarFile.write(Self.everything, to: path, expecting: .some(nil))
        #expect(written.state == Self.everything)
        let read = try #require(try SidecarFile.read(path))
        #expect(read.state == Self.everything)
        #expect(read.identity == written.identity)
        // Written again unchanged, the file is the same bytes.
        let first = try text(directory.path("IMG_1.JPG.xmp"))
        try SidecarFile.write(Self.everything, to: path)
        #expect(try text(directory.path("IMG_1.JPG.xmp")) == first)
        // Nothing else is left in the directory (no temporary file).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["IMG_1.JPG.xmp"])
    }

    @Test func noSidecarReadsAsNil() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        #expect(try SidecarFile.read(directory.path("IMG_1.JPG.xmp").path) == nil)
    }

    @Test func otherToolsFieldsAreRead() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let darktable = directory.path("IMG_1.CR2.xmp")
        try SidecarFixtures.darktable.write(to: darktable, atomically: false, encoding: .utf8)
        let fromDarktable = try #require(try SidecarFile.read(darktable.path))
        #expect(fromDarktable.state.rating == -1)
        #expect(
            fromDarktable.state.creationDate
                == SidecarDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, utcOffsetSeconds: nil))
        #expect(fromDarktable.state.isFavorite == nil)

        let digiKam = directory.path("IMG_2.JPG.xmp")
        try SidecarFixtures.digiKam.write(to: digiKam, atomically: false, encoding: .utf8)
        #expect(try SidecarFile.read(digiKam.path)?.state.rating == 3)
        // digiKam's other rating alone.
        let percentOnly = directory.path("IMG_5.JPG.xmp")
        try SidecarFixtures.digiKam.replacingOccurrences(of: "\n   xmp:Rating=\"3\"", with: "")
            .replacingOccurrences(of: "MicrosoftPhoto:Rating=\"50\"", with: "MicrosoftPhoto:Rating=\"75\"")
            .write(to: percentOnly, atomically: false, encoding: .utf8)
        #expect(try SidecarFile.read(percentOnly.path)?.state.rating == 4)

        let lightroom = directory.path("IMG_3.xmp")
        try SidecarFixtures.lightroom.write(to: lightroom, atomically: false, encoding: .utf8)
        let fromLightroom = try #require(try SidecarFile.read(lightroom.path))
        #expect(fromLightroom.state.rating == 4)
        #expect(
            fromLightroom.state.creationDate
                == SidecarDate(year: 2023, month: 7, day: 14, hour: 18, minute: 22, second: 5, utcOffsetSeconds: 7200))
        #expect(fromLightroom.state.location == SidecarLocation(latitude: 43 + 17.973 / 60, longitude: 5 + 22.362 / 60))
        #expect(fromLightroom.sidecarForExtension == "CR2")

        // PhotoPrism's favorite, as F-Stop writes it.
        let fstop = directory.path("IMG_4.JPG.xmp")
        try """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:fstop="http://www.fstopapp.com/xmp/" fstop:favorite="1"/>
        </rdf:RDF></x:xmpmeta>
        """.write(to: fstop, atomically: false, encoding: .utf8)
        #expect(try SidecarFile.read(fstop.path)?.state.isFavorite == true)
    }

    /// The state the library would write after reading `path`, changed by edit number `step`.
    private func edited(_ state: SidecarState, step: Int) -> SidecarState {
        var state = state
        state.localIdentifier = "0192F3A4-1B2C-7D3E-8F40-123456789ABC/L0/001"
        state.isFavorite = step % 2 == 0
        state.rating = step % 6
        state.isHidden = step % 3 == 0
        if step % 4 == 1 { state.albums.insert(SidecarAlbum(identifier: "A\(step)/L0/040", title: "Album \(step)")) }
        if step == 7 {
            state.creationDate = SidecarDate(year: 2020, month: 2, day: 29, hour: 12, utcOffsetSeconds: -18000)
        }
        if step == 8 { state.location = SidecarLocation(latitude: -33.8568, longitude: 151.2153, altitude: -3) }
        if step == 9 { state.adjustment = SidecarAdjustment(formatIdentifier: "f", formatVersion: "1", data: "d") }
        return state
    }

    @Test(arguments: [
        ("darktable", SidecarFixtures.darktable, SidecarFixtures.darktableOwned),
        ("digiKam", SidecarFixtures.digiKam, SidecarFixtures.digiKamOwned),
        ("Lightroom", SidecarFixtures.lightroom, SidecarFixtures.lightroomOwned),
    ])
    func anotherToolsSidecarKeepsEveryOtherByteThroughTenEdits(tool: String, fixture: String, owned: [String])
        async throws
    {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let url = directory.path("IMG_1.CR2.xmp")
        try fixture.write(to: url, atomically: false, encoding: .utf8)
        // The first write removes the library's properties from where the tool wrote them (and only
        // those): everything else is the tool's text, byte for byte, from the first write on.
        var expected = fixture
        for property in owned {
            #expect(expected.contains(property), "\(tool): \(property)")
            expected = expected.replacingOccurrences(of: property, with: "")
        }
        for step in 1...10 {
            let before = try #require(try SidecarFile.read(url.path))
            let state = edited(before.state, step: step)
            try SidecarFile.write(state, to: url.path, expecting: .some(before.identity))
            let after = try text(url)
            #expect(SidecarFixtures.otherToolsPart(of: after) == expected, "\(tool), edit \(step)")
            #expect(try SidecarFile.read(url.path)?.state == state, "\(tool), edit \(step)")
        }
        // exiftool reads the tool's properties and the library's from the result.
        let tags = try await SidecarFixtures.exiftoolTags(url.path, structures: true)
        #expect(tags["XMP-xmp:Rating"] as? Int == 4)  // step 10
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        switch tool {
        case "darktable":
            let history = tags["XMP-darktable:History"] as? [[String: Any]]
            #expect(history?.compactMap { $0["Operation"] as? String } == ["rawprepare", "exposure"])
            // The title's second language, which Exempi's own serializer would have lost.
            #expect(tags["XMP-dc:Title-fr-FR"] as? String == "Soir")
        case "digiKam":
            #expect(tags["XMP-digiKam:TagsList"] as? [String] == ["Family/Anna", "Places/Paris"])
            let regions = tags["XMP-mwg-rs:RegionInfo"] as? [String: Any]
            let list = regions?["RegionList"] as? [[String: Any]]
            #expect(list?.first?["Name"] as? String == "Anna")
        default:
            #expect(tags["XMP-crs:Exposure2012"] as? String == "+0.35")
            #expect(tags["XMP-photoshop:SidecarForExtension"] as? String == "CR2")
        }
    }

    @Test func aRatingExiftoolWritesIsRead() async throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let path = directory.path("IMG_1.JPG.xmp").path
        try SidecarFile.write(SidecarState(rating: 1, isFavorite: true), to: path)
        _ = try await SidecarFixtures.exiftool(["-overwrite_original", "-XMP:Rating=4", path])
        let read = try #require(try SidecarFile.read(path))
        #expect(read.state.rating == 4)
        #expect(read.state.isFavorite == true)
        // And after exiftool rewrote the file in its own layout, the library writes into it.
        var state = read.state
        state.isFavorite = false
        try SidecarFile.write(state, to: path, expecting: .some(read.identity))
        let tags = try await SidecarFixtures.exiftoolTags(path)
        #expect(tags["XMP-xmp:Rating"] as? Int == 4)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == false)
        #expect(tags["XMP-fstop:Favorite"] as? Int == 0)
    }

    @Test func aFavoriteAndRatingTheLibraryWritesAreReadByExiftool() async throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let path = directory.path("IMG_1.JPG.xmp").path
        try SidecarFile.write(Self.everything, to: path)
        let tags = try await SidecarFixtures.exiftoolTags(path, structures: true)
        #expect(tags["XMP-xmp:Rating"] as? Int == 4)
        #expect(tags["XMP-fstop:Favorite"] as? Int == 1)
        #expect(tags["XMP-photosd:Favorite"] as? Bool == true)
        #expect(tags["XMP-photosd:Hidden"] as? Bool == false)
        #expect(tags["XMP-photosd:LocalIdentifier"] as? String == Self.everything.localIdentifier)
        #expect(tags["XMP-exif:DateTimeOriginal"] as? String == "2024:05:01 10:30:00+02:00")
        #expect(tags["XMP-exif:GPSAltitude"] as? String == "35.2 m")
        let albums = tags["XMP-photosd:Albums"] as? [[String: Any]]
        #expect(albums?.compactMap { $0["Identifier"] as? String } == ["A1/L0/040", "B2/L0/040"])
        #expect(albums?.compactMap { $0["Title"] as? String } == ["Trip & <Friends>"])
        #expect((tags["XMP-photosd:Pair"] as? [String: Any])?["File"] as? String == "IMG_1.MOV")
        #expect((tags["XMP-photosd:Pair"] as? [String: Any])?["Kind"] as? String == "livePhoto")
        let adjustment = tags["XMP-photosd:Adjustment"] as? [String: Any]
        #expect(adjustment?["FormatIdentifier"] as? String == "com.example.filters")
        #expect(adjustment?["Data"] as? String == "edits/0192F3A4/adjustment.plist")
        // A rejected photo, the way darktable reads it.
        try SidecarFile.write(SidecarState(rating: -1), to: path)
        #expect(try await SidecarFixtures.exiftoolTags(path)["XMP-xmp:Rating"] as? Int == -1)
    }

    static let badSidecars: [(String, String)] = [
        ("not XML", "IMG_1 rating 5, favorite"),
        ("empty", ""),
        ("truncated", String(SidecarFixtures.darktable.prefix(1500))),
        ("no RDF", "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>"),
        ("a DOCTYPE", "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>\n" + SidecarFixtures.lightroom),
        (
            "nesting 300 deep",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                + String(repeating: "<rdf:Description rdf:about=\"\" xmlns:f=\"http://f/\"><f:a>", count: 150)
                + String(repeating: "</f:a></rdf:Description>", count: 150) + "</rdf:RDF></x:xmpmeta>"
        ),
        ("an undeclared prefix", SidecarFixtures.lightroom.replacingOccurrences(of: "xmlns:crs=", with: "xmlns:crx=")),
    ]

    @Test(arguments: badSidecars)
    func badXMPIsAnErrorNamingTheFileAndIsNeverOverwritten(name: String, content: String) throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let url = directory.path("IMG_1.JPG.xmp")
        try content.write(to: url, atomically: false, encoding: .utf8)
        let readError = #expect(throws: SidecarError.self) { try SidecarFile.read(url.path) }
        #expect(readError?.path == url.path, "\(name)")
        #expect(readError.map { "\($0)".contains(url.path) } == true)
        #expect(
            readError.map { [.notXMP, .unsupported].contains($0.code) } == true,
            "\(name): \(String(describing: readError))")
        let writeError = #expect(throws: SidecarError.self) {
            try SidecarFile.write(SidecarState(isFavorite: true), to: url.path)
        }
        #expect(writeError?.path == url.path)
        #expect(try text(url) == content, "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["IMG_1.JPG.xmp"])
    }

    @Test func aHugeFileIsRefusedUnread() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let url = directory.path("IMG_1.JPG.xmp")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(SidecarFile.maximumSize + 1))
        try handle.close()
        let error = #expect(throws: SidecarError.self) { try SidecarFile.read(url.path) }
        #expect(error?.code == .tooLarge)
        #expect(error?.path == url.path)
        #expect(throws: SidecarError.self) { try SidecarFile.write(SidecarState(rating: 1), to: url.path) }
    }

    @Test func onlySidecarsAreWrittenNeverAPhoto() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let photo = directory.path("IMG_1.JPG")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: photo)
        let error = #expect(throws: SidecarError.self) {
            try SidecarFile.write(SidecarState(rating: 3), to: photo.path)
        }
        #expect(error?.code == .notASidecar)
        #expect(try Data(contentsOf: photo) == Data([0xFF, 0xD8, 0xFF, 0xD9]))
    }

    @Test func aSidecarChangedSinceItWasReadIsNotOverwritten() async throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let path = directory.path("IMG_1.JPG.xmp").path
        try SidecarFile.write(SidecarState(rating: 2), to: path)
        let read = try #require(try SidecarFile.read(path))
        _ = try await SidecarFixtures.exiftool(["-overwrite_original", "-XMP:Rating=5", path])
        let error = #expect(throws: SidecarError.self) {
            try SidecarFile.write(SidecarState(rating: 3), to: path, expecting: .some(read.identity))
        }
        #expect(error?.code == .changedWhileWriting)
        #expect(try SidecarFile.read(path)?.state.rating == 5)
        // Expecting no sidecar where there is one is the same refusal.
        #expect(throws: SidecarError.self) {
            try SidecarFile.write(SidecarState(rating: 3), to: path, expecting: .some(nil))
        }
    }

    @Test func aSidecarKeepsItsPermissions() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let path = directory.path("IMG_1.JPG.xmp").path
        try SidecarFile.write(SidecarState(rating: 2), to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try SidecarFile.write(SidecarState(rating: 3), to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    /// Not a timed test: `PHOTOSD_MEASURE_SIDECARS=1 swift test --filter favoriteToggleTime` prints
    /// the time one favorite toggle takes to reach a sidecar on disk (read, merge, write, fsync, rename).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PHOTOSD_MEASURE_SIDECARS"] != nil))
    func favoriteToggleTime() throws {
        let directory = try TemporaryDirectory(prefix: "sidecars")
        let url = directory.path("IMG_1.CR2.xmp")
        try SidecarFixtures.darktable.write(to: url, atomically: false, encoding: .utf8)
        var times: [Double] = []
        for step in 0..<1000 {
            let start = ContinuousClock.now
            let read = try #require(try SidecarFile.read(url.path))
            var state = read.state
            state.isFavorite = step % 2 == 0
            try SidecarFile.write(state, to: url.path, expecting: .some(read.identity))
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        times.sort()
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        print(
            "favorite toggle to a sidecar on disk (\(build)): p50 \(times[499]) ms, p99 \(times[989]) ms, max \(times[999]) ms"
        )
    }
}
