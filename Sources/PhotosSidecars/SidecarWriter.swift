/// The library's own `rdf:Description`: every field of a ``SidecarState`` that is present, in a
/// fixed order, so that writing the same state twice writes the same bytes.
enum SidecarWriter {
    /// A new sidecar before the library's description goes in.
    static let emptyPacket = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="photosd">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         </rdf:RDF>
        </x:xmpmeta>

        """

    /// The description, starting with a line end and `indentation`; nothing when `state` is empty.
    static func block(_ state: SidecarState, about: String, indentation: [UInt8], declareRDF: Bool) -> [UInt8] {
        var properties: [(namespace: String, element: String)] = []
        func simple(_ prefix: String, _ name: String, _ value: String?) {
            guard let value else { return }
            properties.append((prefix, "<\(prefix):\(name)>\(XMPPacket.escape(value))</\(prefix):\(name)>"))
        }
        /// `<NAME rdf:parseType="Resource">` with one `photosd:` element per field present.
        func structure(_ name: String, _ fields: [(String, String?)], indent: String) -> String {
            var text = "<\(name) rdf:parseType=\"Resource\">"
            for (field, value) in fields {
                guard let value else { continue }
                text += "\n\(indent) <photosd:\(field)>\(XMPPacket.escape(value))</photosd:\(field)>"
            }
            return text + "\n\(indent)</\(name)>"
        }
        let indent = String(decoding: indentation, as: UTF8.self)
        let inner = indent + " "
        simple("xmp", "Rating", state.rating.map(String.init))
        simple("exif", "DateTimeOriginal", state.creationDate.map(XMPValues.format))
        if let location = state.location {
            simple("exif", "GPSLatitude", XMPValues.formatCoordinate(units: location.latitudeUnits, isLatitude: true))
            simple(
                "exif", "GPSLongitude", XMPValues.formatCoordinate(units: location.longitudeUnits, isLatitude: false))
            if let altitude = location.altitudeCentimetres {
                simple("exif", "GPSAltitude", XMPValues.formatAltitude(centimetres: altitude))
                simple("exif", "GPSAltitudeRef", altitude < 0 ? "1" : "0")
            }
        }
        simple("fstop", "favorite", state.isFavorite.map { $0 ? "1" : "0" })
        simple("photosd", "LocalIdentifier", state.localIdentifier)
        simple("photosd", "Favorite", state.isFavorite.map { $0 ? "True" : "False" })
        simple("photosd", "Hidden", state.isHidden.map { $0 ? "True" : "False" })
        if !state.albums.isEmpty {
            var text = "<photosd:Albums>\n\(inner) <rdf:Bag>"
            for album in state.albums.sorted() {
                let fields = [("Identifier", album.identifier), ("Title", album.title)]
                text += "\n\(inner)  " + structure("rdf:li", fields, indent: inner + "  ")
            }
            properties.append(("photosd", text + "\n\(inner) </rdf:Bag>\n\(inner)</photosd:Albums>"))
        }
        if let pair = state.pair {
            properties.append(
                (
                    "photosd",
                    structure("photosd:Pair", [("Kind", pair.kind.rawValue), ("File", pair.file)], indent: inner)
                ))
        }
        if let adjustment = state.adjustment {
            let fields: [(String, String?)] = [
                ("FormatIdentifier", adjustment.formatIdentifier), ("FormatVersion", adjustment.formatVersion),
                ("Data", adjustment.data),
            ]
            properties.append(("photosd", structure("photosd:Adjustment", fields, indent: inner)))
        }
        guard !properties.isEmpty else { return [] }
        let used = Set(properties.map(\.namespace))
        let declarations: [(String, String)] = [
            ("xmp", XMPNamespace.xmp), ("exif", XMPNamespace.exif), ("fstop", XMPNamespace.fstop),
            ("photosd", XMPNamespace.photosd),
        ].filter { used.contains($0.0) }
        var text = "\n\(indent)<rdf:Description rdf:about=\"\(XMPPacket.escape(about))\""
        if declareRDF { text += "\n\(indent)  xmlns:rdf=\"\(XMPNamespace.rdf)\"" }
        for (prefix, uri) in declarations { text += "\n\(indent)  xmlns:\(prefix)=\"\(uri)\"" }
        text += ">"
        for property in properties { text += "\n\(inner)" + property.element }
        text += "\n\(indent)</rdf:Description>"
        return Array(text.utf8)
    }
}
