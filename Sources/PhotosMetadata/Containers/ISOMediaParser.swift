import Foundation

/// Walks ISO base media boxes (QuickTime, MPEG-4, 3GPP, HEIF, AVIF): movie duration, creation
/// time and the video track's size, rotation and frame rate; an image's primary item size
/// (`ispe`), its rotation (`irot`), its EXIF item and a motion photo's movie (`mpvd`).
///
/// Boxes are read one header at a time, so a movie's `mdat` is skipped, never read, and `moov` may
/// come before or after it. A top-level box that runs past the end of the file means an
/// interrupted copy.
enum ISOMediaParser {
    struct Box {
        let type: String
        /// The type as a number (QuickTime item lists name their entries by key index).
        var typeCode: UInt32 = 0
        let start: Int
        let payload: Int
        let end: Int
        /// A top-level `mdat` the file stops right after the header of, before any byte of its data.
        var isCut = false
    }

    /// Seconds from 1904-01-01 (QuickTime's epoch) to 1970-01-01.
    private static let epochOffset: Double = 2_082_844_800

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        var info = ContainerInfo()
        let top = try children(of: nil, in: reader, strict: true)
        guard top.contains(where: { ["ftyp", "moov", "meta", "mdat", "wide", "free"].contains($0.type) }) else {
            throw reader.corrupt("no ISO base media boxes (ftyp, moov, meta) at the top level")
        }
        if let moov = top.first(where: { $0.type == "moov" }) {
            try readMovie(moov, in: reader, into: &info)
            // A movie header that states a picture or a duration, with no media data after it: the file stops
            // before the place where its media data begins. (A header that states nothing is corrupt, see
            // MetadataExtractor.check.)
            if info.width != nil || info.duration != nil,
                !top.contains(where: { ["mdat", "moof", "meta"].contains($0.type) })
            {
                throw reader.truncated(
                    "the movie header (moov) is whole but the media data (mdat) is not in the file (\(reader.size) bytes)"
                )
            }
        } else if top.contains(where: { $0.type == "mdat" }), !top.contains(where: { $0.type == "meta" }) {
            throw reader.corrupt("movie has media data but no movie header (moov)")
        }
        if let meta = top.first(where: { $0.type == "meta" }) {
            try readImage(meta, in: reader, into: &info, isStub: top.contains { $0.isCut })
            // Samsung's motion photo HEIF keeps its movie in a top-level `mpvd` box.
            if let mpvd = top.first(where: { $0.type == "mpvd" }), mpvd.end - mpvd.payload >= 8,
                try reader.read(at: mpvd.payload + 4, count: 4).matches(ascii: "ftyp")
            {
                info.embeddedVideo = mpvd.payload..<mpvd.end
            }
        } else if let mini = top.first(where: { $0.type == "mini" }) {
            try readMinimizedImage(mini, in: reader, into: &info)
        }
        return info
    }

    // MARK: Boxes

    /// The boxes inside `parent` (or at the top level of the file), at most 10 000.
    ///
    /// `strict` (the top level) reports a box running past the end as truncation; inside a box
    /// the walk stops at the first box that does not fit its parent.
    static func children(of parent: Box?, in reader: FileReader, strict: Bool = false) throws(MetadataError) -> [Box] {
        var boxes: [Box] = []
        var position = parent?.payload ?? 0
        let limit = parent?.end ?? reader.size
        while position + 8 <= limit, boxes.count < 10_000 {
            let header = try reader.readExactly(at: position, count: min(16, limit - position), what: "box header")
            guard let size32 = header.u32(at: 0, .bigEndian), let type = header.fourCC(at: 4),
                let typeCode = header.u32(at: 4, .bigEndian)
            else { break }
            var headerSize = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = header.u64(at: 8, .bigEndian), large <= UInt64(Int.max) else {
                    if strict { throw reader.truncated("box \(type) at offset \(position) has a cut-off 64-bit size") }
                    break
                }
                headerSize = 16
                size = Int(large)
            } else if size32 == 0 {
                size = limit - position
            }
            guard size >= headerSize else {
                if strict { throw reader.corrupt("box \(type) at offset \(position) has an impossible size \(size)") }
                break
            }
            if size > limit - position {
                if strict, type == "mdat", position + headerSize == limit {
                    // A metadata stub: everything up to the media data, and none of it.
                    boxes.append(
                        Box(type: type, typeCode: typeCode, start: position, payload: limit, end: limit, isCut: true))
                    break
                }
                if strict {
                    throw reader.truncated(
                        "box \(type) at offset \(position) (\(size) bytes) runs past the end of the file "
                            + "(\(limit) bytes)"
                    )
                }
                break
            }
            boxes.append(
                Box(
                    type: type, typeCode: typeCode, start: position, payload: position + headerSize,
                    end: position + size)
            )
            position += size
        }
        return boxes
    }

    static func child(_ type: String, of parent: Box, in reader: FileReader) throws(MetadataError) -> Box? {
        try children(of: parent, in: reader).first { $0.type == type }
    }

    static func payload(
        of box: Box, in reader: FileReader, limit: Int
    ) throws(MetadataError) -> ArraySlice<UInt8> {
        try reader.readExactly(at: box.payload, count: min(box.end - box.payload, limit), what: "\(box.type) box")
    }

    // MARK: Movies

    private static func readMovie(
        _ moov: Box, in reader: FileReader, into info: inout ContainerInfo
    ) throws(MetadataError) {
        let boxes = try children(of: moov, in: reader)
        if let mvhd = boxes.first(where: { $0.type == "mvhd" }) {
            let fields = try payload(of: mvhd, in: reader, limit: 32)
            let version = fields.u8(at: 0) ?? 0
            let creation: UInt64?
            let timescale: UInt32?
            let duration: UInt64?
            if version == 1 {
                creation = fields.u64(at: 4, .bigEndian)
                timescale = fields.u32(at: 20, .bigEndian)
                duration = fields.u64(at: 24, .bigEndian)
            } else {
                creation = fields.u32(at: 4, .bigEndian).map(UInt64.init)
                timescale = fields.u32(at: 12, .bigEndian)
                duration = fields.u32(at: 16, .bigEndian).map(UInt64.init)
            }
            if let timescale, timescale > 0, let duration, duration > 0, duration != UInt64(UInt32.max),
                duration != UInt64.max
            {
                info.duration = Double(duration) / Double(timescale)
            }
            // Zero means "not set"; values before 1970 are unset clocks.
            if let creation, Double(creation) > epochOffset {
                info.creationDate = Date(timeIntervalSince1970: Double(creation) - epochOffset)
            }
        }
        var sawVideo = false
        for trak in boxes where trak.type == "trak" {
            guard let mdia = try child("mdia", of: trak, in: reader),
                let hdlr = try child("hdlr", of: mdia, in: reader)
            else { continue }
            let handler = try payload(of: hdlr, in: reader, limit: 12).fourCC(at: 8)
            if handler == "meta" {
                if try declaresCinematicKeys(mdia, in: reader) { info.hasCinematicMetadata = true }
                continue
            }
            guard handler == "vide", !sawVideo, let tkhd = try child("tkhd", of: trak, in: reader) else { continue }
            let fields = try payload(of: tkhd, in: reader, limit: 100)
            let matrixStart = (fields.u8(at: 0) == 1 ? 36 : 24) + 16
            guard let width = fields.u32(at: matrixStart + 36, .bigEndian),
                let height = fields.u32(at: matrixStart + 40, .bigEndian)
            else { continue }
            info.setSize(Int(width >> 16), Int(height >> 16))
            if let a = fields.u32(at: matrixStart, .bigEndian), let b = fields.u32(at: matrixStart + 4, .bigEndian) {
                let radians = atan2(Double(Int32(bitPattern: b)), Double(Int32(bitPattern: a)))
                let degrees = Int((radians * 180 / .pi).rounded())
                info.rotation = ((degrees % 360) + 360) % 360
            }
            info.frameRate = try frameRate(mdia, in: reader)
            info.isStereo = try isStereoVideo(mdia, in: reader)
            info.captureMode = try captureMode(trak, in: reader)
            sawVideo = true
        }
        try readMovieMetadata(boxes, in: reader, into: &info)
        if info.exifBlock == nil { info.exifBlock = try canonMetadata(boxes, in: reader) }
    }

    /// Canon's CR3 metadata box: `uuid` 85C0B687-820F-11E0-8111-F4CE462B6A48 in `moov`, holding IFD0 (`CMT1`),
    /// the EXIF IFD (`CMT2`) and the GPS IFD (`CMT4`), each a TIFF structure of its own (as ExifTool and LibRaw
    /// read them), packed into one EXIF block.
    private static func canonMetadata(_ boxes: [Box], in reader: FileReader) throws(MetadataError) -> [UInt8]? {
        let canonUUID: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        for uuid in boxes where uuid.type == "uuid" && uuid.end - uuid.payload > 16 {
            guard try payload(of: uuid, in: reader, limit: 16).elementsEqual(canonUUID) else { continue }
            let inner = Box(type: "uuid", start: uuid.start, payload: uuid.payload + 16, end: uuid.end)
            let parts = try children(of: inner, in: reader)
            func tiff(_ type: String) -> TIFFStructure? {
                guard let box = parts.first(where: { $0.type == type }) else { return nil }
                return try? TIFFStructure(reader: reader, base: box.payload, length: box.end - box.payload)
            }
            guard let ifd0 = tiff("CMT1") else { return nil }
            return ExifBlockBuilder.block(ifd0: ifd0, exif: tiff("CMT2"), gps: tiff("CMT4"))
        }
        return nil
    }

    /// A video track's frames per second: its sample count over the sum of its sample durations
    /// (`stts`), in the media timescale (`mdhd`), as ExifTool computes VideoFrameRate.
    private static func frameRate(_ mdia: Box, in reader: FileReader) throws(MetadataError) -> Double? {
        guard let mdhd = try child("mdhd", of: mdia, in: reader), let minf = try child("minf", of: mdia, in: reader),
            let stbl = try child("stbl", of: minf, in: reader), let stts = try child("stts", of: stbl, in: reader)
        else { return nil }
        let header = try payload(of: mdhd, in: reader, limit: 24)
        guard let timescale = header.u32(at: header.u8(at: 0) == 1 ? 20 : 12, .bigEndian), timescale > 0 else {
            return nil
        }
        // Eight bytes an entry; a variable-rate movie has many, 1 MiB holds 131 000 of them.
        let table = try payload(of: stts, in: reader, limit: 1 << 20)
        guard let entryCount = table.u32(at: 4, .bigEndian).map(Int.init), entryCount <= (table.count - 8) / 8 else {
            return nil
        }
        var samples = 0.0
        var ticks = 0.0
        for index in 0..<entryCount {
            guard let count = table.u32(at: 8 + 8 * index, .bigEndian),
                let delta = table.u32(at: 12 + 8 * index, .bigEndian)
            else { return nil }
            samples += Double(count)
            ticks += Double(count) * Double(delta)
        }
        guard samples > 0, ticks > 0 else { return nil }
        return samples * Double(timescale) / ticks
    }

    // MARK: Images

    private static func readImage(
        _ meta: Box, in reader: FileReader, into info: inout ContainerInfo, isStub: Bool
    ) throws(MetadataError) {
        // `meta` is a full box: its children start after version and flags.
        let inner = Box(type: "meta", start: meta.start, payload: meta.payload + 4, end: meta.end)
        let boxes = try children(of: inner, in: reader)
        var primary: UInt32?
        if let pitm = boxes.first(where: { $0.type == "pitm" }) {
            let fields = try payload(of: pitm, in: reader, limit: 8)
            primary =
                fields.u8(at: 0) == 0 ? fields.u16(at: 4, .bigEndian).map(UInt32.init) : fields.u32(at: 4, .bigEndian)
        }
        var properties: [Box] = []
        var associations: [UInt32: [Int]] = [:]
        if let iprp = boxes.first(where: { $0.type == "iprp" }) {
            let iprpBoxes = try children(of: iprp, in: reader)
            if let ipco = iprpBoxes.first(where: { $0.type == "ipco" }) {
                properties = try children(of: ipco, in: reader)
            }
            if let ipma = iprpBoxes.first(where: { $0.type == "ipma" }) {
                associations = try associationTable(ipma, in: reader)
            }
            let associated = primary.flatMap { associations[$0] } ?? []
            try readProperties(properties, associated: associated, in: reader, into: &info)
            // HEIF readers apply `irot` and ignore EXIF orientation, so no `irot` means upright.
            info.rotation = info.rotation ?? 0
        }
        if let iref = boxes.first(where: { $0.type == "iref" }) {
            info.hasDepth = try hasDepthImage(
                iref, primary: primary, properties: properties, associations: associations, in: reader)
        }
        if let grpl = boxes.first(where: { $0.type == "grpl" }) {
            info.isStereo = try hasStereoPair(grpl, in: reader)
        }
        // The items' data (construction method 0: in this file) must lie in it, unless the file is a metadata stub
        // that stops right after the header of its `mdat`.
        if !isStub, let iloc = boxes.first(where: { $0.type == "iloc" }),
            let items = try items(in: iloc, reader: reader),
            let past = items.first(where: {
                $0.method == 0 && $0.extents.contains { $0.offset + $0.length > reader.size }
            })
        {
            throw reader.truncated(
                "the data of item \(past.id) lies past the end of the file (\(reader.size) bytes): the iloc box "
                    + "places it at offset \(past.extents.map(\.offset).min() ?? 0)")
        }
        if let iinf = boxes.first(where: { $0.type == "iinf" }), let iloc = boxes.first(where: { $0.type == "iloc" }),
            let exifItem = try exifItemID(iinf, in: reader),
            let extent = try location(of: exifItem, iloc: iloc, in: reader), extent.length > 4
        {
            let header = try reader.readExactly(at: extent.offset, count: 4, what: "Exif item header")
            let skip = Int(header.u32(at: 0, .bigEndian) ?? 0)
            if skip < extent.length - 4 {
                info.exifBlock = ExifBlocks.fromTIFF(
                    in: reader, at: extent.offset + 4 + skip, length: extent.length - 4 - skip
                )
            }
        }
    }

    /// A low-overhead HEIF or AVIF (brand `mif3`): one `mini` box instead of `meta`, its fields packed
    /// in bits: version (2), nine flags, chroma subsampling (2), orientation minus one (3), whether the
    /// sides take 15 bits rather than 7, then width and height minus one. Its orientation is an EXIF
    /// one (1-8) that readers apply, as they apply `irot` and `imir`; 5 to 8 turn the picture a quarter.
    private static func readMinimizedImage(
        _ mini: Box, in reader: FileReader, into info: inout ContainerInfo
    ) throws(MetadataError) {
        let fields = try payload(of: mini, in: reader, limit: 8)
        guard fields.count >= 6, let first = fields.u32(at: 0, .bigEndian), let second = fields.u16(at: 4, .bigEndian)
        else { return }
        let bits = UInt64(first) << 16 | UInt64(second)  // the box's first 48 bits
        func field(at offset: Int, width: Int) -> Int { Int(bits >> UInt64(48 - offset - width)) & (1 << width - 1) }
        guard field(at: 0, width: 2) == 0 else { return }  // later versions may lay the fields out otherwise
        let orientation = field(at: 13, width: 3) + 1
        let sideBits = field(at: 16, width: 1) == 1 ? 15 : 7
        let width = field(at: 17, width: sideBits) + 1
        let height = field(at: 17 + sideBits, width: sideBits) + 1
        info.setSize(width, height)
        info.orientation = orientation
        // HEIF readers apply the container's orientation and ignore EXIF's.
        info.rotation = [1: 0, 2: 0, 3: 180, 4: 180, 5: 270, 6: 90, 7: 90, 8: 270][orientation] ?? 0
    }

    /// The primary item's size, rotation and crop, from its `associated` properties (1-based indices
    /// into `properties`, the `ipco` boxes).
    ///
    /// Readers apply the transformative properties in the order the item lists them (ISO 23008-12):
    /// a `clap` after an `irot` crops the turned picture, so its width runs along the displayed
    /// width. Apple lists `clap` first, other writers may not; walking the list in order gives the
    /// displayed size either way (as libheif reports it).
    private static func readProperties(
        _ properties: [Box], associated: [Int], in reader: FileReader, into info: inout ContainerInfo
    ) throws(MetadataError) {
        // Without an association table, fall back to the largest `ispe` (the full image).
        let candidates = associated.isEmpty ? Array(properties.indices) : associated.map { $0 - 1 }
        var best: (Int, Int)?
        for index in candidates where properties.indices.contains(index) {
            let property = properties[index]
            guard property.type == "ispe" else { continue }
            let fields = try payload(of: property, in: reader, limit: 12)
            if let width = fields.u32(at: 4, .bigEndian), let height = fields.u32(at: 8, .bigEndian) {
                let area = Double(width) * Double(height)
                if best.map({ Double($0.0) * Double($0.1) < area }) ?? true { best = (Int(width), Int(height)) }
            }
        }
        // The size as displayed so far.
        var shown = best
        for index in candidates where properties.indices.contains(index) {
            let property = properties[index]
            switch property.type {
            case "irot":
                let fields = try payload(of: property, in: reader, limit: 1)
                let quarterTurns = Int((fields.u8(at: 0) ?? 0) & 3)
                // irot is anticlockwise in quarter turns; store clockwise degrees.
                info.rotation = (360 - quarterTurns * 90) % 360
                if quarterTurns % 2 == 1 { shown = shown.map { ($0.1, $0.0) } }
            case "clap":
                // The clean aperture crops the picture as it stands (iPhones code 4032x3024 in
                // 64-pixel tiles and crop); one larger than that picture is ignored.
                if let current = shown, let (width, height) = try cleanAperture(property, in: reader),
                    width <= current.0, height <= current.1
                {
                    shown = (width, height)
                }
            default:
                break
            }
        }
        // ContainerInfo holds the size before `rotation` turns it; the extractor turns it back.
        if let shown {
            if (info.rotation ?? 0) % 180 == 90 {
                info.setSize(shown.1, shown.0)
            } else {
                info.setSize(shown.0, shown.1)
            }
        }
    }

    /// The width and height of a `clap` box (rationals, rounded to whole pixels); nil when they
    /// are not positive.
    private static func cleanAperture(_ box: Box, in reader: FileReader) throws(MetadataError) -> (Int, Int)? {
        let fields = try payload(of: box, in: reader, limit: 32)
        guard let widthN = fields.u32(at: 0, .bigEndian), let widthD = fields.u32(at: 4, .bigEndian),
            let heightN = fields.u32(at: 8, .bigEndian), let heightD = fields.u32(at: 12, .bigEndian),
            widthD > 0, heightD > 0
        else { return nil }
        // Signed per ISO 14496-12; a negative size means nothing.
        guard Int32(bitPattern: widthN) > 0, Int32(bitPattern: heightN) > 0, Int32(bitPattern: widthD) > 0,
            Int32(bitPattern: heightD) > 0
        else { return nil }
        let width = Int((Double(widthN) / Double(widthD)).rounded())
        let height = Int((Double(heightN) / Double(heightD)).rounded())
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// The 1-based property indices associated with each item in an `ipma` box (the first entry of
    /// an item listed twice).
    static func associationTable(_ ipma: Box, in reader: FileReader) throws(MetadataError) -> [UInt32: [Int]] {
        let data = try payload(of: ipma, in: reader, limit: 1 << 20)
        let version = data.u8(at: 0) ?? 0
        let wideIndices = (data.u8(at: 3) ?? 0) & 1 == 1
        guard let count = data.u32(at: 4, .bigEndian) else { return [:] }
        var table: [UInt32: [Int]] = [:]
        var offset = 8
        for _ in 0..<min(Int(count), 100_000) {
            let itemID: UInt32?
            if version < 1 {
                itemID = data.u16(at: offset, .bigEndian).map(UInt32.init)
                offset += 2
            } else {
                itemID = data.u32(at: offset, .bigEndian)
                offset += 4
            }
            guard let itemID, let associationCount = data.u8(at: offset) else { return table }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<Int(associationCount) {
                if wideIndices {
                    guard let value = data.u16(at: offset, .bigEndian) else { return table }
                    indices.append(Int(value & 0x7FFF))
                    offset += 2
                } else {
                    guard let value = data.u8(at: offset) else { return table }
                    indices.append(Int(value & 0x7F))
                    offset += 1
                }
            }
            if table[itemID] == nil { table[itemID] = indices }
        }
        return table
    }

    /// The ID of the item of type `Exif` in an `iinf` box.
    private static func exifItemID(_ iinf: Box, in reader: FileReader) throws(MetadataError) -> UInt32? {
        let version = try payload(of: iinf, in: reader, limit: 1).u8(at: 0) ?? 0
        let inner = Box(type: "iinf", start: iinf.start, payload: iinf.payload + (version == 0 ? 6 : 8), end: iinf.end)
        for infe in try children(of: inner, in: reader) where infe.type == "infe" {
            let fields = try payload(of: infe, in: reader, limit: 16)
            switch fields.u8(at: 0) {
            case 2:
                if fields.fourCC(at: 8) == "Exif" { return fields.u16(at: 4, .bigEndian).map(UInt32.init) }
            case 3:
                if fields.fourCC(at: 10) == "Exif" { return fields.u32(at: 4, .bigEndian) }
            default:
                continue
            }
        }
        return nil
    }

    /// The file offset and length of `item`'s single extent in an `iloc` box (construction method
    /// 0: in this file), when it lies in the file.
    private static func location(
        of item: UInt32, iloc: Box, in reader: FileReader
    ) throws(MetadataError) -> (
        offset: Int, length: Int
    )? {
        guard let found = try items(in: iloc, reader: reader)?.first(where: { $0.id == item }),
            found.method == 0, found.extents.count == 1, let (offset, length) = found.extents.first,
            offset >= 0, length > 0, offset <= reader.size - length
        else { return nil }
        return (offset, length)
    }

    /// One item of an `iloc` box: its construction method (0: in this file) and its extents, absolute for method 0.
    private struct ItemLocation {
        let id: UInt32
        let method: Int
        let extents: [(offset: Int, length: Int)]
    }

    /// The items an `iloc` box locates, or `nil` when the box is cut or unreadable. Extents of length 0 ("to the
    /// end of the file") are left out.
    private static func items(in iloc: Box, reader: FileReader) throws(MetadataError) -> [ItemLocation]? {
        let data = try payload(of: iloc, in: reader, limit: 1 << 20)
        guard let version = data.u8(at: 0), let sizes = data.u8(at: 4), let sizes2 = data.u8(at: 5) else { return nil }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 0x0F)
        let baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 0x0F) : 0
        var cursor = 6
        func read(_ width: Int) -> Int? {
            defer { cursor += width }
            switch width {
            case 0: return 0
            case 2: return data.u16(at: cursor, .bigEndian).map(Int.init)
            case 4: return data.u32(at: cursor, .bigEndian).map(Int.init)
            case 8: return data.u64(at: cursor, .bigEndian).flatMap { $0 <= 1 << 48 ? Int($0) : nil }
            default: return nil
            }
        }
        guard let itemCount = read(version < 2 ? 2 : 4) else { return nil }
        // Offset and length fields may be zero bytes wide, so extents can cost no data and the box's size does not
        // bound the walk: a 60 KB `iloc` of 10 000 items declaring 65 535 such extents each is 655 million steps.
        // Real files list tens of items of one extent each.
        var extentBudget = 10_000
        var items: [ItemLocation] = []
        for _ in 0..<min(itemCount, 100_000) {
            guard let itemID = read(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version >= 1 {
                guard let value = read(2) else { return nil }
                method = value & 0x0F
            }
            guard read(2) != nil, let baseOffset = read(baseOffsetSize), let extentCount = read(2) else { return nil }
            extentBudget -= extentCount
            guard extentBudget >= 0 else { return nil }
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                guard read(indexSize) != nil, let offset = read(offsetSize), let length = read(lengthSize) else {
                    return nil
                }
                if length > 0 { extents.append((baseOffset + offset, length)) }
            }
            items.append(ItemLocation(id: UInt32(truncatingIfNeeded: itemID), method: method, extents: extents))
        }
        return items
    }
}
