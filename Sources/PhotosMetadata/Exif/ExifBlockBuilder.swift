/// Packs the descriptive tags of a TIFF structure into a compact EXIF block for libexif.
///
/// libexif reads EXIF as a JPEG APP1 payload and ignores everything past 64 KiB of it. A TIFF,
/// DNG or NEF keeps its EXIF directory wherever the writer put it, often megabytes into the file
/// (the DNG in the corpus has it at 135 KB). So the directories are read with
/// ``TIFFStructure``, and IFD0, the EXIF IFD and the GPS IFD are written back, in the original
/// byte order, into a small block that starts with `Exif\0\0`. Pixel data, maker notes, embedded
/// XMP/IPTC/ICC blobs and any value over 1 KiB are left out: the block carries descriptions, not
/// images.
enum ExifBlockBuilder {
    /// Tags never copied: image data pointers, sub-directories, and large embedded blobs.
    private static let excludedTags: Set<UInt16> = [
        0x0111, 0x0117, 0x0144, 0x0145,  // strips and tiles
        0x014A, 0x0201, 0x0202,  // SubIFDs, JPEG thumbnail
        0x8769, 0x8825, 0xA005,  // IFD pointers (rewritten)
        0x927C, 0x02BC, 0x83BB, 0x8773, 0x8649, 0xC634,  // MakerNote, XMP, IPTC, ICC, Photoshop, DNGPrivateData
    ]
    private static let valueLimit = 1024

    /// The block for the structure's IFD0 (and its EXIF and GPS IFDs), or `nil` when IFD0 cannot
    /// be read.
    static func block(from tiff: TIFFStructure) -> [UInt8]? {
        guard let ifd0 = tiff.optionalDirectory(at: tiff.firstDirectoryOffset, name: "IFD0") else { return nil }
        let exif = tiff.pointer(ifd0, TIFFStructure.Tag.exifIFD)
            .flatMap { tiff.optionalDirectory(at: $0, name: "EXIF IFD") }
        let gps = tiff.pointer(ifd0, TIFFStructure.Tag.gpsIFD)
            .flatMap { tiff.optionalDirectory(at: $0, name: "GPS IFD") }
        // libexif reads at most 64 KiB; the budget keeps directories plus values well under it.
        var budget = 48 * 1024
        let ifd0Items = copyable(ifd0, in: tiff, budget: &budget)
        let exifItems = exif.map { copyable($0, in: tiff, budget: &budget) } ?? []
        let gpsItems = gps.map { copyable($0, in: tiff, budget: &budget) } ?? []
        return block(ifd0: ifd0Items, exif: exifItems, gps: gpsItems, order: tiff.order)
    }

    /// The block of a file that keeps IFD0, the EXIF IFD and the GPS IFD as separate TIFF structures, each the
    /// first directory of its own (a Canon CR3's `CMT1`, `CMT2` and `CMT4` boxes); `nil` when IFD0 cannot be
    /// read. A structure in the other byte order than IFD0's is left out (the values are copied as they are).
    static func block(ifd0 first: TIFFStructure, exif: TIFFStructure?, gps: TIFFStructure?) -> [UInt8]? {
        guard let ifd0 = first.optionalDirectory(at: first.firstDirectoryOffset, name: "IFD0") else { return nil }
        var budget = 48 * 1024
        let ifd0Items = copyable(ifd0, in: first, budget: &budget)
        func items(of tiff: TIFFStructure?, name: String) -> [Item] {
            guard let tiff, tiff.order == first.order,
                let directory = tiff.optionalDirectory(at: tiff.firstDirectoryOffset, name: name)
            else { return [] }
            return copyable(directory, in: tiff, budget: &budget)
        }
        let exifItems = items(of: exif, name: "EXIF IFD")
        let gpsItems = items(of: gps, name: "GPS IFD")
        return block(ifd0: ifd0Items, exif: exifItems, gps: gpsItems, order: first.order)
    }

    private struct Item {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        let value: [UInt8]
    }

    private static func copyable(_ directory: TIFFDirectory, in tiff: TIFFStructure, budget: inout Int) -> [Item] {
        var items: [Item] = []
        for entry in directory.entries.prefix(1000) where !excludedTags.contains(entry.tag) {
            guard let bytes = tiff.valueBytes(entry, limit: valueLimit), bytes.count + 12 <= budget else { continue }
            budget -= bytes.count + 12
            items.append(Item(tag: entry.tag, type: entry.type, count: entry.count, value: Array(bytes)))
        }
        return items
    }

    private static func block(ifd0: [Item], exif: [Item], gps: [Item], order: ByteOrder) -> [UInt8] {
        var ifd0 = ifd0
        let directorySize = { (count: Int) in 2 + 12 * count + 4 }
        let pointerCount = (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + directorySize(ifd0.count + pointerCount)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : directorySize(exif.count))
        let dataOffset = gpsOffset + (gps.isEmpty ? 0 : directorySize(gps.count))
        if !exif.isEmpty { ifd0.append(pointerItem(0x8769, UInt32(exifOffset), order)) }
        if !gps.isEmpty { ifd0.append(pointerItem(0x8825, UInt32(gpsOffset), order)) }

        var tiff: [UInt8] = order == .littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        tiff += encode32(UInt32(ifd0Offset), order)
        var data: [UInt8] = []
        for items in [ifd0, exif, gps] where !items.isEmpty {
            tiff += encode16(UInt16(items.count), order)
            for item in items.sorted(by: { $0.tag < $1.tag }) {
                tiff += encode16(item.tag, order) + encode16(item.type, order) + encode32(item.count, order)
                if item.value.count <= 4 {
                    tiff += item.value + [UInt8](repeating: 0, count: 4 - item.value.count)
                } else {
                    tiff += encode32(UInt32(dataOffset + data.count), order)
                    data += item.value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            tiff += [0, 0, 0, 0]
        }
        return Array("Exif".utf8) + [0, 0] + tiff + data
    }

    private static func pointerItem(_ tag: UInt16, _ offset: UInt32, _ order: ByteOrder) -> Item {
        Item(tag: tag, type: 4, count: 1, value: encode32(offset, order))
    }

    private static func encode16(_ value: UInt16, _ order: ByteOrder) -> [UInt8] {
        let bytes = [UInt8(value >> 8), UInt8(value & 0xFF)]
        return order == .bigEndian ? bytes : bytes.reversed()
    }

    private static func encode32(_ value: UInt32, _ order: ByteOrder) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return order == .bigEndian ? bytes : bytes.reversed()
    }
}
