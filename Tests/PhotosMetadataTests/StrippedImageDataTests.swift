import Foundation
import PhotosMetadata
import Testing

/// One rule for files whose metadata is whole but whose image data is stripped or cut, the same for
/// every format (docs/metadata.md, "Files without their image data"):
///
/// - the container is whole, whatever its pixel bytes hold (zeros, a few placeholder bytes): an asset;
/// - the file stops where its image data begins (inside or right after the header that introduces it,
///   or exactly at its first byte), every header before it whole: a metadata stub, an asset;
/// - the file stops anywhere else (inside its image data, before the place where it begins, or with
///   that data pointed to outside the file): `truncated`;
/// - the structure, whole, has no place for image data at all: `corrupt`.
///
/// Each row takes a real corpus file (or a bitmap built here: the corpus has none) and damages it.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))  // the corpus lives outside the repository
struct StrippedImageDataTests {
    enum Outcome: CustomStringConvertible {
        case asset, truncated, corrupt

        var description: String {
            switch self {
            case .asset: "asset"
            case .truncated: "truncated"
            case .corrupt: "corrupt"
            }
        }
    }

    struct Variant: CustomTestStringConvertible, Sendable {
        let format: String
        let damage: String
        let source: String?
        let expected: Outcome
        let build: @Sendable ([UInt8]) -> [UInt8]?

        var testDescription: String { "\(format): \(damage) → \(expected)" }
    }

    static let extractor = MetadataExtractor()

    static let variants: [Variant] =
        jpeg + png + gif + webp + heif + movie + avi + matroska + tiff + raf + crw + bmp
        + jpegXL

    @Test(arguments: variants)
    func damagedFileGetsTheRulesOutcome(variant: Variant) throws {
        let original: [UInt8]
        if let source = variant.source {
            original = try [UInt8](Data(contentsOf: Corpus.directory.appendingPathComponent(source)))
        } else {
            original = []
        }
        let bytes = try #require(variant.build(original), "the variant could not be built")
        let directory = try TemporaryDirectory()
        let name = "damaged." + (variant.source?.split(separator: ".").last.map(String.init) ?? "bmp")
        let path = try directory.write(bytes, to: name)
        let outcome: Outcome
        var detail = ""
        do {
            let metadata = try Self.extractor.extract(path: path)
            outcome = .asset
            detail = "\(metadata.pixelWidth.map(String.init) ?? "?")×\(metadata.pixelHeight.map(String.init) ?? "?")"
            if metadata.kind == .image {
                #expect(metadata.pixelWidth != nil, "an image asset states its size")
            }
        } catch {
            detail = error.message
            outcome = error.code == .truncated ? .truncated : error.code == .corrupt ? .corrupt : .asset
            #expect(error.code == .truncated || error.code == .corrupt, "\(error)")
            #expect(error.path == path)
        }
        print("stripped: \(variant.format) | \(variant.damage) | \(outcome) | \(detail)")
        #expect(outcome == variant.expected, "\(variant.format) \(variant.damage): \(detail)")
    }

    // MARK: Per format

