import Foundation
import PhotosMetadata
import PhotosTestSupport
import Testing

/// A GIF's extensions and image data are chains of sub-blocks of 0 to 255 bytes, ended by an empty
/// one. How long or how many the sub-blocks are is the writer's choice: a walk that ends at the
/// terminator or the file's end, whatever their number, takes whole files as whole and cut ones as
/// truncated.
@Suite struct GIFSubBlockTests {
    static let extractor = MetadataExtractor()

    static func extract(_ bytes: [UInt8], name: String = "a.gif") throws -> FileMetadata {
        let directory = try TemporaryDirectory()
        return try extractor.extract(path: directory.write(bytes, to: name))
    }

    /// Header and logical screen of `width`×`height` with a 2-colour global table.
    static func screen(width: UInt8, height: UInt8) -> [UInt8] {
        Array("GIF89a".utf8) + [width, 0, height, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
    }

    /// An image descriptor for the whole screen, then its LZW data (minimum code size 2) cut into
    /// sub-blocks of `blockLength` bytes: every pixel sent as a clear code and its colour (3-bit
    /// codes, what "uncompressed" GIF writers do), then the end code.
    static func image(width: UInt8, height: UInt8, blockLength: Int) -> [UInt8] {
        var codes: [UInt16] = []
        for _ in 0..<(Int(width) * Int(height)) { codes += [4, 0] }
        codes.append(5)
        var data: [UInt8] = []
        var bits = 0
        var count = 0
        for code in codes {
            bits |= Int(code) << count
            count += 3
            while count >= 8 {
                data.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { data.append(UInt8(bits & 0xFF)) }
        var bytes: [UInt8] = [0x2C, 0, 0, 0, 0, width, 0, height, 0, 0, 2]
        var start = 0
        while start < data.count {
            let block = data[start..<min(start + blockLength, data.count)]
            bytes += [UInt8(block.count)] + block
            start += blockLength
        }
        return bytes + [0]
    }

    /// XMP in a GIF as ExifTool and Adobe write it (XMP part 3): an application extension "XMP
    /// DataXMP" whose packet is stored as it is, each of its bytes read as a sub-block length, then
    /// the 258-byte "magic trailer" (1, 255, 254, ..., 1, 0, 0) that brings any such walk to the
    /// terminator.
    static func xmpExtension(title: String) -> [UInt8] {
        let packet = """
            <?xpacket begin='\u{FEFF}' id='W5M0MpCehiHzreSzNTczkc9d'?>
            <x:xmpmeta xmlns:x='adobe:ns:meta/' x:xmptk='Image::ExifTool 12.57'>
            <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
             <rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>
              <dc:title><rdf:Alt><rdf:li xml:lang='x-default'>\(title)</rdf:li></rdf:Alt></dc:title>
             </rdf:Description>
            </rdf:RDF>
            </x:xmpmeta>
            \(String(repeating: String(repeating: " ", count: 99) + "\n", count: 24))<?xpacket end='w'?>
            """
        let trailer: [UInt8] = [1] + (0...255).reversed().map { UInt8($0) } + [0]
        return [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + Array(packet.utf8) + trailer
    }

    @Test func xmpWrittenAsExifToolWritesItIsNoTruncation() throws {
        let gif =
            Self.screen(width: 8, height: 8) + Self.xmpExtension(title: "hello")
            + Self.image(width: 8, height: 8, blockLength: 255) + [0x3B]
        let metadata = try Self.extract(gif)
        #expect(metadata.pixelWidth == 8 && metadata.pixelHeight == 8)
    }

    @Test(arguments: [1, 16, 255])
    func imageDataInShortSubBlocksIsNoTruncation(blockLength: Int) throws {
        let gif = Self.screen(width: 32, height: 32) + Self.image(width: 32, height: 32, blockLength: blockLength)
        // With and without the trailer: some writers omit it.
        for bytes in [gif + [0x3B], gif] {
            let metadata = try Self.extract(bytes)
            #expect(metadata.pixelWidth == 32 && metadata.pixelHeight == 32, "\(blockLength)")
        }
    }

    /// A chain cut before its terminator is truncated however short its sub-blocks, and a chain of
    /// lengths that point past the file's end ends the walk there.
    @Test(arguments: [1, 16, 255])
    func imageDataCutInsideItsSubBlocksIsTruncated(blockLength: Int) throws {
        let gif = Self.screen(width: 32, height: 32) + Self.image(width: 32, height: 32, blockLength: blockLength)
        for cut in [gif.count - 1, gif.count - 2, gif.count / 2] {
            let error = #expect(throws: MetadataError.self) { _ = try Self.extract(Array(gif.prefix(cut))) }
            #expect(error?.code == .truncated, "\(blockLength) cut at \(cut): \(String(describing: error))")
        }
        // Image data whose sub-blocks each claim 255 bytes, to the file's end: truncated, not a hang.
        let runaway = [UInt8](repeating: 0xFF, count: 5000)
        let endless = Self.screen(width: 2, height: 2) + [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2] + runaway
        #expect(throws: MetadataError.self) { _ = try Self.extract(endless) }
    }
}
