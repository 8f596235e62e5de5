/// A uniform type identifier the library knows: its MIME types and file name extensions, preferred
/// first, and the types it conforms to directly.
///
/// The tags come from ``FileType``, the one table of the types the library reads (and its list of
/// well-known document types); this file adds only what that table has no column for: the
/// abstract types of Apple's hierarchy (`public.image`, `public.movie`, `public.camera-raw-image`...)
/// and which type conforms to which. The `Photos` module's `UTType` stand-in reads it, since Linux
/// has no UniformTypeIdentifiers framework.
///
/// ```swift
/// let heic = UniformTypeDeclaration.named("public.heic")!
/// // heic.mimeTypes == ["image/heic"], heic.parents == ["public.heif-standard"]
/// UniformTypeDeclaration.ancestors(of: "com.nikon.raw-image")
/// // ["public.camera-raw-image", "public.image", "public.data", "public.content", "public.item"]
/// ```
public struct UniformTypeDeclaration: Sendable, Hashable {
    /// The identifier, as Apple spells it (`public.jpeg`, `com.apple.quicktime-movie`).
    public let identifier: String
    /// The MIME types of the type, preferred first; empty for abstract types.
    public let mimeTypes: [String]
    /// Lower-case file name extensions without the dot, preferred first; empty when none is known.
    public let filenameExtensions: [String]
    /// The identifiers of the types this one conforms to directly.
    public let parents: [String]

    /// The declaration of `identifier` (compared without regard to case, as Apple does), if known.
    public static func named(_ identifier: String) -> UniformTypeDeclaration? {
        table.byIdentifier[identifier.lowercased()]
    }

    /// The declaration of the type whose MIME type is `mimeType` (libmagic's spellings too), if known.
    public static func withMIMEType(_ mimeType: String) -> UniformTypeDeclaration? {
        let lowered = mimeType.lowercased()
        if let known = FileType.withMIMEType(lowered), let identifier = known.uniformTypeIdentifier {
            return named(identifier)
        }
        return FileType.generic(lowered).uniformTypeIdentifier.flatMap(named)
    }

    /// The declaration of the type whose files end in `.filenameExtension` (any case), if known.
    /// A document type's extension (`json`, `txt`) gives its type too.
    public static func withFilenameExtension(_ filenameExtension: String) -> UniformTypeDeclaration? {
        if let media = FileType.withExtension(filenameExtension)?.uniformTypeIdentifier.flatMap(named) { return media }
        let lowered = filenameExtension.lowercased()
        return table.ordered.first { $0.filenameExtensions.contains(lowered) }
    }

    /// Every type `identifier` conforms to, directly or not, nearest first, without itself; empty
    /// for an identifier that is not declared.
    public static func ancestors(of identifier: String) -> [String] {
        var found: [String] = []
        var queue = named(identifier)?.parents ?? []
        while !queue.isEmpty {
            let next = queue.removeFirst()
            guard !found.contains(next) else { continue }
            found.append(next)
            queue += named(next)?.parents ?? []
        }
        return found
    }

    /// Every declared type, abstract ones first.
    public static var all: [UniformTypeDeclaration] { table.ordered }
}

extension UniformTypeDeclaration {
    /// Apple's abstract types that group the ones files have, with their parents.
    private static let abstract: [(String, [String])] = [
        ("public.item", []),
        ("public.content", []),
        ("public.data", ["public.item"]),
        ("public.image", ["public.data", "public.content"]),
        ("public.camera-raw-image", ["public.image"]),
        ("public.heif-standard", ["public.image"]),
        ("public.audiovisual-content", ["public.data", "public.content"]),
        ("public.movie", ["public.audiovisual-content"]),
        ("public.video", ["public.movie"]),
        ("public.audio", ["public.audiovisual-content"]),
        ("public.text", ["public.data", "public.content"]),
        ("public.composite-content", ["public.content"]),
        ("public.archive", ["public.data"]),
        ("public.directory", ["public.item"]),
        ("public.folder", ["public.directory"]),
        ("public.url", ["public.data"]),
        ("public.file-url", ["public.url"]),
    ]

