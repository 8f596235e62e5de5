import Foundation

/// Reads a Matroska or WebM file's EBML elements: the segment's duration and date (Info) and
/// the first video track's pixel size and frame rate (Tracks: `DefaultDuration`, a frame's
/// length in nanoseconds, as ExifTool reads it). Clusters, the media data, are skipped unread: only the first
/// one's header is looked for, to tell a file cut inside its media data from a metadata stub.
enum MatroskaParser {
    private enum ID {
        static let ebml: UInt32 = 0x1A45_DFA3
        static let segment: UInt32 = 0x1853_8067
        static let cluster: UInt32 = 0x1F43_B675
        static let info: UInt32 = 0x1549_A966
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let dateUTC: UInt32 = 0x4461
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackType: UInt32 = 0x83
        static let defaultDuration: UInt32 = 0x23_E383
        static let video: UInt32 = 0xE0
        static let pixelWidth: UInt32 = 0xB0
        static let pixelHeight: UInt32 = 0xBA
    }

    private struct Element {
        let id: UInt32
        let payload: Int
        /// `nil` for the "unknown size" of live streams; at most the file's size.
        let size: Int?
        /// The size as stated, `nil` for the "unknown size".
        var declaredSize: Int? = nil
    }

    /// Seconds from 1970-01-01 to Matroska's epoch, 2001-01-01.
    private static let epochOffset: Double = 978_307_200

    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        guard let header = try element(at: 0, in: reader), header.id == ID.ebml, let headerSize = header.size else {
            throw reader.corrupt("the file does not start with an EBML header")
        }
        guard let segment = try element(at: header.payload + headerSize, in: reader), segment.id == ID.segment else {
            throw reader.corrupt("EBML file has no Matroska segment after its header")
        }
        let end = segment.size.map { segment.payload + $0 } ?? reader.size
        try checkClusters(segment, in: reader)
        var info = ContainerInfo()
        var position = segment.payload
        var sawInfo = false
        var sawTracks = false
        var count = 0
        while position < end, !(sawInfo && sawTracks), count < 10_000 {
            count += 1
            guard let child = try element(at: position, in: reader), let size = child.size else { break }
            if child.id == ID.info {
                sawInfo = true
                try readInfo(child, in: reader, into: &info)
            } else if child.id == ID.tracks {
                sawTracks = true
                try readTracks(child, in: reader, into: &info)
            }
            position = child.payload + size
        }
        return info
    }

    /// Checks that the segment's clusters (the media data) are in the file: a segment cut short is truncated unless
    /// the file stops right after the header of its first cluster (a metadata stub), and a whole segment of known
    /// size must hold a cluster.
    private static func checkClusters(_ segment: Element, in reader: FileReader) throws(MetadataError) {
        let declaredEnd = segment.declaredSize.map { segment.payload + $0 }
        let isCut = declaredEnd.map { $0 > reader.size } ?? false
        let limit = min(declaredEnd ?? reader.size, reader.size)
        var position = segment.payload
        var count = 0
        while position < limit, count < 10_000 {
            count += 1
            guard let child = try element(at: position, in: reader) else { break }
            if child.id == ID.cluster {
                if isCut, child.payload != reader.size {
                    throw reader.truncated(
                        "Matroska segment (\(declaredEnd.map { $0 - segment.payload } ?? 0) bytes) runs past the end "
                            + "of the file (\(reader.size) bytes): it ends inside its media data (clusters)")
                }
                return
            }
            // An element of unknown size (a live stream's) cannot be skipped.
            guard let size = child.declaredSize else { return }
            position = child.payload + size
        }
        if isCut {
            throw reader.truncated(
                "Matroska segment (\(declaredEnd.map { $0 - segment.payload } ?? 0) bytes) runs past the end of the "
                    + "file (\(reader.size) bytes), before its media data (clusters)")
        }
        if declaredEnd != nil, position >= limit {
            throw reader.corrupt("Matroska segment has no media data (no cluster)")
        }
    }

    private static func readInfo(
        _ element: Element, in reader: FileReader, into info: inout ContainerInfo
    )
        throws(MetadataError)
    {
        var scale: UInt64 = 1_000_000
        var duration: Double?
        for child in try children(of: element, in: reader) {
            let data = try reader.readExactly(at: child.payload, count: child.size ?? 0, what: "Matroska Info field")
            switch child.id {
            case ID.timestampScale: scale = unsigned(data) ?? scale
            case ID.duration: duration = float(data)
            case ID.dateUTC:
                if let value = unsigned(data), data.count == 8 {
                    info.creationDate = Date(
                        timeIntervalSince1970: epochOffset + Double(Int64(bitPattern: value)) / 1e9)
                }
            default: break
            }
        }
        if let duration, duration.isFinite, duration > 0 {
            info.duration = duration * Double(scale) / 1e9
        }
    }

    private static func readTracks(
        _ element: Element, in reader: FileReader, into info: inout ContainerInfo
    )
        throws(MetadataError)
    {
        for entry in try children(of: element, in: reader) where entry.id == ID.trackEntry {
            let fields = try children(of: entry, in: reader)
            guard let type = fields.first(where: { $0.id == ID.trackType }),
                try unsigned(reader.readExactly(at: type.payload, count: type.size ?? 0, what: "TrackType")) == 1,
                let video = fields.first(where: { $0.id == ID.video })
            else { continue }
            var width = 0
            var height = 0
            for field in try children(of: video, in: reader)
            where field.id == ID.pixelWidth || field.id == ID.pixelHeight {
                let value = try unsigned(
                    reader.readExactly(at: field.payload, count: field.size ?? 0, what: "pixel size"))
                if field.id == ID.pixelWidth { width = Int(value ?? 0) } else { height = Int(value ?? 0) }
            }
            info.setSize(width, height)
            if let field = fields.first(where: { $0.id == ID.defaultDuration }),
                let nanoseconds = try unsigned(
                    reader.readExactly(at: field.payload, count: field.size ?? 0, what: "DefaultDuration")),
                nanoseconds > 0
            {
                info.frameRate = 1e9 / Double(nanoseconds)
            }
            return
        }
    }

    /// The elements inside `parent`, at most 1 000, each with a known size inside the parent.
    private static func children(of parent: Element, in reader: FileReader) throws(MetadataError) -> [Element] {
        guard let size = parent.size, size <= 1 << 20 else { return [] }
        var elements: [Element] = []
        var position = parent.payload
        let end = parent.payload + size
        while position < end, elements.count < 1000 {
            guard let child = try element(at: position, in: reader), let childSize = child.size,
                child.payload + childSize <= end
            else { break }
            elements.append(child)
            position = child.payload + childSize
        }
        return elements
    }

    /// The element header at `offset`: an ID of 1–4 bytes and a size of 1–8 bytes.
    private static func element(at offset: Int, in reader: FileReader) throws(MetadataError) -> Element? {
        let bytes = try reader.read(at: offset, count: 12)
        guard let first = bytes.u8(at: 0), first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, let sizeFirst = bytes.u8(at: idLength), sizeFirst != 0 else { return nil }
        var id: UInt32 = 0
        for index in 0..<idLength { id = id << 8 | UInt32(bytes.u8(at: index) ?? 0) }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard bytes.count >= idLength + sizeLength else { return nil }
        var size = UInt64(sizeFirst & (0xFF >> sizeLength))
        var allOnes = size == UInt64(0xFF >> sizeLength)
        for index in 1..<sizeLength {
            let byte = bytes.u8(at: idLength + index) ?? 0
            size = size << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        let payload = offset + idLength + sizeLength
        if allOnes { return Element(id: id, payload: payload, size: nil) }
        guard size <= UInt64(reader.size) else {
            return Element(id: id, payload: payload, size: Int(reader.size), declaredSize: Int(min(size, 1 << 56)))
        }
        return Element(id: id, payload: payload, size: Int(size), declaredSize: Int(size))
    }

    private static func unsigned(_ data: ArraySlice<UInt8>) -> UInt64? {
        guard (1...8).contains(data.count) else { return nil }
        return data.reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func float(_ data: ArraySlice<UInt8>) -> Double? {
        switch data.count {
        case 4: data.u32(at: 0, .bigEndian).map { Double(Float(bitPattern: $0)) }
        case 8: data.u64(at: 0, .bigEndian).map { Double(bitPattern: $0) }
        default: nil
        }
    }
}
