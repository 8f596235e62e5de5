/// Minimal files that carry (or almost carry) the marks of PhotoKit's rarer media subtypes:
/// Portrait depth, spatial stereo, time-lapse and Cinematic. Only the boxes and segments that the
/// metadata readers look at are real; no picture decodes.
///
/// ```swift
/// let portrait = MediaSubtypeSamples.heif(auxiliaryType: "urn:mpeg:hevc:2015:auxid:2")
/// try Data(portrait).write(to: folder.appendingPathComponent("IMG_0001.HEIC"))
/// ```
public enum MediaSubtypeSamples {
    /// HEVC's depth auxiliary type, as iPhones write a Portrait photo's depth map.
    public static let depthType = "urn:mpeg:hevc:2015:auxid:2"
    /// Apple's HDR gain map auxiliary type: no depth.
    public static let gainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"
    /// HEVC's alpha auxiliary type: no depth.
    public static let alphaType = "urn:mpeg:hevc:2015:auxid:1"

    // MARK: HEIF

    /// A 640×480 HEIF whose primary item 1 has an auxiliary item 2 of `auxiliaryType` (none when
    /// nil). `auxiliaryOf` is the item the auxiliary image belongs to (the primary by default), and
    /// `stereoEntities` adds a `grpl` group of type `ster` of that many entities.
    public static func heif(
        auxiliaryType: String? = nil, auxiliaryOf: UInt16 = 1, stereoEntities: Int? = nil
    ) -> [UInt8] {
        let ftyp = box("ftyp", ascii("heic") + zeros(4) + ascii("mif1heic"))
        let hdlr = box("hdlr", zeros(8) + ascii("pict") + zeros(13))
        let pitm = box("pitm", zeros(4) + be16(1))
        func infe(_ id: UInt16) -> [UInt8] { box("infe", [2, 0, 0, 0] + be16(id) + be16(0) + ascii("hvc1") + [0]) }
        let iinf = box("iinf", zeros(4) + be16(3) + infe(1) + infe(2) + infe(3))
        let ispe = box("ispe", zeros(4) + be32(640) + be32(480))
        var properties = ispe
        // ipma version 0: item ID (16 bits), association count, 7-bit property indices.
        var ipma = zeros(4) + be32(auxiliaryType == nil ? 1 : 2) + be16(1) + [1, 0x81]
        var meta = hdlr + pitm + iinf
        if let auxiliaryType {
            properties += box("auxC", zeros(4) + ascii(auxiliaryType) + [0])
            ipma += be16(2) + [2, 0x01, 0x82]
            // iref version 0: one `auxl` reference from item 2 to `auxiliaryOf`.
            meta += box("iref", zeros(4) + box("auxl", be16(2) + be16(1) + be16(auxiliaryOf)))
        }
        meta += box("iprp", box("ipco", properties) + box("ipma", ipma))
        if let stereoEntities {
            let ids = (0..<stereoEntities).flatMap { be32(UInt32($0 + 1)) }
            meta += box("grpl", box("ster", zeros(4) + be32(10) + be32(UInt32(stereoEntities)) + ids))
        }
        return ftyp + box("meta", zeros(4) + meta) + box("mdat", zeros(64))
    }

    // MARK: JPEG

    /// A 16×8 baseline JPEG (headers and a few entropy-coded bytes) with an optional APP2 payload
    /// (an MPF index) and XMP packet.
    public static func jpeg(xmp: String? = nil, app2: [UInt8]? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let app2 { bytes += [0xFF, 0xE2] + be16(UInt16(app2.count + 2)) + app2 }
        if let xmp {
            let payload = ascii("http://ns.adobe.com/xap/1.0/") + [0] + ascii(xmp)
            bytes += [0xFF, 0xE1] + be16(UInt16(payload.count + 2)) + payload
        }
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08] + be16(8) + be16(16) + [0x01, 0x01, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        bytes += [0x12, 0x34, 0xFF, 0x00, 0x56, 0x78, 0x9A, 0xFF, 0xD9]
        return bytes
    }

