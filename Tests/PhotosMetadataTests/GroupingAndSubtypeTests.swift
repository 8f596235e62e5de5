import Foundation
import PhotosMetadata
import Testing

/// The facts the ingest pipeline groups and classifies by, each from a small file built to hold
/// exactly one piece of evidence. The corpus comparison (`CorpusMetadataTests`) checks the same
/// facts on real files.
@Suite struct GroupingAndSubtypeTests {
    static let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!)

    static func extract(_ bytes: [UInt8], name: String) throws -> FileMetadata {
        let directory = try TemporaryDirectory()
        return try extractor.extract(path: directory.write(bytes, to: name))
    }

    /// A JPEG whose EXIF IFD holds `exif`, after some padding so that offsets relative to the
    /// maker note and to the TIFF header differ.
    static func jpeg(ifd0: [UInt16: TIFFBuilder.Value] = [:], exif: [UInt16: TIFFBuilder.Value], xmp: String? = nil)
        -> [UInt8]
    {
        var root = ifd0
        root[0x8769] = .directory(exif, padding: 100)
        return JPEGBuilder.jpeg(width: 40, height: 30, exif: TIFFBuilder().build(root), xmp: xmp)
    }

    static func xmp(_ body: String) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" \(body)</rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    // MARK: Apple and Canon maker notes

    @Test func appleMakerNoteGivesLivePhotoAndBurstIdentifiersFromOffsetsRelativeToTheNote() throws {
        let note = AppleMakerNoteBuilder.note([
            0x0001: .slong(14),
            0x000B: .ascii("5D0C3A4E-8B1F-4C52-9E0A-6F2B7C1D3E41"),
            0x0011: .ascii("570F1469-09C7-4E50-9875-05F21D5BD166"),
        ])
        let bytes = Self.jpeg(ifd0: [0x010F: .ascii("Apple")], exif: [0x927C: .undefined(note)])

        let metadata = try Self.extract(bytes, name: "IMG_0001.JPG")

        #expect(metadata.contentIdentifier == "570F1469-09C7-4E50-9875-05F21D5BD166")
        #expect(metadata.burstIdentifier == "5D0C3A4E-8B1F-4C52-9E0A-6F2B7C1D3E41")
        #expect(metadata.isHDR == nil)
        #expect(metadata.make == "Apple")
    }

    @Test(arguments: [(3, true), (4, true), (1, false), (0, false)])
    func appleHDRImageTypeThreeOrFourMeansHDR(type: Int32, isHDR: Bool) throws {
        let note = AppleMakerNoteBuilder.note([0x000A: .slong(type)])
        let metadata = try Self.extract(Self.jpeg(exif: [0x927C: .undefined(note)]), name: "hdr.jpg")
        #expect((metadata.isHDR == true) == isHDR)
    }

    @Test func makerNoteWhoseValuesPointOutsideTheBlockIsIgnoredAndTheRestIsRead() throws {
        var note = AppleMakerNoteBuilder.note([0x0011: .ascii("570F1469-09C7-4E50-9875-05F21D5BD166")])
        // The single entry's value offset (bytes 24–27 of the note) now points far past the block.
        note.replaceSubrange(24..<28, with: [0x7F, 0xFF, 0xFF, 0x00])
        let bytes = Self.jpeg(exif: [0x927C: .undefined(note), 0x9003: .ascii("2020:01:02 03:04:05")])

        let metadata = try Self.extract(bytes, name: "broken-note.jpg")

        #expect(metadata.contentIdentifier == nil)
        #expect(metadata.creationDate == Date(timeIntervalSince1970: 1_577_934_245))
    }

    // 51 the PowerShots' HDR scene; 84, 85 and 93 the 80D's HDR Art filters; 83 a night shot.
    @Test(arguments: [(51, true), (84, true), (85, true), (93, true), (1, false), (83, false)])
    func canonHDRSceneModeMeansHDR(easyMode: UInt16, isHDR: Bool) throws {
        // CameraSettings: element 0 is the array's byte length, element 11 EasyMode.
        var settings = [UInt16](repeating: 0, count: 20)
        settings[0] = 40
        settings[11] = easyMode
        let bytes = Self.jpeg(
            ifd0: [0x010F: .ascii("Canon")], exif: [0x927C: .makerNote([0x0001: .shorts(settings)])])

        let metadata = try Self.extract(bytes, name: "IMG_0001.JPG")

        #expect((metadata.isHDR == true) == isHDR)
    }

    // MARK: Screenshots and panoramas

    @Test func iOSScreenshotCommentInExifMarksAScreenshot() throws {
        let comment = Array("ASCII".utf8) + [0, 0, 0] + Array("Screenshot".utf8)
        let metadata = try Self.extract(Self.jpeg(exif: [0x9286: .undefined(comment)]), name: "a.jpg")
        #expect(metadata.isScreenshot == true)
    }

    @Test func iOSScreenshotCommentInXMPLanguageAlternativeMarksAScreenshot() throws {
        let xmp = Self.xmp(
            """
            xmlns:exif="http://ns.adobe.com/exif/1.0/"><exif:UserComment><rdf:Alt>
            <rdf:li xml:lang="x-default">Screenshot</rdf:li></rdf:Alt></exif:UserComment>
            """)
        let metadata = try Self.extract(JPEGBuilder.jpeg(width: 4, height: 4, xmp: xmp), name: "b.jpg")
        #expect(metadata.isScreenshot == true)
    }

    @Test func anotherUserCommentIsNotAScreenshot() throws {
        let comment = Array("ASCII".utf8) + [0, 0, 0] + Array("Screenshot of the sea".utf8)
        let metadata = try Self.extract(Self.jpeg(exif: [0x9286: .undefined(comment)]), name: "c.jpg")
        #expect(metadata.isScreenshot == nil)
    }

    @Test(arguments: [
        ("GPano:UsePanoramaViewer=\"True\" GPano:ProjectionType=\"equirectangular\">", true),
        (">\n<GPano:ProjectionType>cylindrical</GPano:ProjectionType>", true),
        ("GPano:UsePanoramaViewer=\"False\" GPano:ProjectionType=\"equirectangular\">", false),
        ("GPano:PoseHeadingDegrees=\"0\">", false),
    ])
    func photoSphereXMPMarksAPanorama(attributes: String, isPanorama: Bool) throws {
        let xmp = Self.xmp("xmlns:GPano=\"http://ns.google.com/photos/1.0/panorama/\" " + attributes)
        let metadata = try Self.extract(JPEGBuilder.jpeg(width: 200, height: 100, xmp: xmp), name: "PANO.jpg")
        #expect((metadata.isPanorama == true) == isPanorama)
    }

    @Test(arguments: [("Apple", true), ("OtherMaker", false)])
    func appleCustomRenderedSixMeansPanorama(make: String, isPanorama: Bool) throws {
        let bytes = Self.jpeg(ifd0: [0x010F: .ascii(make)], exif: [0xA401: .short(6)])
        let metadata = try Self.extract(bytes, name: "IMG_0002.JPG")
        #expect((metadata.isPanorama == true) == isPanorama)
    }

    // MARK: Motion photos

    static let movie = MovieBuilder.movie(samples: [(30, 20)])

    @Test func googleMotionPhotoJPEGLocatesTheMovieThatEndsTheFile() throws {
        let xmp = Self.xmp(
            """
            xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
            xmlns:Container="http://ns.google.com/photos/1.0/container/"
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
            GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary"
            Item:Length="0" Item:Padding="0"/></rdf:li>
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto"
            Item:Length="\(Self.movie.count)" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory>
            """)
        let still = JPEGBuilder.jpeg(width: 4, height: 3, xmp: xmp)

        let metadata = try Self.extract(still + Self.movie, name: "PXL_MP.jpg")

        #expect(metadata.embeddedVideoOffset == still.count)
        #expect(metadata.embeddedVideoLength == Self.movie.count)
        #expect(metadata.pixelWidth == 4)
    }

    @Test func olderMicroVideoOffsetCountsFromTheEndOfTheFile() throws {
        let xmp = Self.xmp(
            """
            xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1"
            GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\(Self.movie.count)">
            """)
        let still = JPEGBuilder.jpeg(width: 4, height: 3, xmp: xmp)

        let metadata = try Self.extract(still + Self.movie, name: "MVIMG.jpg")

        #expect(metadata.embeddedVideoOffset == still.count)
        #expect(metadata.embeddedVideoLength == Self.movie.count)
    }

    @Test func motionPhotoTagsWithoutAMovieWhereTheySayAreIgnored() throws {
        let xmp = Self.xmp(
            """
            xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1"
            GCamera:MicroVideoOffset="64">
            """)
        let trailer = [UInt8](repeating: 0x55, count: 64)
        let metadata = try Self.extract(JPEGBuilder.jpeg(width: 4, height: 3, xmp: xmp) + trailer, name: "x.jpg")
        #expect(metadata.embeddedVideoOffset == nil && metadata.embeddedVideoLength == nil)
    }

    // MARK: Animation

    @Test(arguments: [(1, false), (2, true), (3, true)])
    func gifIsAnimatedWhenItHoldsMoreThanOneImage(images: Int, isAnimated: Bool) throws {
        // Logical screen 2×2 with a 2-colour global table, then `images` images of one sub-block.
        var gif = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        gif += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]  // a graphic control extension
        for _ in 0..<images {
            gif += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0] + [2, 2, 0x44, 0x01, 0]
        }
        gif += [0x3B]
        let metadata = try Self.extract(gif, name: "a.gif")
        #expect(metadata.pixelWidth == 2)
        #expect((metadata.isAnimated == true) == isAnimated)
    }

    @Test(arguments: [(1, false), (2, true)])
    func pngIsAnimatedWhenItsAnimationControlCountsMoreThanOneFrame(frames: UInt32, isAnimated: Bool) throws {
        let metadata = try Self.extract(PNGBuilder.png(width: 3, height: 2, animationFrames: frames), name: "a.png")
        #expect(metadata.pixelWidth == 3)
        #expect((metadata.isAnimated == true) == isAnimated)
    }

    // MARK: Movies

    @Test func movieFrameRateIsSampleCountOverTrackDuration() throws {
        // 44 frames of 20 ticks, one of 21, 75 of 20, at 600 ticks a second: ExifTool's 29.9875.
        let bytes = MovieBuilder.movie(samples: [(44, 20), (1, 21), (75, 20)])
        let metadata = try Self.extract(bytes, name: "IMG_0420.MOV")
        #expect(abs(try #require(metadata.frameRate) - 29.987_505) < 1e-4)
        #expect(metadata.isHighFrameRate == nil)
    }

    @Test(arguments: [(nil, true), (0, true), (1, false)] as [(Int8?, Bool)])
    func highFrameRateMovieIsSlowMotionUnlessMarkedForFullSpeedPlayback(intent: Int8?, isSlowMotion: Bool) throws {
        let keys = intent.map { ["com.apple.quicktime.full-frame-rate-playback-intent": $0] } ?? [:]
        let bytes = MovieBuilder.movie(timescale: 24_000, samples: [(240, 100)], integerKeys: keys)

        let metadata = try Self.extract(bytes, name: "IMG_7001.MOV")

        #expect(metadata.frameRate == 240)
        #expect((metadata.isHighFrameRate == true) == isSlowMotion)
    }

    @Test func liveMovieCarriesItsContentIdentifierInQuickTimeKeys() throws {
        let bytes = MovieBuilder.movie(
            samples: [(45, 20)], textKeys: ["com.apple.quicktime.content.identifier": "570F1469-09C7-4E50"])
        let metadata = try Self.extract(bytes, name: "IMG_5195.MOV")
        #expect(metadata.contentIdentifier == "570F1469-09C7-4E50")
        #expect(metadata.frameRate == 30)
    }
}

