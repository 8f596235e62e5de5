/// A sidecar's XML as written, with the places of its top-level properties: what lets a write
/// replace the library's own properties and leave every other byte where it was.
///
/// XMP's RDF puts an asset's properties in `rdf:Description` elements directly under `rdf:RDF`, as
/// attributes (`xmp:Rating="3"`) or child elements (`<xmp:Rating>3</xmp:Rating>`, structs, arrays).
/// exiftool writes one `rdf:Description` per namespace, darktable and Lightroom one for all. A write
/// removes the library's properties wherever they are (an attribute with the white space before it;
/// an element with the white space before it), removes a description left empty by that, and adds
/// one `rdf:Description` of the library's own at the end of `rdf:RDF`. Once a sidecar holds the
/// library's properties only there, the next write changes only that block.
///
/// This is a scanner for the XML of XMP packets, not a general XML parser: it follows elements,
/// attributes, namespace declarations, comments, processing instructions and CDATA, and refuses a
/// DOCTYPE (entities) and nesting deeper than ``maximumDepth``. Exempi reads the values; this only
/// says where things are.
struct XMPPacket {
    /// Deeper nesting is refused: no sidecar needs it, and the toolkit's parser recurses.
    static let maximumDepth = 256

    /// A top-level property, an attribute or an element, and the bytes it takes (with the white
    /// space before it).
    struct Property {
        var namespace: String
        var name: String
        var range: Range<Int>
    }

    /// One `rdf:Description` directly under `rdf:RDF`.
    struct Description {
        /// From the white space before it to the end of its end tag.
        var range: Range<Int>
        /// Its properties: attributes first, then elements.
        var properties: [Property]
        /// Its `rdf:about`, as written (entities decoded).
        var about: String?
        /// The white space before it, from the last line end.
        var indentation: [UInt8]
    }

    let bytes: [UInt8]
    private(set) var descriptions: [Description] = []
    /// Where the white space before `</rdf:RDF>` starts: a new description goes there.
    private(set) var insertionPoint = 0
    /// Whether the prefix `rdf` means RDF's namespace at `rdf:RDF` (it nearly always does; if not, the
    /// library's description declares it).
    private(set) var rdfPrefixBound = false

    /// Why the text cannot be edited.
    enum Failure: Error {
        case malformed(String)
        case unsupported(String)
    }

    init(_ bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        try scan()
    }

    // MARK: Scanning

    private struct Open {
        var name: [UInt8]
        var namespaces: [String: String]
        var isRDF: Bool
        var isDescription: Bool
        var start: Int
        var properties: [Property]
        var about: String?
    }

