import Foundation
import PhotosImaging
import PhotosTestSupport
import Testing

/// Every video of the corpus read by FFmpeg, against `truth.json`, and its poster frame.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and ../shared/truth.json"))
struct VideoRenderingTests {
    struct Record: Decodable, CustomTestStringConvertible {
        let path: String
        let kind: String
        let expect: String
        let width: Int?
        let height: Int?
        let duration_s: Double?
        let fps: Double?

        var testDescription: String { path }
    }

    static let videos: [Record] = {
        guard let root = Corpus.root,
            let data = try? Data(contentsOf: root.deletingLastPathComponent().appendingPathComponent("truth.json")),
            let records = try? JSONDecoder().decode([Record].self, from: data)
        else { return [] }
        return records.filter { $0.kind == "video" && $0.expect == "ingest" }
    }()

    let renderer = ImageRenderer()

    @Test func theCorpusHasVideos() {
        #expect(Self.videos.count >= 10, "truth.json lists \(Self.videos.count) videos")
    }

    @Test(arguments: videos)
    func tracksMatchTheOracle(record: Record) throws {
        let info = try VideoInfo(fileAt: Corpus.file(record.path)!.path)
        let video = try #require(info.primaryVideo)
        #expect(video.kind == .video)
        #expect(video.displaySize == PixelSize(width: record.width!, height: record.height!))
        // ExifTool's duration is the video track's (an AVI's audio can run longer).
        if let duration = record.duration_s {
            let ours = try #require(video.duration ?? info.duration)
            #expect(abs(ours - duration) < 0.05, "duration \(ours), truth \(duration)")
        }
        if let fps = record.fps {
            #expect(abs(video.frameRate - fps) < 0.1, "frame rate \(video.frameRate), truth \(fps)")
        }
        #expect(Set(info.tracks.map(\.identifier)).count == info.tracks.count, "identifiers are unique")
    }

    @Test(arguments: videos)
    func posterFrameIsUprightAtTheDisplayedSize(record: Record) throws {
        let path = Corpus.file(record.path)!.path
        let displayed = PixelSize(width: record.width!, height: record.height!)
        let whole = try renderer.render(videoAt: path, ImageRequest())
        #expect(whole.size == displayed)
        let box = PixelSize(width: 96, height: 96)
        let fitted = try renderer.render(videoAt: path, ImageRequest(target: box))
        #expect(fitted.size == ImageGeometry.scaled(displayed, into: box, fill: false))
        let filled = try renderer.render(videoAt: path, ImageRequest(target: box, fill: true))
        #expect(filled.size == ImageGeometry.scaled(displayed, into: box, fill: true))
        #expect(try renderer.header(of: fitted.data).size == fitted.size, "the JPEG holds what it says")
    }

    /// The corpus' Live Photo movie was made from its still: its first frame is the still's picture.
    @Test func posterFrameShowsThePicture() throws {
        let request = ImageRequest(target: PixelSize(width: 96, height: 96))
        let frame = try renderer.render(videoAt: Corpus.file("Phone/DCIM/100APPLE/IMG_5195.MOV")!.path, request)
        let still = try renderer.render(fileAt: Corpus.file("Phone/DCIM/100APPLE/IMG_5195.HEIC")!.path, request)
        #expect(frame.size == still.size)
        let (framePixels, stillPixels) = (try renderer.pixels(of: frame.data), try renderer.pixels(of: still.data))
        let difference = PixelComparison.difference(framePixels, stillPixels)
        #expect(difference < 12, "the poster frame is \(difference) from the still")
        // The comparison can fail: the still turned half a turn is far from it.
        let turned = PixelComparison.difference(PixelComparison.transformed(stillPixels, halfTurn: true), stillPixels)
        #expect(turned > 30, "\(turned)")
    }

    /// A portrait iPhone video is stored landscape with a quarter turn in its track's matrix.
    @Test func rotatedTrackIsTurnedClockwise() throws {
        let path = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!.path
        let video = try #require(try VideoInfo(fileAt: path).primaryVideo)
        #expect(video.storedSize == PixelSize(width: 568, height: 320))
        #expect(video.rotation == 90)
        let image = try renderer.render(videoAt: path, ImageRequest(target: PixelSize(width: 64, height: 64)))
        #expect(image.size == PixelSize(width: 36, height: 64))
    }

