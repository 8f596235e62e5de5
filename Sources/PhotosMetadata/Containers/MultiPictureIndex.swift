/// A JPEG's Multi-Picture Format index (CIPA DC-007, an APP2 segment `MPF\0`): where the images
/// stored after the primary one start. iPhones keep a Portrait photo's depth map there, and an HDR
/// photo's gain map; Pixels their Ultra HDR gain map; stereo cameras the second view.
///
/// The index is a small TIFF structure: a header, then a directory whose tag 0xB002 (MPEntry) lists
/// 16 bytes per image: attributes, size, and offset from the TIFF header (0 for the primary image).
struct MultiPictureIndex: Sendable {
    static let signature: [UInt8] = Array("MPF".utf8) + [0]
    /// More than an index of hundreds of images needs.
    static let maximumLength = 64 * 1024
    /// How many stored images are looked into, at most.
    static let maximumImages = 8

    /// The file offsets of the images after the primary one.
    let imageOffsets: [Int]

    /// Reads the index of an APP2 payload (starting with `MPF\0`) found at file offset `start`;
    /// nil when it is not one. Offsets outside the file are dropped by ``holdsDepth(in:)``.
    init?(_ payload: ArraySlice<UInt8>, at start: Int) {
        guard payload.matches(Self.signature), let tiff = payload.slice(at: 4, count: payload.count - 4) else {
            return nil
        }
        let order: ByteOrder
        if tiff.matches(ascii: "II") {
            order = .littleEndian
        } else if tiff.matches(ascii: "MM") {
            order = .bigEndian
        } else {
            return nil
        }
        guard tiff.u16(at: 2, order) == 42, let directory = tiff.u32(at: 4, order).map(Int.init),
            let count = tiff.u16(at: directory, order).map(Int.init)
        else { return nil }
        var entries: ArraySlice<UInt8>?
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            guard let tag = tiff.u16(at: entry, order) else { return nil }
            guard tag == 0xB002, let length = tiff.u32(at: entry + 4, order).map(Int.init), length >= 16 else {
                continue
            }
            // UNDEFINED bytes; more than four, so the field holds their offset.
            guard let offset = tiff.u32(at: entry + 8, order).map(Int.init) else { return nil }
            entries = tiff.slice(at: offset, count: length)
            break
        }
        guard let entries else { return nil }
        let headerOffset = start + 4
        var offsets: [Int] = []
        for index in stride(from: 1, to: min(entries.count / 16, Self.maximumImages + 1), by: 1) {
            guard let size = entries.u32(at: 16 * index + 4, order), size > 0,
                let offset = entries.u32(at: 16 * index + 8, order), offset > 0
            else { continue }
            offsets.append(headerOffset + Int(offset))
        }
        imageOffsets = offsets
    }

    /// Whether one of the stored images is depth: its own XMP describes depth data (Apple writes
    /// `depthData` and, for a portrait matte, `apdi:AuxiliaryImageType`). A stored image that
    /// cannot be read is passed over: it does not make the photo unreadable.
    func holdsDepth(in reader: FileReader) throws(MetadataError) -> Bool {
        for offset in imageOffsets where offset < reader.size {
            guard let image = try? JPEGParser.parse(reader, at: offset, requireImage: false),
                let packet = image.xmpPacket
            else { continue }
            if AuxiliaryImageTypes.describesDepth(packet) { return true }
        }
        return false
    }
}