/// The same facts on the real corpus files that have them, beyond what truth.json records.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json"))
struct CorpusGroupingTests {
    static let extractor = MetadataExtractor()

    static func extract(_ path: String) throws -> FileMetadata {
        try extractor.extract(path: Corpus.directory.appendingPathComponent(path).path)
    }

    @Test func liveStillAndMovieShareTheirIdentifier() throws {
        let still = try Self.extract("Phone/DCIM/100APPLE/IMG_5195.HEIC")
        let movie = try Self.extract("Phone/DCIM/100APPLE/IMG_5195.MOV")
        #expect(still.contentIdentifier != nil)
        #expect(still.contentIdentifier == movie.contentIdentifier)
    }

    @Test func samsungMotionPhotoHEIFLocatesTheMovieInItsBox() throws {
        let metadata = try Self.extract("Phone/DCIM/Camera/20230308_123105.heic")
        // ExifTool: MotionPhotoVideo, 2 193 658 bytes, in the `mpvd` box at offset 1 455 403.
        #expect(metadata.embeddedVideoOffset == 1_455_411)
        #expect(metadata.embeddedVideoLength == 2_193_658)
    }

    /// truth.json has no animation subtype; its notes name the animated files.
    @Test func exactlyTheFilesTheTruthCallsAnimatedAreAnimated() throws {
        var animated: [String] = []
        for record in Corpus.ingestable where record.kind == "image" {
            let metadata = try Self.extract(record.path)
            let expected = record.note?.lowercased().contains("animated") == true
            #expect((metadata.isAnimated == true) == expected, "\(record.path)")
            if metadata.isAnimated == true { animated.append(record.path) }
        }
        #expect(animated.sorted() == ["Downloads/Animation Lossy.webp", "Downloads/pythagoras.gif"])
    }
}
