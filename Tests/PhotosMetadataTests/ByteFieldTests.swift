import Testing

@testable import PhotosMetadata

/// Fields of a slice of bytes read relative to its start: four-character codes byte by byte, and a
/// signature found only where it starts before a given offset.
@Suite struct ByteFieldTests {
    @Test func fourCharacterCodesReadEachByteAsOneCharacter() {
        let bytes = ArraySlice([0, 0x66, 0x74, 0x79, 0x70, 0xA9, 0x6E, 0x61, 0x6D] as [UInt8])[1...]
        #expect(bytes.fourCC(at: 0) == "ftyp")
        #expect(bytes.fourCC(at: 4) == "©nam")
        #expect(bytes.fourCC(at: 5) == nil)
        #expect(bytes.fourCC(at: -1) == nil)
    }

    @Test func aSignatureIsFoundOnlyWhereItStartsBeforeTheEnd() {
        let bytes = ArraySlice(Array("xxRIFFabcdIDITabcdIDIT".utf8))[2...]
        let tag = Array("IDIT".utf8)
        #expect(bytes.offset(of: tag, before: 9) == 8)
        #expect(bytes.offset(of: tag, before: 8) == nil)
        #expect(bytes.dropFirst(9).offset(of: tag, before: 100) == 7)
        #expect(bytes.offset(of: tag, before: 0) == nil)
        #expect(bytes.offset(of: tag, before: -5) == nil)
        #expect(bytes.offset(of: [], before: 9) == nil)
        #expect(ArraySlice([UInt8]()).offset(of: tag, before: 9) == nil)
    }
}
