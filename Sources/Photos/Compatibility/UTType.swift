import PhotosMetadata

/// A stand-in for UniformTypeIdentifiers' `UTType`, which Linux lacks: a uniform type identifier
/// with its preferred file name extension and MIME type, and the types it conforms to.
///
/// It knows the types the library handles — every image, movie and audio type it reads (JPEG,
/// HEIC, PNG, TIFF, WebP, GIF, the camera RAW families, QuickTime, MPEG-4...), Apple's abstract
/// types above them (`public.image`, `public.camera-raw-image`, `public.movie`,
/// `public.audiovisual-content`, `public.data`...), common document types (JSON, plain text, XML,
/// PDF...), folders and URLs. Its table is the one the library sniffs files with
/// (`UniformTypeDeclaration` in `PhotosMetadata`), so a resource's ``PHAssetResource/contentType``
/// always has the MIME type and extension the scanner gave it.
///
/// ```swift
/// let resource = PHAssetResource.assetResources(for: asset)[0]
/// if resource.contentType.conforms(to: .rawImage) { print("RAW:", resource.originalFilename) }
/// UTType(filenameExtension: "HEIC") == .heic                      // true
/// UTType.heic.supertypes.contains(.image)                         // true
/// UTType(mimeType: "video/quicktime")?.conforms(to: .movie)       // true
/// ```
///
/// Unlike Apple's, nothing declares new types at run time: an identifier, extension or MIME type the
/// library does not know gives nil (Apple makes a dynamic `dyn.…` type for an unknown extension).
/// ``init(importedAs:conformingTo:)`` makes an undeclared type that conforms to a given one.
public struct UTType: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The type's identifier (`public.jpeg`).
    public let identifier: String
    /// What the library's table says of the type; nil for an undeclared type.
    private let declaration: UniformTypeDeclaration?
    /// The types an undeclared type conforms to directly (``init(importedAs:conformingTo:)``).
    private let undeclaredParents: [String]

    /// The declared type with this identifier (any case), or nil when the library does not know it.
    public init?(_ identifier: String) {
        guard let declaration = UniformTypeDeclaration.named(identifier) else { return nil }
        self.init(declaration)
    }

    /// The type whose files end in `.filenameExtension` (any case, without the dot), if it conforms
    /// to `supertype`; nil when no known type has that extension.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) {
        guard let declaration = UniformTypeDeclaration.withFilenameExtension(filenameExtension) else { return nil }
        self.init(declaration)
        guard conforms(to: supertype) else { return nil }
    }

    /// The type of a MIME type (`image/heic`; libmagic's spellings too), if it conforms to
    /// `supertype`; nil when no known type has that MIME type.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) {
        guard let declaration = UniformTypeDeclaration.withMIMEType(mimeType) else { return nil }
        self.init(declaration)
        guard conforms(to: supertype) else { return nil }
    }

    /// The declared type with this identifier; for an identifier the library does not know, a type
    /// of that identifier that conforms to `parentType` (`public.data` when nil), with no extension
    /// or MIME type.
    public init(importedAs identifier: String, conformingTo parentType: UTType? = nil) {
        if let declared = UTType(identifier) {
            self = declared
        } else {
            self.identifier = identifier
            declaration = nil
            undeclaredParents = [(parentType ?? .data).identifier]
        }
    }

    private init(_ declaration: UniformTypeDeclaration) {
        identifier = declaration.identifier
        self.declaration = declaration
        undeclaredParents = []
    }

    /// A type of the table, by an identifier the table is known to declare.
    private init(declared identifier: String) {
        guard let declaration = UniformTypeDeclaration.named(identifier) else {
            preconditionFailure("\(identifier) is not in the library's type table")
        }
        self.init(declaration)
    }

    /// The usual file name extension of the type (`heic`, `jpeg`, `mov`), without the dot; nil for
    /// abstract types and types with no known extension.
    public var preferredFilenameExtension: String? { declaration?.filenameExtensions.first }

    /// The usual MIME type of the type (`image/heic`); nil for abstract types.
    public var preferredMIMEType: String? { declaration?.mimeTypes.first }

    /// Whether the library's table declares the type (false for one made by
    /// ``init(importedAs:conformingTo:)`` with an identifier it does not know).
    public var isDeclared: Bool { declaration != nil }

    /// Every type this one conforms to, directly or not, without itself (`public.heic`:
    /// `public.heif-standard`, `public.image`, `public.data`, `public.content`, `public.item`).
    public var supertypes: Set<UTType> {
        Set(ancestors.map { UTType(importedAs: $0) })
    }

    /// Whether this type is `type` or conforms to it, directly or not (`.heic` conforms to `.image`
    /// and `.data`; `.quickTimeMovie` to `.movie` and `.audiovisualContent`).
    public func conforms(to type: UTType) -> Bool {
        self == type || ancestors.contains { $0.lowercased() == type.identifier.lowercased() }
    }

    /// Whether `type` conforms to this one and is not this one.
    public func isSupertype(of type: UTType) -> Bool { self != type && type.conforms(to: self) }

    /// Whether this type conforms to `type` and is not `type`.
    public func isSubtype(of type: UTType) -> Bool { self != type && conforms(to: type) }

    /// The identifier.
    public var description: String { identifier }

    /// The identifier.
    public var debugDescription: String { identifier }

    /// Types are equal when their identifiers are, without regard to case.
    public static func == (lhs: UTType, rhs: UTType) -> Bool {
        lhs.identifier.lowercased() == rhs.identifier.lowercased()
    }

    /// Hashes the identifier, without regard to case.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier.lowercased())
    }

    /// The identifiers of every type this one conforms to, nearest first, without itself.
    private var ancestors: [String] {
        guard declaration == nil else { return UniformTypeDeclaration.ancestors(of: identifier) }
        var found: [String] = []
        for parent in undeclaredParents {
            let lineage = [parent] + UniformTypeDeclaration.ancestors(of: parent)
            let new = lineage.filter { !found.contains($0) }
            found += new
        }
        return found
    }
}

