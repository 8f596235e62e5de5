/// The boxes that make a photo or a movie one of PhotoKit's media subtypes: a HEIF's depth image
/// and stereo pair, a movie's stereo (MV-HEVC) video, its capture mode, and its Cinematic mode
/// metadata track. What each means, and where it is documented, is on ``FileMetadata``.
extension ISOMediaParser {
    // MARK: Images

    /// Whether an item of the HEIF is an auxiliary image (`iref` type `auxl`) of the primary item
    /// (of any item when no primary is declared) whose `auxC` property names a depth type
    /// (``AuxiliaryImageTypes``). `properties` are the `ipco` boxes, `associations` the `ipma`
    /// table.
    static func hasDepthImage(
        _ iref: Box, primary: UInt32?, properties: [Box], associations: [UInt32: [Int]], in reader: FileReader
    ) throws(MetadataError) -> Bool {
        // A full box: 16-bit item IDs in version 0, 32-bit ones in version 1.
        let wide = try payload(of: iref, in: reader, limit: 1).u8(at: 0) == 1
        let inner = Box(type: "iref", start: iref.start, payload: iref.payload + 4, end: iref.end)
        for reference in try children(of: inner, in: reader) where reference.type == "auxl" {
            let fields = try payload(of: reference, in: reader, limit: 4096)
            let width = wide ? 4 : 2
            func id(at offset: Int) -> UInt32? {
                wide ? fields.u32(at: offset, .bigEndian) : fields.u16(at: offset, .bigEndian).map(UInt32.init)
            }
            guard let from = id(at: 0), let count = fields.u16(at: width, .bigEndian).map(Int.init) else { continue }
            let targets = (0..<count).compactMap { id(at: width + 2 + width * $0) }
            if let primary, !targets.contains(primary) { continue }
            for index in associations[from] ?? [] where properties.indices.contains(index - 1) {
                let property = properties[index - 1]
                guard property.type == "auxC" else { continue }
                // Version and flags, then the type's URN ending with a NUL, then a subtype.
                let fields = try payload(of: property, in: reader, limit: 512)
                guard let urn = fields.slice(at: 4, count: max(0, fields.count - 4)) else { continue }
                let name = String(decoding: urn.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
                if AuxiliaryImageTypes.isDepth(name) { return true }
            }
        }
        return false
    }

    /// Whether the HEIF's group list (`grpl`) holds a stereo pair: an entity group of type `ster`
    /// (ISO/IEC 23008-12) of at least two entities, the left and the right image, as Apple's
    /// spatial photos and stereo HEICs are written.
    static func hasStereoPair(_ grpl: Box, in reader: FileReader) throws(MetadataError) -> Bool {
        for group in try children(of: grpl, in: reader) where group.type == "ster" {
            // Version and flags, group_id, num_entities_in_group, then the entity IDs.
            let fields = try payload(of: group, in: reader, limit: 12)
            if let count = fields.u32(at: 8, .bigEndian), count >= 2 { return true }
        }
        return false
    }

    // MARK: Movies

    /// The sample entries of a track's media (`mdia/minf/stbl/stsd`), at most 16.
    private static func sampleEntries(_ mdia: Box, in reader: FileReader) throws(MetadataError) -> [Box] {
        guard let minf = try child("minf", of: mdia, in: reader), let stbl = try child("stbl", of: minf, in: reader),
            let stsd = try child("stsd", of: stbl, in: reader)
        else { return [] }
        // A full box with an entry count before the entries.
        let inner = Box(type: "stsd", start: stsd.start, payload: stsd.payload + 8, end: stsd.end)
        return Array(try children(of: inner, in: reader).prefix(16))
    }

    /// The boxes inside a sample entry, after its `fixed` bytes of fields (8 for every entry's
    /// reserved bytes and data reference index, 78 for a visual sample entry).
    private static func sampleEntryChildren(
        _ entry: Box, fixed: Int, in reader: FileReader
    ) throws(MetadataError) -> [Box] {
        guard entry.end - entry.payload > fixed else { return [] }
        return try children(
            of: Box(type: entry.type, start: entry.start, payload: entry.payload + fixed, end: entry.end), in: reader)
    }

    /// Whether a video track is stereo: its first sample entry is multi-layer HEVC (an `lhvC`
    /// configuration beside `hvcC`: MV-HEVC) and states both a left and a right eye view (Apple's
    /// `vexu/eyes/stri`, bits 0 and 1), with no projection but a rectilinear one (`vexu/proj/prji`
    /// `rect`; an equirectangular or fisheye movie is immersive video, not spatial). This is what
    /// Apple's Photos takes for spatial video: both eye views in a stereo multiview track, no
    /// projection or a rectilinear one. A multiview track that states no eye views is 2D (Core
    /// Media's `CMStereoViewComponents`).
    static func isStereoVideo(_ mdia: Box, in reader: FileReader) throws(MetadataError) -> Bool {
        guard let entry = try sampleEntries(mdia, in: reader).first else { return false }
        let boxes = try sampleEntryChildren(entry, fixed: 78, in: reader)
        guard boxes.contains(where: { $0.type == "lhvC" }), let vexu = boxes.first(where: { $0.type == "vexu" }) else {
            return false
        }
        let usage = try children(of: vexu, in: reader)
        guard let eyes = usage.first(where: { $0.type == "eyes" }), let stri = try child("stri", of: eyes, in: reader),
            let views = try payload(of: stri, in: reader, limit: 5).u8(at: 4), views & 0x03 == 0x03
        else { return false }
        if let proj = usage.first(where: { $0.type == "proj" }), let prji = try child("prji", of: proj, in: reader),
            let kind = try payload(of: prji, in: reader, limit: 8).fourCC(at: 4), kind != "rect"
        {
            return false
        }
        return true
    }

    /// The video track's `com.apple.photos.captureMode` (the track's own `meta` keys, where the
    /// iPhone's Camera writes "Time-lapse"; ExifTool lists it among the video track's Keys tags).
    static func captureMode(_ trak: Box, in reader: FileReader) throws(MetadataError) -> String? {
        guard let meta = try child("meta", of: trak, in: reader) else { return nil }
        var values: [String: String] = [:]
        try readItemList(meta, in: reader, into: &values)
        return values["com.apple.photos.captureMode"]
    }

    /// The keys of Apple's Cinematic mode metadata: a movie is Cinematic when one timed metadata
    /// format declares both (Apple's Photos reads them so; the Cinematic framework reads each frame's
    /// rendering and cinematography values from them).
    static let cinematicKeys: Set<String> = [
        "com.apple.quicktime.cinematic-video.rendering",
        "com.apple.quicktime.cinematic-video.cinematography",
    ]

    /// Whether a timed metadata track (handler `meta`) has a sample entry `mebx` whose key table
    /// (`keys`: one box per local key, each holding a `keyd` declaration of namespace `mdta` and the
    /// key's name) declares both ``cinematicKeys``.
    static func declaresCinematicKeys(_ mdia: Box, in reader: FileReader) throws(MetadataError) -> Bool {
        for entry in try sampleEntries(mdia, in: reader) where entry.type == "mebx" {
            guard let table = try sampleEntryChildren(entry, fixed: 8, in: reader).first(where: { $0.type == "keys" })
            else { continue }
            var declared: Set<String> = []
            for key in try children(of: table, in: reader) {
                guard let keyd = try child("keyd", of: key, in: reader) else { continue }
                let fields = try payload(of: keyd, in: reader, limit: 256)
                guard fields.matches(ascii: "mdta"), let name = fields.slice(at: 4, count: fields.count - 4) else {
                    continue
                }
                declared.insert(String(decoding: name, as: UTF8.self))
            }
            if declared.isSuperset(of: cinematicKeys) { return true }
        }
        return false
    }
}
