import Foundation
import PhotosMetadata
import PhotosTestSupport
import Testing

/// Portrait depth, spatial stereo, time-lapse and Cinematic: each rule on a file built to carry
/// its mark, and on near-misses that carry something alike that is not it (a gain map, an alpha
/// plane, a single-layer or one-eyed video, a Live Photo's metadata track).
@Suite struct MediaSubtypeTests {
    static func extract(_ bytes: [UInt8], name: String) throws -> FileMetadata {
        let directory = try TemporaryDirectory()
        return try GroupingAndSubtypeTests.extractor.extract(path: directory.write(bytes, to: name))
    }

    /// The four flags a file carries, by PhotoKit name.
    static func flags(_ metadata: FileMetadata) -> Set<String> {
        var names: Set<String> = []
        if metadata.isDepthEffect == true { names.insert("photoDepthEffect") }
        if metadata.isSpatial == true { names.insert("spatialMedia") }
        if metadata.isTimelapse == true { names.insert("videoTimelapse") }
        if metadata.isCinematic == true { names.insert("videoCinematic") }
        return names
    }

    // MARK: Depth (Portrait)

    @Test(arguments: [
        ("urn:mpeg:hevc:2015:auxid:2", true),
        ("urn:mpeg:mpegB:cicp:systems:auxiliary:depth", true),
        ("urn:com:apple:photo:2018:aux:portraiteffectsmatte", true),
        ("urn:com:apple:photo:2020:aux:hdrgainmap", false),
        ("urn:mpeg:hevc:2015:auxid:1", false),
        ("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", false),
        ("urn:com:apple:photo:2019:aux:semanticskinmatte", false),
    ])
    func heifAuxiliaryImageIsDepthByItsType(type: String, isDepth: Bool) throws {
        let metadata = try Self.extract(MediaSubtypeSamples.heif(auxiliaryType: type), name: "IMG_0001.HEIC")
        #expect(metadata.pixelWidth == 640, "the photo itself is read as before")
        #expect(Self.flags(metadata) == (isDepth ? ["photoDepthEffect"] : []))
    }

    @Test func heifWithoutAuxiliaryImageOrWithDepthOfAnotherItemHasNoDepth() throws {
        #expect(Self.flags(try Self.extract(MediaSubtypeSamples.heif(), name: "plain.heic")).isEmpty)
        // A depth map of item 3 (a thumbnail, say), not of the primary picture.
        let other = MediaSubtypeSamples.heif(auxiliaryType: MediaSubtypeSamples.depthType, auxiliaryOf: 3)
        #expect(Self.flags(try Self.extract(other, name: "other.heic")).isEmpty)
    }

    @Test(arguments: [
        ("http://ns.google.com/photos/1.0/depthmap/", "GDepth", ["Format": "RangeInverse", "Mime": "image/png"], true),
        (
            "http://ns.google.com/photos/dd/1.0/depthmap/", "DepthMap",
            ["Format": "RangeLinear", "ItemSemantic": "Depth"], true
        ),
        ("http://ns.adobe.com/hdr-gain-map/1.0/", "hdrgm", ["Version": "1.0"], false),
        ("http://ns.google.com/photos/1.0/camera/", "GCamera", ["MotionPhoto": "0"], false),
    ])
    func jpegXMPDepthMapIsDepth(namespace: String, prefix: String, properties: [String: String], isDepth: Bool) throws {
        let xmp = MediaSubtypeSamples.xmp(namespace: namespace, prefix: prefix, properties: properties)
        let metadata = try Self.extract(MediaSubtypeSamples.jpeg(xmp: xmp), name: "PXL_0001.jpg")
        #expect(Self.flags(metadata) == (isDepth ? ["photoDepthEffect"] : []))
    }

