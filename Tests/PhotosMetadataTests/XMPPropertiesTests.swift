import Testing

@testable import PhotosMetadata

/// Simple XMP property values found by name in a packet's bytes: an attribute in double quotes
/// before one in single quotes before an element, each at its first place; a longer name that
/// starts with the one asked for is another property; `xmp:` falls back to `xap:`.
@Suite struct XMPPropertiesTests {
    static func value(_ property: String, _ packet: String) -> String? {
        XMPProperties.value(of: property, in: ArraySlice(packet.utf8))
    }

    @Test(
        arguments: [
            (#"<rdf:Description xmp:Rating="3"/>"#, "3"),
            ("<rdf:Description xmp:Rating='4'/>", "4"),
            ("<xmp:Rating>5</xmp:Rating>", "5"),
            (#"<xmp:RatingPercent>80</xmp:RatingPercent> xmp:RatingPercent="80" xmp:Rating="2""#, "2"),
            (#"<xmp:Rating>1</xmp:Rating> xmp:Rating='2' xmp:Rating="3""#, "3"),
            (#"<xmp:Rating>1</xmp:Rating> xmp:Rating='2'"#, "2"),
            (#"xmp:Rating=3 <xmp:Rating>1</xmp:Rating>"#, "1"),
            (#"xmp:Rating="unclosed"#, nil),
            (#"<rdf:Description xap:Rating="2"/>"#, "2"),
            ("<rdf:Description/>", nil),
            ("xmp:Rating", nil),
        ] as [(String, String?)])
    func aPropertyIsFoundInEachOfItsForms(packet: String, expected: String?) {
        #expect(Self.value("xmp:Rating", packet) == expected)
    }

    @Test func anElementGivesItsFirstListItem() {
        let packet = """
            <exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li>\
            <rdf:li xml:lang="de">Bildschirmfoto</rdf:li></rdf:Alt></exif:UserComment>
            """
        #expect(Self.value("exif:UserComment", packet) == "Screenshot")
        #expect(Self.value("exif:UserComment", "<exif:UserComment>Screenshot") == nil)
    }

    @Test func bytesAreFoundWhereverTheyStart() {
        let packet = ArraySlice(Array("aab<Container:Item Item:Length=\"10\">".utf8))[1...]
        #expect(XMPProperties.find(Array("ab<".utf8), in: packet, returningStart: true) == 1)
        #expect(XMPProperties.find(Array("ab<".utf8), in: packet) == 4)
        #expect(XMPProperties.find(Array("aab".utf8), in: packet) == nil)
        #expect(XMPProperties.find(Array("\">".utf8), in: packet) == packet.endIndex)
    }
}