    /// The file name extensions of the document types, preferred first: ``FileType`` knows them by
    /// their MIME types alone, since the scanner never takes a document for a photo by its name.
    private static let documentExtensions: [(String, [String])] = [
        ("com.adobe.pdf", ["pdf"]),
        ("public.plain-text", ["txt", "text"]),
        ("public.xml", ["xml"]),
        ("public.html", ["html", "htm"]),
        ("public.json", ["json"]),
        ("public.zip-archive", ["zip"]),
        ("public.svg-image", ["svg"]),
        ("com.microsoft.ico", ["ico"]),
        ("com.adobe.photoshop-image", ["psd"]),
        ("public.mp3", ["mp3"]),
        ("com.microsoft.waveform-audio", ["wav", "wave"]),
        ("org.xiph.flac", ["flac"]),
        ("public.aac-audio", ["aac"]),
        ("public.aiff-audio", ["aiff", "aif"]),
    ]

    /// Parents that differ from the plain one of the type's kind (``parents(of:mimeType:)``).
    private static let specialParents: [String: [String]] = [
        "public.heic": ["public.heif-standard"],
        "public.heif": ["public.heif-standard"],
        "com.apple.m4v-video": ["public.mpeg-4"],
        "com.apple.photos.apple-adjustment-envelope": ["public.xml"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.zip-archive": ["public.data", "public.archive"],
    ]

    /// The plain parent of a type: camera RAW, or the kind its MIME type names.
    private static func parents(of identifier: String, mimeType: String?) -> [String] {
        if let special = specialParents[identifier] { return special }
        if RAWTypes.contains(identifier) { return ["public.camera-raw-image"] }
        let mime = mimeType ?? ""
        if mime.hasPrefix("image/") { return ["public.image"] }
        if mime.hasPrefix("video/") { return ["public.movie"] }
        if mime.hasPrefix("audio/") { return ["public.audio"] }
        if mime.hasPrefix("text/") || mime.hasSuffix("/xml") || mime.hasSuffix("/json") { return ["public.text"] }
        return ["public.data"]
    }

    private struct Table {
        var ordered: [UniformTypeDeclaration] = []
        var byIdentifier: [String: UniformTypeDeclaration] = [:]

        /// Adds a declaration, or merges its tags into the one already there (Kodak's DCR and KDC
        /// share an identifier; XML has two MIME types).
        mutating func add(_ identifier: String, mime: String?, extensions: [String], parents: [String]) {
            let key = identifier.lowercased()
            if let index = ordered.firstIndex(where: { $0.identifier.lowercased() == key }) {
                let old = ordered[index]
                let newMIME = mime.map { old.mimeTypes.contains($0) ? [] : [$0] } ?? []
                let newExtensions = extensions.filter { !old.filenameExtensions.contains($0) }
                let merged = UniformTypeDeclaration(
                    identifier: old.identifier, mimeTypes: old.mimeTypes + newMIME,
                    filenameExtensions: old.filenameExtensions + newExtensions, parents: old.parents)
                ordered[index] = merged
                byIdentifier[key] = merged
            } else {
                let declaration = UniformTypeDeclaration(
                    identifier: identifier, mimeTypes: [mime].compactMap { $0 }, filenameExtensions: extensions,
                    parents: parents)
                ordered.append(declaration)
                byIdentifier[key] = declaration
            }
        }
    }

    private static let table: Table = {
        var table = Table()
        for (identifier, parents) in abstract {
            table.add(identifier, mime: nil, extensions: [], parents: parents)
        }
        for type in FileType.known {
            guard let identifier = type.uniformTypeIdentifier else { continue }
            table.add(
                identifier, mime: type.mimeType, extensions: type.extensions,
                parents: parents(of: identifier, mimeType: type.mimeType))
        }
        // Sorted, so that the preferred MIME type of a document type with two is always the same.
        for (mime, identifier) in FileType.documents.sorted(by: { $0.key < $1.key }) {
            table.add(identifier, mime: mime, extensions: [], parents: parents(of: identifier, mimeType: mime))
        }
        for (identifier, extensions) in documentExtensions {
            table.add(identifier, mime: nil, extensions: extensions, parents: [])
        }
        // Apple's identifiers of RAW families no reader here knows yet.
        for identifier in RAWTypes.identifiers.sorted() where table.byIdentifier[identifier] == nil {
            table.add(identifier, mime: nil, extensions: [], parents: ["public.camera-raw-image"])
        }
        return table
    }()
}