    /// iPhones store a JPEG Portrait photo's disparity map (and its portrait matte) as a second
    /// MPF image described by Apple's depth data XMP; an HDR photo's gain map the same way, with
    /// gain map XMP.
    @Test(arguments: [
        (
            MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/depthData/1.0/", prefix: "depthData",
                properties: ["Accuracy": "relative", "Filtered": "True"]), true
        ),
        (
            MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/pixeldatainfo/1.0/", prefix: "apdi",
                properties: ["AuxiliaryImageType": "urn:com:apple:photo:2018:aux:portraiteffectsmatte"]), true
        ),
        (
            MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/pixeldatainfo/1.0/", prefix: "apdi",
                properties: ["AuxiliaryImageType": "urn:com:apple:photo:2020:aux:hdrgainmap"]), false
        ),
        (
            MediaSubtypeSamples.xmp(
                namespace: "http://ns.apple.com/HDRGainMap/1.0/", prefix: "HDRGainMap",
                properties: ["HDRGainMapVersion": "65536"]), false
        ),
    ])
    func jpegMultiPictureImageIsDepthByItsXMP(secondaryXMP: String, isDepth: Bool) throws {
        let bytes = MediaSubtypeSamples.jpegWithMultiPicture(secondaryXMP: secondaryXMP)
        let metadata = try Self.extract(bytes, name: "IMG_0002.JPG")
        #expect(metadata.pixelWidth == 16 && metadata.pixelHeight == 8)
        #expect(Self.flags(metadata) == (isDepth ? ["photoDepthEffect"] : []))
    }

    /// A broken MPF index or stored image does not make the photo unreadable.
    @Test func jpegWhoseMultiPictureImageIsMissingIsStillAPhoto() throws {
        var bytes = MediaSubtypeSamples.jpegWithMultiPicture(secondaryXMP: "<x/>")
        bytes.removeLast(bytes.count - MediaSubtypeSamples.jpeg(app2: [UInt8](repeating: 0, count: 62)).count)
        let metadata = try Self.extract(bytes, name: "cut.jpg")
        #expect(metadata.pixelWidth == 16)
        #expect(Self.flags(metadata).isEmpty)
    }

    // MARK: Spatial

    @Test(arguments: [(2, true), (1, false)])
    func heifStereoPairGroupIsSpatial(entities: Int, isSpatial: Bool) throws {
        let metadata = try Self.extract(MediaSubtypeSamples.heif(stereoEntities: entities), name: "IMG_0003.HEIC")
        #expect(Self.flags(metadata) == (isSpatial ? ["spatialMedia"] : []))
    }

    @Test(arguments: [
        (MediaSubtypeSamples.Video.multiLayer(eyeViews: 0x03), true),
        (.multiLayer(eyeViews: 0x03, projection: "rect"), true),
        (.multiLayer(eyeViews: 0x0B), true),  // eye views reversed: still both
        (.multiLayer(eyeViews: 0x03, projection: "equi"), false),  // immersive, not spatial
        (.multiLayer(eyeViews: 0x01), false),  // one eye
        (.multiLayer(eyeViews: nil), false),  // multiview without eye views: 2D
        (.singleLayer, false),
    ])
    func mvhevcVideoWithBothEyeViewsIsSpatial(video: MediaSubtypeSamples.Video, isSpatial: Bool) throws {
        let metadata = try Self.extract(MediaSubtypeSamples.movie(video: video), name: "IMG_0004.MOV")
        #expect(metadata.duration == 2)
        #expect(metadata.frameRate == 30)
        #expect(Self.flags(metadata) == (isSpatial ? ["spatialMedia"] : []))
    }

    // MARK: Time-lapse

    @Test(arguments: [("Time-lapse", true), ("Slo-mo", false), ("Video", false)])
    func captureModeTimeLapseIsATimeLapse(mode: String, isTimelapse: Bool) throws {
        let metadata = try Self.extract(MediaSubtypeSamples.movie(captureMode: mode), name: "IMG_0005.MOV")
        #expect(Self.flags(metadata) == (isTimelapse ? ["videoTimelapse"] : []))
    }

    /// Android's recorder states its capture rate: 30 fps played from 1 captured a second is a
    /// time-lapse, from 240 (slow motion) or from 30 (an ordinary movie) is not, nor is 20, whose
    /// ratio AOSP still plays as captured.
    @Test(arguments: [(Float(1), true), (0.5, true), (14.9, true), (20, false), (30, false), (240, false)])
    func androidCaptureRateBelowHalfThePlaybackRateIsATimeLapse(rate: Float, isTimelapse: Bool) throws {
        let movie = MediaSubtypeSamples.movie(androidCaptureRate: rate)
        let metadata = try Self.extract(movie, name: "VID_20240101_120000.mp4")
        #expect(metadata.frameRate == 30)
        #expect(Self.flags(metadata) == (isTimelapse ? ["videoTimelapse"] : []))
    }

    // MARK: Cinematic

    static let rendering = "com.apple.quicktime.cinematic-video.rendering"
    static let cinematography = "com.apple.quicktime.cinematic-video.cinematography"

    @Test func metadataTrackOfBothCinematicKeysIsCinematic() throws {
        let movie = MediaSubtypeSamples.movie(metadataKeys: [
            "com.apple.quicktime.video-orientation", Self.rendering, Self.cinematography,
        ])
        #expect(Self.flags(try Self.extract(movie, name: "IMG_0006.MOV")) == ["videoCinematic"])
        let intended = MediaSubtypeSamples.movie(
            metadataKeys: [Self.rendering, Self.cinematography], cinematicIntent: 1)
        #expect(Self.flags(try Self.extract(intended, name: "IMG_0007.MOV")) == ["videoCinematic"])
    }

    @Test func metadataTrackWithoutBothKeysOrMovieThatOptsOutIsNotCinematic() throws {
        // A Live Photo's timed metadata: still-image time and detected faces.
        let live = MediaSubtypeSamples.movie(metadataKeys: [
            "com.apple.quicktime.still-image-time", "com.apple.quicktime.detected-face",
        ])
        #expect(Self.flags(try Self.extract(live, name: "live.MOV")).isEmpty)
        let half = MediaSubtypeSamples.movie(metadataKeys: [Self.rendering])
        #expect(Self.flags(try Self.extract(half, name: "half.MOV")).isEmpty)
        let optedOut = MediaSubtypeSamples.movie(
            metadataKeys: [Self.rendering, Self.cinematography], cinematicIntent: 0)
        #expect(Self.flags(try Self.extract(optedOut, name: "out.MOV")).isEmpty)
        // The intent alone, without Cinematic metadata, is not Cinematic either (as Apple's Photos).
        let intentOnly = MediaSubtypeSamples.movie(cinematicIntent: 1)
        #expect(Self.flags(try Self.extract(intentOnly, name: "intent.MOV")).isEmpty)
    }
}