    /// A JPEG whose MPF index (APP2) lists a second image stored after it, a JPEG with the XMP
    /// `secondaryXMP`: how iPhones store a Portrait photo's depth map and an HDR photo's gain map.
    public static func jpegWithMultiPicture(primaryXMP: String? = nil, secondaryXMP: String) -> [UInt8] {
        let secondary = jpeg(xmp: secondaryXMP)
        // "MPF\0", a big-endian TIFF header, one directory of one entry (MPEntry, 32 bytes at 26).
        func index(primarySize: Int, secondaryOffset: Int) -> [UInt8] {
            ascii("MPF") + [0] + ascii("MM") + be16(42) + be32(8) + be16(1)
                + be16(0xB002) + be16(7) + be32(32) + be32(26) + be32(0)
                + be32(0x2003_0000) + be32(UInt32(primarySize)) + be32(0) + be16(0) + be16(0)
                + be32(0) + be32(UInt32(secondary.count)) + be32(UInt32(secondaryOffset)) + be16(0) + be16(0)
        }
        let length = jpeg(xmp: primaryXMP, app2: index(primarySize: 0, secondaryOffset: 0)).count
        // The offsets count from the TIFF header: SOI, APP2 marker and length, "MPF\0".
        let primary = jpeg(xmp: primaryXMP, app2: index(primarySize: length, secondaryOffset: length - 10))
        return primary + secondary
    }