    static let jpeg: [Variant] = {
        let source = "Camera/2008/Road trip/DSCN0010.jpg"
        @Sendable func scan(_ bytes: [UInt8]) -> (start: Int, end: Int)? {
            var position = 2
            while position + 4 <= bytes.count, bytes[position] == 0xFF {
                let marker = bytes[position + 1]
                let length = Int(bytes.be16(position + 2))
                if marker == 0xDA { return (position, position + 2 + length) }
                position += 2 + length
            }
            return nil
        }
        return [
            Variant(format: "JPEG", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(format: "JPEG", damage: "scan of zeros", source: source, expected: .asset) { bytes in
                guard let scan = scan(bytes) else { return nil }
                return Array(bytes.prefix(scan.end)) + [UInt8](repeating: 0, count: 4096) + [0xFF, 0xD9]
            },
            Variant(format: "JPEG", damage: "empty scan, then EOI", source: source, expected: .asset) { bytes in
                scan(bytes).map { Array(bytes.prefix($0.end)) + [0xFF, 0xD9] }
            },
            Variant(format: "JPEG", damage: "ends right after its scan header", source: source, expected: .asset) {
                bytes in scan(bytes).map { Array(bytes.prefix($0.end)) }
            },
            Variant(format: "JPEG", damage: "ends inside its scan header", source: source, expected: .asset) { bytes in
                scan(bytes).map { Array(bytes.prefix($0.start + 5)) }
            },
            Variant(format: "JPEG", damage: "cut inside the image data", source: source, expected: .truncated) {
                bytes in scan(bytes).map { Array(bytes.prefix(($0.end + bytes.count) / 2)) }
            },
            Variant(format: "JPEG", damage: "ends before its scan", source: source, expected: .truncated) { bytes in
                scan(bytes).map { Array(bytes.prefix($0.start)) }
            },
            Variant(format: "JPEG", damage: "cut inside its EXIF", source: source, expected: .truncated) {
                Array($0.prefix(300))
            },
            Variant(format: "JPEG", damage: "no scan, then EOI", source: source, expected: .corrupt) { bytes in
                scan(bytes).map { Array(bytes.prefix($0.start)) + [0xFF, 0xD9] }
            },
        ]
    }()

    static let png: [Variant] = {
        let source = "Downloads/ReaganSmallPng.png"
        @Sendable func chunks(_ bytes: [UInt8]) -> [(type: String, start: Int, end: Int)] {
            var result: [(String, Int, Int)] = []
            var position = 8
            while position + 8 <= bytes.count {
                let length = Int(bytes.be32(position))
                let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
                result.append((type, position, position + 12 + length))
                position += 12 + length
            }
            return result
        }
        @Sendable func firstIDAT(_ bytes: [UInt8]) -> (type: String, start: Int, end: Int)? {
            chunks(bytes).first { $0.type == "IDAT" }
        }
        return [
            Variant(format: "PNG", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(format: "PNG", damage: "IDAT of zeros", source: source, expected: .asset) { bytes in
                var copy = bytes
                for chunk in chunks(bytes) where chunk.type == "IDAT" {
                    for index in (chunk.start + 8)..<(chunk.end - 4) { copy[index] = 0 }
                }
                return copy
            },
            Variant(format: "PNG", damage: "ends right after its first IDAT header", source: source, expected: .asset) {
                bytes in firstIDAT(bytes).map { Array(bytes.prefix($0.start + 8)) }
            },
            // Its type cut off, the header does not yet say that image data follows.
            Variant(format: "PNG", damage: "ends inside its first IDAT header", source: source, expected: .truncated) {
                bytes in firstIDAT(bytes).map { Array(bytes.prefix($0.start + 6)) }
            },
            Variant(format: "PNG", damage: "cut inside IDAT", source: source, expected: .truncated) { bytes in
                firstIDAT(bytes).map { Array(bytes.prefix(($0.start + $0.end) / 2)) }
            },
            Variant(format: "PNG", damage: "ends before its first IDAT", source: source, expected: .truncated) {
                bytes in firstIDAT(bytes).map { Array(bytes.prefix($0.start)) }
            },
            Variant(format: "PNG", damage: "ends before IEND", source: source, expected: .truncated) {
                Array($0.dropLast(12))
            },
            Variant(format: "PNG", damage: "no IDAT, then IEND", source: source, expected: .corrupt) { bytes in
                firstIDAT(bytes).map { Array(bytes.prefix($0.start)) + Array(bytes.suffix(12)) }
            },
        ]
    }()

    static let gif: [Variant] = {
        let source = "Downloads/gif.gif"
        /// The first image descriptor and the offset of its first data sub-block.
        @Sendable func image(_ bytes: [UInt8]) -> (descriptor: Int, data: Int)? {
            var position = 13 + (bytes[10] & 0x80 == 0 ? 0 : 3 << (Int(bytes[10] & 7) + 1))
            while position < bytes.count {
                switch bytes[position] {
                case 0x21:
                    position += 2
                    while position < bytes.count, bytes[position] != 0 { position += 1 + Int(bytes[position]) }
                    position += 1
                case 0x2C:
                    let flags = bytes[position + 9]
                    let data = position + 10 + (flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 7) + 1)) + 1
                    return (position, data)
                default:
                    return nil
                }
            }
            return nil
        }
        return [
            Variant(format: "GIF", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(format: "GIF", damage: "image of no data", source: source, expected: .asset) { bytes in
                image(bytes).map { Array(bytes.prefix($0.data)) + [0x00, 0x3B] }
            },
            Variant(format: "GIF", damage: "ends right after its image descriptor", source: source, expected: .asset) {
                bytes in image(bytes).map { Array(bytes.prefix($0.data)) }
            },
            Variant(format: "GIF", damage: "cut inside the image data", source: source, expected: .truncated) {
                bytes in image(bytes).map { Array(bytes.prefix(($0.data + bytes.count) / 2)) }
            },
            Variant(format: "GIF", damage: "ends before its image", source: source, expected: .truncated) { bytes in
                image(bytes).map { Array(bytes.prefix($0.descriptor)) }
            },
            Variant(format: "GIF", damage: "cut inside its colour table", source: source, expected: .truncated) {
                Array($0.prefix(100))
            },
            Variant(format: "GIF", damage: "no image, then trailer", source: source, expected: .corrupt) { bytes in
                image(bytes).map { Array(bytes.prefix($0.descriptor)) + [0x3B] }
            },
        ]
    }()

    static let webp: [Variant] = {
        @Sendable func chunk(_ bytes: [UInt8], _ types: Set<String>) -> (start: Int, end: Int)? {
            var position = 12
            while position + 8 <= bytes.count {
                let size = Int(bytes.le32(position + 4))
                let type = String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
                if types.contains(type) { return (position, position + 8 + size) }
                position += 8 + size + (size & 1)
            }
            return nil
        }
        /// The bytes before `end`, with the RIFF size left as it was (the file says it is longer).
        @Sendable func cut(_ bytes: [UInt8], at end: Int) -> [UInt8] { Array(bytes.prefix(end)) }
        var variants: [Variant] = []
        // A lossless simple file (the size is in the VP8L header), a lossy extended one (VP8X, then VP8).
        for (source, headerLength) in [("Downloads/webp.webp", 5), ("Downloads/Nikon D1X.webp", 10)] {
            let label = source.hasSuffix("D1X.webp") ? "WebP (VP8X, VP8)" : "WebP (VP8L)"
            variants += [
                Variant(format: label, damage: "whole", source: source, expected: .asset) { $0 },
                Variant(format: label, damage: "bitstream of zeros", source: source, expected: .asset) { bytes in
                    guard let image = chunk(bytes, ["VP8 ", "VP8L"]) else { return nil }
                    var copy = bytes
                    for index in (image.start + 8 + headerLength)..<image.end { copy[index] = 0 }
                    return copy
                },
                Variant(
                    format: label, damage: "ends right after its bitstream header", source: source, expected: .asset
                ) { bytes in chunk(bytes, ["VP8 ", "VP8L"]).map { cut(bytes, at: $0.start + 8 + headerLength) } },
                Variant(format: label, damage: "cut inside the bitstream", source: source, expected: .truncated) {
                    bytes in chunk(bytes, ["VP8 ", "VP8L"]).map { cut(bytes, at: ($0.start + $0.end) / 2) }
                },
                Variant(format: label, damage: "no bitstream chunk", source: source, expected: .corrupt) { bytes in
                    guard let image = chunk(bytes, ["VP8 ", "VP8L"]) else { return nil }
                    var copy = Array(bytes[..<image.start]) + Array(bytes[image.end...])
                    copy.setLE32(0, 4, UInt32(copy.count - 8))
                    return copy
                },
            ]
        }
        variants.append(
            Variant(
                format: "WebP (VP8X, VP8)", damage: "cut inside VP8X", source: "Downloads/Nikon D1X.webp",
                expected: .truncated
            ) { Array($0.prefix(24)) })
        return variants
    }()

    static func boxes(_ bytes: [UInt8], from start: Int = 0) -> [(type: String, start: Int, end: Int)] {
        var result: [(String, Int, Int)] = []
        var position = start
        while position + 8 <= bytes.count {
            var size = Int(bytes.be32(position))
            if size == 1 { size = Int(bytes.be32(position + 12)) }  // files below 4 GiB
            if size == 0 { size = bytes.count - position }
            guard size >= 8 else { break }
            result.append(
                (String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self), position, position + size))
            position += size
        }
        return result
    }

