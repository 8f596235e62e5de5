/// Simple property values of an XMP packet, found without a full RDF parser.
///
/// XMP writes a property either as an attribute (`GPano:UsePanoramaViewer="True"`) or as an
/// element (`<GPano:ProjectionType>equirectangular</GPano:ProjectionType>`); a language
/// alternative or a list (`<exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">…`) yields its
/// first item. Properties are matched by their conventional prefix; a property of the XMP basic schema
/// (`xmp:`) is also found under `xap:`, the prefix Adobe's early toolkits (XMP Toolkit 3, Photoshop CS
/// and CS2) bound to the same namespace, `http://ns.adobe.com/xap/1.0/`, as ExifTool reads it.
///
/// Packets are searched as UTF-8 bytes (memchr, then memcmp): a packet can be tens of kilobytes and is
/// searched for several properties, so no String is made of it.
enum XMPProperties {
    /// The value of `property` (`prefix:Name`) in `packet`, or `nil`.
    static func value(of property: String, in packet: ArraySlice<UInt8>) -> String? {
        if let value = value(ofExactly: property, in: packet) { return value }
        guard property.hasPrefix("xmp:") else { return nil }
        return value(ofExactly: "xap:" + property.dropFirst(4), in: packet)
    }

    /// The value of `property` under exactly that prefix: as an attribute in double quotes, else in
    /// single quotes, else as an element, each at its first place in the packet. One pass over the
    /// places the name occurs, whose neighbours tell the forms apart.
    private static func value(ofExactly property: String, in packet: ArraySlice<UInt8>) -> String? {
        let name = Array(property.utf8)
        var singleQuoted: String?
        var element: Int?
        var rest = packet
        while let start = find(name, in: rest, returningStart: true) {
            let end = start + name.count
            rest = packet[(start + 1)...]
            if end + 1 < packet.endIndex, packet[end] == UInt8(ascii: "=") {
                let quote = packet[end + 1]
                guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
                let value = packet[(end + 2)...]
                guard let close = value.firstIndex(of: quote) else { continue }
                if quote == UInt8(ascii: "\"") { return String(decoding: value[..<close], as: UTF8.self) }
                if singleQuoted == nil { singleQuoted = String(decoding: value[..<close], as: UTF8.self) }
            } else if element == nil, start > packet.startIndex, packet[start - 1] == UInt8(ascii: "<"),
                end < packet.endIndex, packet[end] == UInt8(ascii: ">")
            {
                element = end + 1
            }
        }
        if let singleQuoted { return singleQuoted }
        guard let open = element,
            let close = find(Array("</\(property)>".utf8), in: packet[open...], returningStart: true)
        else { return nil }
        let content = packet[open..<close]
        guard let item = find(Array("<rdf:li".utf8), in: content) else {
            return String(decoding: content, as: UTF8.self)
        }
        guard let start = content[item...].firstIndex(of: UInt8(ascii: ">")),
            let end = find(Array("</rdf:li>".utf8), in: content[(start + 1)...], returningStart: true)
        else { return nil }
        return String(decoding: content[(start + 1)..<end], as: UTF8.self)
    }

    /// The index just after the first occurrence of `needle` in `haystack` (or where it starts).
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>, returningStart: Bool = false) -> Int? {
        haystack.offset(of: needle).map { haystack.startIndex + $0 + (returningStart ? 0 : needle.count) }
    }
}