    /// An XMP packet declaring `namespace` as `prefix` with the given properties.
    public static func xmp(namespace: String, prefix: String, properties: [String: String]) -> String {
        let attributes = properties.sorted { $0.key < $1.key }.map { " \(prefix):\($0.key)=\"\($0.value)\"" }.joined()
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:\(prefix)="\(namespace)"\(attributes)/></rdf:RDF></x:xmpmeta>
            """
    }

    // MARK: Movies

    /// The video layers and eye views of a movie's video track.
    public enum Video: Sendable {
        /// Single-layer HEVC (`hvcC` only).
        case singleLayer
        /// Multi-layer HEVC (`hvcC` and `lhvC`), with Apple's `vexu/eyes/stri` eye-view bits when
        /// given, and `vexu/proj/prji` of that kind when given.
        case multiLayer(eyeViews: UInt8?, projection: String? = nil)
    }

    /// A 2 s, 30 fps QuickTime movie of one HEVC video track described by `video`; `captureMode`
    /// becomes the video track's `com.apple.photos.captureMode` key, `metadataKeys` the key table
    /// of a second, timed metadata track (`mebx`), and `cinematicIntent` the movie-level
    /// `com.apple.quicktime.cinematic-video-intent` (an unsigned byte, well-known type 75), and
    /// `androidCaptureRate` Android's movie-level `com.android.capture.fps` (a float, type 23).
    public static func movie(
        video: Video = .singleLayer, captureMode: String? = nil, metadataKeys: [String]? = nil,
        cinematicIntent: UInt8? = nil, androidCaptureRate: Float? = nil
    ) -> [UInt8] {
        let timescale: UInt32 = 600
        let duration: UInt32 = 1200
        let mvhd = box("mvhd", zeros(12) + be32(timescale) + be32(duration) + zeros(80))

        // The video track: tkhd, mdia (mdhd, hdlr vide, minf/stbl with stsd and stts), its own keys.
        let tkhd = box("tkhd", zeros(40) + identityMatrix + be32(1920 << 16) + be32(1080 << 16))
        let mdhd = box("mdhd", zeros(12) + be32(timescale) + be32(duration) + zeros(4))
        var configuration = box("hvcC", zeros(23))
        if case let .multiLayer(eyeViews, projection) = video {
            configuration += box("lhvC", zeros(16))
            var usage: [UInt8] = []
            if let eyeViews { usage += box("eyes", box("stri", zeros(4) + [eyeViews]) + box("hero", zeros(4) + [1])) }
            if let projection { usage += box("proj", box("prji", zeros(4) + ascii(projection))) }
            if !usage.isEmpty { configuration += box("vexu", usage) }
        }
        // A visual sample entry: 8 bytes of reserved fields and data reference, 70 of picture fields.
        let hvc1 = box("hvc1", zeros(6) + be16(1) + zeros(16) + be16(1920) + be16(1080) + zeros(50) + configuration)
        let videoTimes = box("stts", zeros(4) + be32(1) + be32(60) + be32(20))
        let videoTable = box("stbl", box("stsd", zeros(4) + be32(1) + hvc1) + videoTimes)
        var videoTrack = tkhd + box("mdia", mdhd + handler("vide") + box("minf", videoTable))
        if let captureMode {
            videoTrack += keyedMeta(text: ["com.apple.photos.captureMode": captureMode])
        }
        var tracks = box("trak", videoTrack)

        if let metadataKeys {
            let table = metadataKeys.enumerated().flatMap { index, key in
                box(String(decoding: be32(UInt32(index + 1)), as: UTF8.self), box("keyd", ascii("mdta") + ascii(key)))
            }
            let mebx = box("mebx", zeros(6) + be16(1) + box("keys", table))
            let metadataTimes = box("stts", zeros(4) + be32(1) + be32(5) + be32(240))
            let metadataTable = box("stbl", box("stsd", zeros(4) + be32(1) + mebx) + metadataTimes)
            let metaTkhd = box("tkhd", zeros(40) + identityMatrix + be32(0) + be32(0))
            tracks += box("trak", metaTkhd + box("mdia", mdhd + handler("meta") + box("minf", metadataTable)))
        }
        var movieKeys: [String: (UInt32, [UInt8])] = [:]
        if let cinematicIntent { movieKeys["com.apple.quicktime.cinematic-video-intent"] = (75, [cinematicIntent]) }
        if let androidCaptureRate { movieKeys["com.android.capture.fps"] = (23, be32(androidCaptureRate.bitPattern)) }
        let movieMeta = movieKeys.isEmpty ? [] : keyedMeta(text: [:], bytes: movieKeys)
        let ftyp = box("ftyp", ascii("qt  ") + zeros(4) + ascii("qt  "))
        return ftyp + box("moov", mvhd + tracks + movieMeta) + box("mdat", zeros(16))
    }

    /// A QuickTime `meta` box of `mdta` keys: text values (well-known type 1) and raw values of a
    /// given well-known type.
    private static func keyedMeta(text: [String: String], bytes: [String: (UInt32, [UInt8])] = [:]) -> [UInt8] {
        var names: [String] = []
        var items: [UInt8] = []
        for (name, value) in text.sorted(by: { $0.key < $1.key }) {
            names.append(name)
            items += box(index(names.count), box("data", be32(1) + zeros(4) + ascii(value)))
        }
        for (name, (type, value)) in bytes.sorted(by: { $0.key < $1.key }) {
            names.append(name)
            items += box(index(names.count), box("data", be32(type) + zeros(4) + value))
        }
        let keys = names.flatMap { be32(UInt32(8 + $0.utf8.count)) + ascii("mdta") + ascii($0) }
        return box(
            "meta",
            handler("mdta") + box("keys", zeros(4) + be32(UInt32(names.count)) + keys) + box("ilst", items))
    }

    private static func handler(_ type: String) -> [UInt8] { box("hdlr", zeros(8) + ascii(type) + zeros(13)) }

    private static func index(_ value: Int) -> String { String(decoding: be32(UInt32(value)), as: UTF8.self) }

    private static let identityMatrix: [UInt8] =
        be32(0x0001_0000) + zeros(12) + be32(0x0001_0000) + zeros(12) + be32(0x4000_0000)

    // MARK: Bytes

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + ascii(type) + payload
    }

    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
}