    /// The top-level `mdat` box: its start, the start of its payload (after a 64-bit size, when it has one), its end.
    static func mdat(_ bytes: [UInt8]) -> (start: Int, payload: Int, end: Int)? {
        boxes(bytes).first { $0.type == "mdat" }.map { box in
            (box.start, box.start + (bytes.be32(box.start) == 1 ? 16 : 8), box.end)
        }
    }

    static let heif: [Variant] = {
        var variants: [Variant] = []
        for source in ["Downloads/Stonehenge.heic", "Downloads/fox.avif"] {
            let label = source.hasSuffix(".avif") ? "AVIF" : "HEIC"
            variants += [
                Variant(format: label, damage: "whole", source: source, expected: .asset) { $0 },
                Variant(format: label, damage: "mdat of zeros", source: source, expected: .asset) { bytes in
                    guard let box = mdat(bytes) else { return nil }
                    var copy = bytes
                    for index in box.payload..<box.end { copy[index] = 0 }
                    return copy
                },
                Variant(format: label, damage: "ends right after the mdat header", source: source, expected: .asset) {
                    bytes in mdat(bytes).map { Array(bytes.prefix($0.payload)) }
                },
                Variant(format: label, damage: "cut inside mdat", source: source, expected: .truncated) { bytes in
                    mdat(bytes).map { Array(bytes.prefix(($0.start + $0.end) / 2)) }
                },
                Variant(format: label, damage: "no mdat: items point outside", source: source, expected: .truncated) {
                    bytes in mdat(bytes).map { Array(bytes.prefix($0.start)) }
                },
            ]
        }
        return variants
    }()