    private mutating func scan() throws(Failure) {
        var position = 0
        var stack: [Open] = []
        var scopes: [[String: String]] = [["xml": XMPNamespace.xml]]
        var foundRDF = false
        var rdfDepth = -1
        let count = bytes.count
        while position < count {
            guard bytes[position] == UInt8(ascii: "<") else {
                position += 1
                continue
            }
            let tagStart = position
            if starts(with: "<?", at: position) {
                position = try end(of: "?>", from: position + 2)
            } else if starts(with: "<!--", at: position) {
                position = try end(of: "-->", from: position + 4)
            } else if starts(with: "<![CDATA[", at: position) {
                position = try end(of: "]]>", from: position + 9)
            } else if starts(with: "<!", at: position) {
                throw .unsupported("a DOCTYPE or other declaration")
            } else if starts(with: "</", at: position) {
                let nameStart = position + 2
                var cursor = nameStart
                while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">") { cursor += 1 }
                let name = Array(bytes[nameStart..<cursor])
                position = try end(of: ">", from: cursor)
                guard let open = stack.popLast(), open.name == name else {
                    throw .malformed("an end tag that does not match its start tag")
                }
                scopes.removeLast()
                try closed(open, at: position, depth: stack.count, rdfDepth: rdfDepth, stack: &stack)
                if open.isRDF {
                    insertionPoint = whitespaceStart(before: tagStart)
                    rdfDepth = -1
                }
            } else {
                let tag = try startTag(at: position, scope: scopes.last!)
                let depth = stack.count
                guard depth < Self.maximumDepth else { throw .unsupported("nesting deeper than \(Self.maximumDepth)") }
                var open = Open(
                    name: tag.name, namespaces: tag.scope, isRDF: false, isDescription: false, start: position,
                    properties: [], about: nil)
                if tag.namespace == XMPNamespace.rdf, tag.local == "RDF", rdfDepth < 0 {
                    open.isRDF = true
                    rdfDepth = depth
                    rdfPrefixBound = tag.scope["rdf"] == XMPNamespace.rdf
                    foundRDF = true
                    if tag.selfClosing { throw .unsupported("an empty rdf:RDF element") }
                } else if rdfDepth >= 0, depth == rdfDepth + 1, tag.namespace == XMPNamespace.rdf,
                    tag.local == "Description"
                {
                    open.isDescription = true
                    open.about = tag.about
                    open.properties = tag.attributes
                } else if rdfDepth >= 0, depth == rdfDepth + 2, stack.last?.isDescription == true {
                    let element = Property(
                        namespace: tag.namespace, name: tag.local, range: whitespaceStart(before: position)..<tag.end)
                    stack[stack.count - 1].properties.append(element)
                }
                position = tag.end
                if tag.selfClosing {
                    try closed(open, at: position, depth: depth, rdfDepth: rdfDepth, stack: &stack)
                } else {
                    stack.append(open)
                    scopes.append(tag.scope)
                }
            }
        }
        guard stack.isEmpty else { throw .malformed("elements left open at the end (truncated?)") }
        guard foundRDF else { throw .malformed("no rdf:RDF element") }
    }

    /// An element ended at `end`: a description is recorded; a property element gets its end.
    private mutating func closed(_ open: Open, at end: Int, depth: Int, rdfDepth: Int, stack: inout [Open])
        throws(Failure)
    {
        if open.isDescription {
            let start = whitespaceStart(before: open.start)
            var lineStart = open.start
            while lineStart > start, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
            descriptions.append(
                Description(
                    range: start..<end, properties: open.properties, about: open.about,
                    indentation: Array(bytes[lineStart..<open.start])))
        } else if rdfDepth >= 0, depth == rdfDepth + 2, stack.last?.isDescription == true {
            let index = stack.count - 1
            let last = stack[index].properties.count - 1
            stack[index].properties[last].range = stack[index].properties[last].range.lowerBound..<end
        }
    }

    private struct StartTag {
        var name: [UInt8]
        var namespace: String
        var local: String
        var scope: [String: String]
        var attributes: [Property]
        var about: String?
        var end: Int
        var selfClosing: Bool
    }

    private func startTag(at start: Int, scope outer: [String: String]) throws(Failure) -> StartTag {
        let count = bytes.count
        var cursor = start + 1
        while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: ">"),
            bytes[cursor] != UInt8(ascii: "/")
        {
            cursor += 1
        }
        let name = Array(bytes[(start + 1)..<cursor])
        guard !name.isEmpty else { throw .malformed("a tag without a name") }
        var raw: [(name: [UInt8], value: String, range: Range<Int>)] = []
        while true {
            let spaceStart = cursor
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count else { throw .malformed("a tag cut short (truncated?)") }
            if bytes[cursor] == UInt8(ascii: ">") {
                cursor += 1
                break
            }
            if bytes[cursor] == UInt8(ascii: "/") {
                guard cursor + 1 < count, bytes[cursor + 1] == UInt8(ascii: ">") else { throw .malformed("a stray /") }
                cursor += 2
                return try finish(name: name, raw: raw, outer: outer, end: cursor, selfClosing: true)
            }
            guard cursor > spaceStart else { throw .malformed("attributes without space between them") }
            let nameStart = cursor
            while cursor < count, !isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "=") { cursor += 1 }
            let attributeName = Array(bytes[nameStart..<cursor])
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count, bytes[cursor] == UInt8(ascii: "=") else { throw .malformed("an attribute without =") }
            cursor += 1
            while cursor < count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < count, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else {
                throw .malformed("an attribute value without quotes")
            }
            let quote = bytes[cursor]
            let valueStart = cursor + 1
            cursor = valueStart
            while cursor < count, bytes[cursor] != quote { cursor += 1 }
            guard cursor < count else { throw .malformed("an attribute value cut short (truncated?)") }
            let value = Self.decode(bytes[valueStart..<cursor])
            cursor += 1
            raw.append((attributeName, value, spaceStart..<cursor))
        }
        return try finish(name: name, raw: raw, outer: outer, end: cursor, selfClosing: false)
    }

    private func finish(
        name: [UInt8], raw: [(name: [UInt8], value: String, range: Range<Int>)], outer: [String: String], end: Int,
        selfClosing: Bool
    ) throws(Failure) -> StartTag {
        var scope = outer
        for attribute in raw {
            let text = String(decoding: attribute.name, as: UTF8.self)
            if text == "xmlns" {
                scope[""] = attribute.value
            } else if text.hasPrefix("xmlns:") {
                scope[String(text.dropFirst(6))] = attribute.value
            }
        }
        let (namespace, local) = try resolve(name, in: scope, isAttribute: false)
        var attributes: [Property] = []
        var about: String?
        for attribute in raw {
            let text = String(decoding: attribute.name, as: UTF8.self)
            if text == "xmlns" || text.hasPrefix("xmlns:") { continue }
            let (attributeNamespace, attributeLocal) = try resolve(attribute.name, in: scope, isAttribute: true)
            if attributeNamespace == XMPNamespace.rdf, attributeLocal == "about" { about = attribute.value }
            attributes.append(Property(namespace: attributeNamespace, name: attributeLocal, range: attribute.range))
        }
        return StartTag(
            name: name, namespace: namespace, local: local, scope: scope, attributes: attributes, about: about,
            end: end,
            selfClosing: selfClosing)
    }

    private func resolve(_ name: [UInt8], in scope: [String: String], isAttribute: Bool) throws(Failure) -> (
        String, String
    ) {
        let text = String(decoding: name, as: UTF8.self)
        guard let colon = text.firstIndex(of: ":") else { return (isAttribute ? "" : scope[""] ?? "", text) }
        let prefix = String(text[..<colon])
        guard let namespace = scope[prefix] else { throw .malformed("the prefix \(prefix) is not declared") }
        return (namespace, String(text[text.index(after: colon)...]))
    }

    // MARK: Editing

    /// The text with the library's properties removed (and descriptions they alone filled), and
    /// `block` (from ``ownBlock(_:about:indentation:)``) added before `</rdf:RDF>`.
    func replacingOwnedProperties(with block: (_ about: String, _ indentation: [UInt8]) -> [UInt8]) -> [UInt8] {
        var removals: [Range<Int>] = []
        for description in descriptions {
            let owned = description.properties.filter { XMPNamespace.isOwned(namespace: $0.namespace, name: $0.name) }
            guard !owned.isEmpty else { continue }
            let remaining = description.properties.filter {
                !XMPNamespace.isOwned(namespace: $0.namespace, name: $0.name) && $0.namespace != XMPNamespace.rdf
            }
            if remaining.isEmpty {
                removals.append(description.range)
            } else {
                removals += owned.map(\.range)
            }
        }
        removals.sort { $0.lowerBound < $1.lowerBound }
        let about = descriptions.lazy.compactMap(\.about).first ?? ""
        let indentation = descriptions.first?.indentation ?? Array("  ".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 1024)
        var position = 0
        for removal in removals where removal.lowerBound >= position {
            if position < insertionPoint, insertionPoint <= removal.lowerBound {
                output += bytes[position..<insertionPoint]
                output += block(about, indentation)
                position = insertionPoint
            }
            output += bytes[position..<removal.lowerBound]
            position = removal.upperBound
        }
        if position <= insertionPoint {
            output += bytes[position..<insertionPoint]
            output += block(about, indentation)
            position = insertionPoint
        }
        output += bytes[position...]
        return output
    }

    // MARK: Bytes

    private func starts(with literal: StaticString, at position: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            for index in 0..<length where bytes[position + index] != pattern[index] { return false }
            return true
        }
    }

    /// The position after `literal`, searched from `start`.
    private func end(of literal: StaticString, from start: Int) throws(Failure) -> Int {
        var position = start
        while position < bytes.count {
            if starts(with: literal, at: position) { return position + literal.utf8CodeUnitCount }
            position += 1
        }
        throw .malformed("\(literal) not found (truncated?)")
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The start of the run of white space that ends at `position`.
    private func whitespaceStart(before position: Int) -> Int {
        var start = position
        while start > 0, isSpace(bytes[start - 1]) { start -= 1 }
        return start
    }

    /// An attribute value with XML's five entities and character references decoded.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let text = String(decoding: raw, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: UInt32? =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(1)) : nil
                result += scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }

    /// Text escaped for XML content and double-quoted attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r": result += "&#xD;"  // Else XML reads it as a line end.
            default: result.append(character)
            }
        }
        return result
    }
}