    @Test func cropAppliesToTheUprightFrame() throws {
        let path = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!.path  // 320x568 upright
        let top = try renderer.render(
            videoAt: path,
            ImageRequest(
                target: PixelSize(width: 80, height: 71), crop: NormalizedRect(x: 0, y: 0, width: 1, height: 0.5)))
        #expect(top.size == PixelSize(width: 80, height: 71))
        let whole = try renderer.pixels(
            of: renderer.render(videoAt: path, ImageRequest(target: PixelSize(width: 80, height: 142))).data)
        let half = try renderer.pixels(of: top.data)
        let upper = PixelComparison.difference(half, PixelComparison.cropped(whole, rows: 0..<71))
        let lower = PixelComparison.difference(half, PixelComparison.cropped(whole, rows: 71..<142))
        #expect(upper < 12 && lower > upper * 2, "top half \(upper), bottom half \(lower)")
    }

    @Test func filesThatAreNotVideosAreRefusedWithTheReason() throws {
        let directory = try TemporaryDirectory(prefix: "photos-video")
        let text = directory.path("notes.mov")
        try Data("not a movie\n".utf8).write(to: text)
        // A playlist would make a demuxer open other files: no such demuxer is allowed.
        let playlist = directory.path("list.mov")
        try Data("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n".utf8)
            .write(to: playlist)
        let empty = directory.path("empty.mov")
        try Data().write(to: empty)
        // The first 4 KB of a real movie: its moov atom cut off.
        let cut = directory.path("cut.mov")
        try Data(try Data(contentsOf: Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!).prefix(4096)).write(to: cut)
        let still = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!

        for url in [text, playlist, empty, cut, still] {
            let error = #expect(throws: ImagingError.self) {
                try renderer.render(videoAt: url.path, ImageRequest(target: PixelSize(width: 64, height: 64)))
            }
            #expect(error?.code == .undecodable, "\(url.lastPathComponent): \(String(describing: error))")
            #expect(error?.path == url.path)
            #expect(error?.message.isEmpty == false)
        }
        let missing = #expect(throws: ImagingError.self) { try VideoInfo(fileAt: directory.path("gone.mov").path) }
        #expect(missing?.code == .missing)
        let folder = #expect(throws: ImagingError.self) { try VideoInfo(fileAt: directory.url.path) }
        #expect(folder?.code == .unreadable)
    }

    /// Movie stubs, which the metadata extractor makes assets (docs/metadata.md, "Files without their image data"):
    /// the file stops right after the header of its media data. No poster frame: an error naming the file.
    @Test func movieStubHasNoPosterFrameAndSaysWhy() throws {
        let directory = try TemporaryDirectory()
        func stub(_ corpusPath: String, after pattern: String, header: Int, name: String) throws -> URL {
            let bytes = try [UInt8](Data(contentsOf: try #require(Corpus.file(corpusPath))))
            let ascii = Array(pattern.utf8)
            let at = try #require(
                (0..<(bytes.count - ascii.count)).first { bytes[$0..<($0 + ascii.count)].elementsEqual(ascii) })
            let url = directory.path(name)
            try Data(bytes.prefix(at + header)).write(to: url)
            return url
        }
        let stubs = [
            // The 3GP's moov comes first: the file stops after the 8-byte mdat header.
            try stub("Phone/old phone/sample.3gp", after: "mdat", header: 4, name: "stub.3gp"),
            // The AVI stops after its `LIST <size> movi` header.
            try stub("Videos/misc/earth.avi", after: "movi", header: 4, name: "stub.avi"),
        ]
        for url in stubs {
            let error = #expect(throws: ImagingError.self) {
                try renderer.render(videoAt: url.path, ImageRequest(target: PixelSize(width: 64, height: 64)))
            }
            #expect(error?.code == .undecodable, "\(url.lastPathComponent): \(String(describing: error))")
            #expect(error?.path == url.path)
            print("stub \(url.lastPathComponent): \(String(describing: error))")
        }
    }
}