    static let movie: [Variant] = {
        // A movie whose header comes first (moov, then mdat), and one whose header comes last.
        let first = "Phone/old phone/sample.3gp"
        let last = "Videos/misc/small_video.mp4"
        return [
            Variant(format: "MP4 (moov first)", damage: "whole", source: first, expected: .asset) { $0 },
            Variant(format: "MP4 (moov first)", damage: "mdat of zeros", source: first, expected: .asset) { bytes in
                guard let box = mdat(bytes) else { return nil }
                return Array(bytes.prefix(box.payload)) + [UInt8](repeating: 0, count: box.end - box.payload)
                    + Array(bytes[box.end...])
            },
            Variant(
                format: "MP4 (moov first)", damage: "ends right after the mdat header", source: first, expected: .asset
            ) { bytes in mdat(bytes).map { Array(bytes.prefix($0.payload)) } },
            Variant(format: "MP4 (moov first)", damage: "cut inside mdat", source: first, expected: .truncated) {
                bytes in mdat(bytes).map { Array(bytes.prefix(($0.start + $0.end) / 2)) }
            },
            Variant(format: "MP4 (moov first)", damage: "no mdat", source: first, expected: .truncated) { bytes in
                mdat(bytes).map { Array(bytes.prefix($0.start)) }
            },
            Variant(format: "MP4 (moov last)", damage: "whole", source: last, expected: .asset) { $0 },
            Variant(format: "MP4 (moov last)", damage: "cut inside mdat", source: last, expected: .truncated) {
                bytes in mdat(bytes).map { Array(bytes.prefix(($0.start + $0.end) / 2)) }
            },
            Variant(format: "MP4 (moov last)", damage: "cut inside moov", source: last, expected: .truncated) {
                Array($0.dropLast(100))
            },
        ]
    }()

