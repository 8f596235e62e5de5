import Glibc

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

    /// The value of `property` under exactly that prefix.
    private static func value(ofExactly property: String, in packet: ArraySlice<UInt8>) -> String? {
        for quote in [UInt8(ascii: "\""), UInt8(ascii: "'")] {
            if let start = find(Array(property.utf8) + [UInt8(ascii: "="), quote], in: packet) {
                let rest = packet[start...]
                if let end = rest.firstIndex(of: quote) { return String(decoding: rest[..<end], as: UTF8.self) }
            }
        }
        guard let open = find(Array("<\(property)>".utf8), in: packet),
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
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay -> Int? in
            needle.withUnsafeBytes { pin -> Int? in
                let first = Int32(pin[0])
                var offset = 0
                let last = hay.count - pin.count
                while offset <= last {
                    // memchr finds candidates for the first byte; memcmp checks the rest.
                    guard let hit = memchr(hay.baseAddress! + offset, first, last - offset + 1) else { return nil }
                    let at = hay.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hay.baseAddress! + at, pin.baseAddress!, pin.count) == 0 {
                        return haystack.startIndex + at + (returningStart ? 0 : needle.count)
                    }
                    offset = at + 1
                }
                return nil
            }
        }
    }
}