extension UTType {
    /// The base type of every item, `public.item`.
    public static let item = UTType(declared: "public.item")
    /// The base type of every kind of content, `public.content`.
    public static let content = UTType(declared: "public.content")
    /// Bytes of any kind, `public.data`.
    public static let data = UTType(declared: "public.data")
    /// Any still image, `public.image`.
    public static let image = UTType(declared: "public.image")
    /// JPEG, `public.jpeg`.
    public static let jpeg = UTType(declared: "public.jpeg")
    /// PNG, `public.png`.
    public static let png = UTType(declared: "public.png")
    /// GIF, `com.compuserve.gif`.
    public static let gif = UTType(declared: "com.compuserve.gif")
    /// TIFF, `public.tiff`.
    public static let tiff = UTType(declared: "public.tiff")
    /// Windows bitmap, `com.microsoft.bmp`.
    public static let bmp = UTType(declared: "com.microsoft.bmp")
    /// HEIC, HEIF with HEVC pictures, `public.heic`.
    public static let heic = UTType(declared: "public.heic")
    /// HEIF, `public.heif`.
    public static let heif = UTType(declared: "public.heif")
    /// WebP, `org.webmproject.webp`.
    public static let webP = UTType(declared: "org.webmproject.webp")
    /// Any camera RAW image, `public.camera-raw-image` (DNG's `com.adobe.raw-image`, Nikon's
    /// `com.nikon.raw-image`, Canon's `com.canon.cr2-raw-image`... conform to it).
    public static let rawImage = UTType(declared: "public.camera-raw-image")
    /// Anything with sound or moving pictures, `public.audiovisual-content`.
    public static let audiovisualContent = UTType(declared: "public.audiovisual-content")
    /// Any movie, with or without sound, `public.movie`.
    public static let movie = UTType(declared: "public.movie")
    /// Moving pictures without sound, `public.video`.
    public static let video = UTType(declared: "public.video")
    /// Sound only, `public.audio`.
    public static let audio = UTType(declared: "public.audio")
    /// QuickTime movie, `com.apple.quicktime-movie`.
    public static let quickTimeMovie = UTType(declared: "com.apple.quicktime-movie")
    /// MPEG-4 movie, `public.mpeg-4`.
    public static let mpeg4Movie = UTType(declared: "public.mpeg-4")
    /// MPEG-1 or MPEG-2 movie, `public.mpeg`.
    public static let mpeg = UTType(declared: "public.mpeg")
    /// MPEG-2 transport stream (AVCHD's `.mts`), `public.mpeg-2-transport-stream`.
    public static let mpeg2TransportStream = UTType(declared: "public.mpeg-2-transport-stream")
    /// AVI movie, `public.avi`.
    public static let avi = UTType(declared: "public.avi")
    /// MP3 audio, `public.mp3`.
    public static let mp3 = UTType(declared: "public.mp3")
    /// WAVE audio, `com.microsoft.waveform-audio`.
    public static let wav = UTType(declared: "com.microsoft.waveform-audio")
    /// AIFF audio, `public.aiff-audio`.
    public static let aiff = UTType(declared: "public.aiff-audio")
    /// Any text, `public.text`.
    public static let text = UTType(declared: "public.text")
    /// Plain text, `public.plain-text`.
    public static let plainText = UTType(declared: "public.plain-text")
    /// XML, `public.xml`.
    public static let xml = UTType(declared: "public.xml")
    /// JSON, `public.json`.
    public static let json = UTType(declared: "public.json")
    /// HTML, `public.html`.
    public static let html = UTType(declared: "public.html")
    /// PDF, `com.adobe.pdf`.
    public static let pdf = UTType(declared: "com.adobe.pdf")
    /// SVG drawing, `public.svg-image`.
    public static let svg = UTType(declared: "public.svg-image")
    /// Windows icon, `com.microsoft.ico`.
    public static let ico = UTType(declared: "com.microsoft.ico")
    /// ZIP archive, `public.zip-archive`.
    public static let zip = UTType(declared: "public.zip-archive")
    /// Any archive of files, `public.archive` (ZIP conforms to it).
    public static let archive = UTType(declared: "public.archive")
    /// Content of several kinds in one document, `public.composite-content` (PDF conforms to it).
    public static let compositeContent = UTType(declared: "public.composite-content")
    /// A directory, `public.directory`.
    public static let directory = UTType(declared: "public.directory")
    /// A folder the user sees as one, `public.folder` (a directory).
    public static let folder = UTType(declared: "public.folder")
    /// A URL, `public.url`.
    public static let url = UTType(declared: "public.url")
    /// A `file:` URL, `public.file-url`.
    public static let fileURL = UTType(declared: "public.file-url")
}
