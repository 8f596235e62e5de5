/// Simple property values of an XMP packet, found without a full RDF parser.
///
/// XMP writes a property either as an attribute (`GPano:UsePanoramaViewer="True"`) or as an
/// element (`<GPano:ProjectionType>equirectangular</GPano:ProjectionType>`); a language
/// alternative or a list (`<exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">…`) yields its
/// first item. Properties are matched by their conventional prefix.
enum XMPProperties {
    /// The value of `property` (`prefix:Name`) in `text`, or `nil`.
    static func value(of property: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            if let range = text.range(of: property + "=" + quote) {
                let rest = text[range.upperBound...]
                if let end = rest.firstIndex(of: Character(quote)) { return String(rest[..<end]) }
            }
        }
        guard let open = text.range(of: "<" + property + ">"),
            let close = text.range(of: "</" + property + ">", range: open.upperBound..<text.endIndex)
        else { return nil }
        let content = text[open.upperBound..<close.lowerBound]
        guard let item = content.range(of: "<rdf:li") else { return String(content) }
        guard let start = content[item.upperBound...].firstIndex(of: ">"),
            let end = content.range(of: "</rdf:li>", range: start..<content.endIndex)
        else { return nil }
        return String(content[content.index(after: start)..<end.lowerBound])
    }
}