    static let avi: [Variant] = {
        let source = "Videos/misc/earth.avi"
        @Sendable func movi(_ bytes: [UInt8]) -> (start: Int, end: Int)? {
            var position = 12
            while position + 12 <= bytes.count {
                let size = Int(bytes.le32(position + 4))
                if bytes.ascii(position, 4) == "LIST", bytes.ascii(position + 8, 4) == "movi" {
                    return (position, position + 8 + size)
                }
                position += 8 + size + (size & 1)
            }
            return nil
        }
        return [
            Variant(format: "AVI", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(format: "AVI", damage: "movi of zeros", source: source, expected: .asset) { bytes in
                guard let list = movi(bytes) else { return nil }
                var copy = bytes
                for index in (list.start + 12)..<list.end { copy[index] = 0 }
                return copy
            },
            Variant(format: "AVI", damage: "ends right after the movi header", source: source, expected: .asset) {
                bytes in movi(bytes).map { Array(bytes.prefix($0.start + 12)) }
            },
            Variant(format: "AVI", damage: "cut inside movi", source: source, expected: .truncated) { bytes in
                movi(bytes).map { Array(bytes.prefix(($0.start + $0.end) / 2)) }
            },
            Variant(format: "AVI", damage: "ends before movi", source: source, expected: .truncated) { bytes in
                movi(bytes).map { Array(bytes.prefix($0.start)) }
            },
            Variant(format: "AVI", damage: "no movi list", source: source, expected: .corrupt) { bytes in
                guard let list = movi(bytes) else { return nil }
                var copy = Array(bytes.prefix(list.start))
                copy.setLE32(0, 4, UInt32(copy.count - 8))
                return copy
            },
        ]
    }()

    static let matroska: [Variant] = {
        let source = "Videos/misc/webm.webm"
        /// The first Cluster element (ID 1F 43 B6 75): its start and the start of its payload.
        @Sendable func cluster(_ bytes: [UInt8]) -> (start: Int, payload: Int)? {
            guard
                let start = (0..<(bytes.count - 4)).first(where: {
                    bytes[$0..<($0 + 4)].elementsEqual([0x1F, 0x43, 0xB6, 0x75])
                })
            else { return nil }
            let first = bytes[start + 4]
            let width = first.leadingZeroBitCount + 1
            return (start, start + 4 + width)
        }
        return [
            Variant(format: "Matroska", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(format: "Matroska", damage: "ends right after a cluster header", source: source, expected: .asset) {
                bytes in cluster(bytes).map { Array(bytes.prefix($0.payload)) }
            },
            Variant(format: "Matroska", damage: "cut inside a cluster", source: source, expected: .truncated) {
                bytes in cluster(bytes).map { Array(bytes.prefix(($0.payload + bytes.count) / 2)) }
            },
            Variant(format: "Matroska", damage: "ends before its clusters", source: source, expected: .truncated) {
                bytes in cluster(bytes).map { Array(bytes.prefix($0.start)) }
            },
        ]
    }()

    static let tiff: [Variant] = {
        var variants: [Variant] = []
        for source in ["Scans/example.tif", "Camera/RAW/canon_eos_6d.dng"] {
            let label = source.hasSuffix(".dng") ? "DNG" : "TIFF"
            variants += [
                Variant(format: label, damage: "whole", source: source, expected: .asset) { $0 },
                Variant(format: label, damage: "pixels of zeros", source: source, expected: .asset) { bytes in
                    let image = TIFFWalk(bytes)
                    guard !image.extents.isEmpty else { return nil }
                    var copy = bytes
                    for extent in image.extents { for index in extent { copy[index] = 0 } }
                    return copy
                },
                Variant(format: label, damage: "zero-length strips and tiles", source: source, expected: .asset) {
                    bytes in
                    let image = TIFFWalk(bytes)
                    var copy = bytes
                    for entry in image.counts { image.setValues(of: entry, to: 0, in: &copy) }
                    return image.counts.isEmpty ? nil : copy
                },
                Variant(format: label, damage: "ends where its image data begins", source: source, expected: .asset) {
                    bytes in
                    let image = TIFFWalk(bytes)
                    guard let first = image.extents.map(\.lowerBound).min(), image.directoriesEnd <= first else {
                        return nil
                    }
                    return Array(bytes.prefix(first))
                },
                Variant(format: label, damage: "cut inside the image data", source: source, expected: .truncated) {
                    bytes in
                    let image = TIFFWalk(bytes)
                    guard let last = image.extents.max(by: { $0.upperBound < $1.upperBound }) else { return nil }
                    return Array(bytes.prefix((last.lowerBound + last.upperBound) / 2))
                },
                Variant(format: label, damage: "strips point past the end", source: source, expected: .truncated) {
                    bytes in
                    let image = TIFFWalk(bytes)
                    var copy = bytes
                    for entry in image.offsets { image.setValues(of: entry, to: UInt32(bytes.count + 4096), in: &copy) }
                    return image.offsets.isEmpty ? nil : copy
                },
                Variant(format: label, damage: "no strips or tiles", source: source, expected: .corrupt) { bytes in
                    let image = TIFFWalk(bytes)
                    var copy = bytes
                    // Renaming the four tags leaves directories that point at no image data.
                    for entry in image.offsets + image.counts { image.setTag(of: entry, to: 0xC7FF, in: &copy) }
                    return copy
                },
            ]
        }
        // ExifTool's sample NEF: a 3040×2014 raw image stored as 18 placeholder bytes.
        variants.append(
            Variant(
                format: "NEF", damage: "ExifTool's stub (placeholder strips)", source: "Camera/RAW/DSC_0070.NEF",
                expected: .asset
            ) { $0 })
        variants.append(
            Variant(
                format: "NEF", damage: "cut inside a strip", source: "Camera/RAW/DSC_0070.NEF", expected: .truncated
            ) {
                bytes in
                let image = TIFFWalk(bytes)
                guard let last = image.extents.max(by: { $0.upperBound < $1.upperBound }) else { return nil }
                return Array(bytes.prefix(last.lowerBound + 1))
            })
        return variants
    }()

    static let raf: [Variant] = {
        let source = "Camera/RAW/DSCF5000.RAF"
        // The header's CFA offset (100) and length (104), big-endian.
        return [
            Variant(format: "RAF", damage: "ExifTool's stub (placeholder CFA)", source: source, expected: .asset) {
                $0
            },
            Variant(format: "RAF", damage: "ends where its CFA data begins", source: source, expected: .asset) {
                Array($0.prefix(Int($0.be32(100))))
            },
            Variant(format: "RAF", damage: "cut inside the CFA data", source: source, expected: .truncated) {
                Array($0.prefix(Int($0.be32(100)) + 5))
            },
            Variant(format: "RAF", damage: "CFA data points past the end", source: source, expected: .truncated) {
                bytes in
                var copy = bytes
                copy.setBE32(104, UInt32(1 << 20))
                return copy
            },
            Variant(format: "RAF", damage: "cut inside its preview", source: source, expected: .truncated) {
                Array($0.prefix(Int($0.be32(84)) + 100))
            },
        ]
    }()

    static let crw: [Variant] = {
        let source = "Camera/RAW/CRW_0040.CRW"
        return [
            Variant(format: "CRW", damage: "exiv2's sample", source: source, expected: .asset) { $0 },
            // The root directory is at the end of the file: a cut CRW has lost the headers that state its size.
            Variant(format: "CRW", damage: "cut", source: source, expected: .corrupt) {
                Array($0.prefix($0.count / 2))
            },
        ]
    }()

    static let bmp: [Variant] = {
        // 5×3 pixels, 24 bits: rows of 15 bytes padded to 16, 48 bytes of pixels after 54 bytes of headers.
        @Sendable func bitmap() -> [UInt8] {
            var bytes: [UInt8] = Array("BM".utf8)
            bytes += le32(54 + 48) + [0, 0, 0, 0] + le32(54)
            bytes += le32(40) + le32(5) + le32(3) + [1, 0, 24, 0] + le32(0) + le32(48)
            bytes += le32(2835) + le32(2835) + le32(0) + le32(0)
            return bytes + [UInt8](repeating: 0x7F, count: 48)
        }
        return [
            Variant(format: "BMP", damage: "whole", source: nil, expected: .asset) { _ in bitmap() },
            Variant(format: "BMP", damage: "ends where its pixels begin", source: nil, expected: .asset) { _ in
                Array(bitmap().prefix(54))
            },
            Variant(format: "BMP", damage: "cut inside its pixels", source: nil, expected: .truncated) { _ in
                Array(bitmap().prefix(54 + 20))
            },
            Variant(format: "BMP", damage: "cut inside its DIB header", source: nil, expected: .truncated) { _ in
                Array(bitmap().prefix(40))
            },
        ]
    }()

    static let jpegXL: [Variant] = {
        let source = "Downloads/jpegxl.jxl"
        // A bare codestream states neither its length nor its end: only a cut size header can be told.
        return [
            Variant(format: "JPEG XL (codestream)", damage: "whole", source: source, expected: .asset) { $0 },
            Variant(
                format: "JPEG XL (codestream)", damage: "cut after its size header", source: source, expected: .asset
            ) {
                Array($0.prefix($0.count / 2))
            },
            Variant(
                format: "JPEG XL (codestream)", damage: "cut inside its size header", source: source,
                expected: .truncated
            ) {
                Array($0.prefix(3))
            },
        ]
    }()

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}

/// The image directories of a TIFF (IFD0, its chain, SubIFDs): where their strips and tiles are, and
/// the entries that list them.
struct TIFFWalk {
    struct Entry {
        let position: Int
        let type: UInt16
        let count: Int
    }

    let bigEndian: Bool
    var offsets: [Entry] = []
    var counts: [Entry] = []
    var extents: [Range<Int>] = []
    /// The end of the last directory table.
    var directoriesEnd = 0

    init(_ bytes: [UInt8]) {
        bigEndian = bytes[0] == 0x4D
        var pending = [Int(u32(bytes, 4))]
        var seen: Set<Int> = []
        while let offset = pending.popLast() {
            guard offset > 0, offset + 2 <= bytes.count, seen.insert(offset).inserted else { continue }
            let count = Int(u16(bytes, offset))
            directoriesEnd = max(directoriesEnd, offset + 2 + 12 * count + 4)
            var stripOffsets: [Int] = []
            var stripCounts: [Int] = []
            for index in 0..<count {
                let position = offset + 2 + 12 * index
                let tag = u16(bytes, position)
                let entry = Entry(
                    position: position, type: u16(bytes, position + 2), count: Int(u32(bytes, position + 4)))
                switch tag {
                case 0x0111, 0x0144:
                    offsets.append(entry)
                    stripOffsets = values(entry, bytes)
                case 0x0117, 0x0145:
                    counts.append(entry)
                    stripCounts = values(entry, bytes)
                case 0x014A:
                    pending += values(entry, bytes)
                default:
                    break
                }
            }
            extents += zip(stripOffsets, stripCounts).filter { $0.1 > 0 }.map { $0.0..<($0.0 + $0.1) }
            pending.append(Int(u32(bytes, offset + 2 + 12 * count)))
        }
    }

    func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        bigEndian ? bytes.be16(at) : UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        bigEndian ? bytes.be32(at) : bytes.le32(at)
    }

    /// Where an entry's values are: in the entry when they fit in four bytes.
    func valuesStart(_ entry: Entry, _ bytes: [UInt8]) -> Int {
        let size = entry.type == 3 ? 2 : 4
        return entry.count * size <= 4 ? entry.position + 8 : Int(u32(bytes, entry.position + 8))
    }

    func values(_ entry: Entry, _ bytes: [UInt8]) -> [Int] {
        let start = valuesStart(entry, bytes)
        return (0..<entry.count).map {
            entry.type == 3 ? Int(u16(bytes, start + 2 * $0)) : Int(u32(bytes, start + 4 * $0))
        }
    }

    func setValues(of entry: Entry, to value: UInt32, in bytes: inout [UInt8]) {
        let start = valuesStart(entry, bytes)
        for index in 0..<entry.count {
            if entry.type == 3 {
                let short = UInt16(min(value, 0xFFFF))
                let pair: [UInt8] =
                    bigEndian ? [UInt8(short >> 8), UInt8(short & 0xFF)] : [UInt8(short & 0xFF), UInt8(short >> 8)]
                bytes.replaceSubrange((start + 2 * index)..<(start + 2 * index + 2), with: pair)
            } else if bigEndian {
                bytes.setBE32(start + 4 * index, value)
            } else {
                bytes.setLE32(start + 4 * index, 0, value)
            }
        }
    }

    func setTag(of entry: Entry, to tag: UInt16, in bytes: inout [UInt8]) {
        let pair: [UInt8] = bigEndian ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag & 0xFF), UInt8(tag >> 8)]
        bytes.replaceSubrange(entry.position..<(entry.position + 2), with: pair)
    }
}

extension [UInt8] {
    func be16(_ at: Int) -> UInt16 { UInt16(self[at]) << 8 | UInt16(self[at + 1]) }
    func be32(_ at: Int) -> UInt32 {
        UInt32(self[at]) << 24 | UInt32(self[at + 1]) << 16 | UInt32(self[at + 2]) << 8 | UInt32(self[at + 3])
    }
    func le32(_ at: Int) -> UInt32 {
        UInt32(self[at]) | UInt32(self[at + 1]) << 8 | UInt32(self[at + 2]) << 16 | UInt32(self[at + 3]) << 24
    }
    func ascii(_ at: Int, _ count: Int) -> String { String(decoding: self[at..<(at + count)], as: UTF8.self) }

    mutating func setBE32(_ at: Int, _ value: UInt32) {
        for index in 0..<4 { self[at + index] = UInt8(value >> (24 - 8 * index) & 0xFF) }
    }

    /// Writes `value` little-endian at `at + offset`.
    mutating func setLE32(_ at: Int, _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { self[at + offset + index] = UInt8(value >> (8 * index) & 0xFF) }
    }
}
