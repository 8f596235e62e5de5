import PhotosCore

/// Which sidecar belongs to a file, to read and to write (pure: the caller lists the directory).
///
/// | the file | beside it | its sidecar |
/// |---|---|---|
/// | `IMG_1.JPG` | nothing | `IMG_1.JPG.xmp`, new |
/// | `IMG_1.JPG` | `IMG_1.JPG.xmp` | `IMG_1.JPG.xmp` |
/// | `IMG_1.JPG` | `IMG_1.xmp` (or `.XMP`) | `IMG_1.xmp`, updated in place: no second sidecar |
/// | `IMG_1.JPG` | `IMG_1.JPG.xmp` and `IMG_1.xmp` | `IMG_1.JPG.xmp` (the named one first) |
/// | `IMG_1.JPG` | `IMG_1.CR2`, `IMG_1.xmp` | `IMG_1.JPG.xmp`, new: Lightroom's `IMG_1.xmp` is the RAW's |
/// | `IMG_1.CR2` | `IMG_1.JPG`, `IMG_1.xmp` | `IMG_1.xmp` |
/// | `IMG_1.JPG` | `IMG_1.CR2`, `IMG_1.xmp` saying `SidecarForExtension` `JPG` | `IMG_1.xmp` |
/// | `IMG_1.HEIC` | `IMG_1.MOV`, `IMG_1.xmp` | `IMG_1.xmp`: a still over a movie |
/// | `IMG_1.MOV` | `IMG_1.HEIC`, `IMG_1.xmp` | `IMG_1.MOV.xmp`, new |
/// | `IMG_1.JPG` | `IMG_1.PNG`, `IMG_1.xmp` | `IMG_1.JPG.xmp`, new: `IMG_1.xmp` is nobody's for sure |
///
/// Stems compare as the grouper pairs files (``PairingName``: without case), and the extension `.xmp`
/// in any case; where several names match, the one spelt like the file (then `.xmp`) comes first.
/// The owner of a stem sidecar (`IMG_1.xmp`) is the file its `photoshop:SidecarForExtension` names
/// when that file is there; otherwise the one RAW file of the stem; otherwise the one still image;
/// otherwise the one movie; otherwise (two RAWs, two stills) nobody, and each file has its own.
public enum SidecarNames {
    /// What a file is, as far as owning a stem sidecar goes.
    public enum Kind: Int, Sendable, Comparable {
        /// Anything else (a sound): owns a stem sidecar only alone.
        case other
        /// A movie (a Live Photo's, or one alone).
        case video
        /// A still image that is not RAW (JPEG, HEIC, PNG).
        case image
        /// A camera RAW file (what Lightroom writes `IMG_1.xmp` for).
        case raw

        public static func < (left: Kind, right: Kind) -> Bool { left.rawValue < right.rawValue }
    }

    /// One name in the directory. Sidecars are recognised by their `.xmp` extension; their kind is not read.
    public struct Entry: Hashable, Sendable {
        /// The file name (no directory).
        public var name: String
        /// What the file is.
        public var kind: Kind

        /// A directory entry.
        public init(_ name: String, _ kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The sidecar a file has: the name to read and to write.
    public struct Choice: Hashable, Sendable {
        /// Why this name.
        public enum Reason: Hashable, Sendable {
            /// `IMG_1.JPG.xmp`, which is there.
            case named
            /// `IMG_1.xmp`, which is there and belongs to this file.
            case stem
            /// `IMG_1.JPG.xmp`, which is not there yet: a write creates it.
            case new
        }

        /// The sidecar's file name, in the file's directory.
        public var name: String
        /// Why.
        public var reason: Reason

        /// Whether the sidecar is there (there is something to read).
        public var exists: Bool { reason != .new }

        /// A choice.
        public init(name: String, reason: Reason) {
            self.name = name
            self.reason = reason
        }
    }

    /// The sidecar of `file` (a name), among the `entries` of its directory (media and sidecars, the
    /// file itself may be among them). `stemSidecarFor` is the `photoshop:SidecarForExtension` of the
    /// stem sidecar (`IMG_1.xmp`), when there is one and it says.
    public static func sidecar(for file: String, kind: Kind, among entries: [Entry], stemSidecarFor: String? = nil)
        -> Choice
    {
        let named = file + ".xmp"
        let namedKey = named.lowercased()
        let stem = PairingName.of(file)
        let sidecars = entries.map(\.name).filter { $0.lowercased().hasSuffix(".xmp") }
        // The named sidecar: IMG_1.JPG.xmp, in any case.
        if let match = best(sidecars.filter { $0.lowercased() == namedKey }, spelt: named) {
            return Choice(name: match, reason: .named)
        }
        let stemName = stem == file.lowercased() ? nil : stemPrefix(of: file) + ".xmp"
        guard let stemName,
            let stemSidecar = best(sidecars.filter { $0.lowercased() == stem + ".xmp" }, spelt: stemName)
        else { return Choice(name: named, reason: .new) }
        // Who owns IMG_1.xmp: the files with that stem (media, not sidecars), with this one.
        var sharers = entries.filter { !$0.name.lowercased().hasSuffix(".xmp") && PairingName.of($0.name) == stem }
        if !sharers.contains(where: { $0.name == file }) { sharers.append(Entry(file, kind)) }
        if let stemSidecarFor, !stemSidecarFor.isEmpty {
            let wanted = stemSidecarFor.lowercased()
            let named = sharers.filter { extensionOf($0.name) == wanted }
            if named.count == 1 {
                return named[0].name == file
                    ? Choice(name: stemSidecar, reason: .stem) : Choice(name: file + ".xmp", reason: .new)
            }
        }
        let strongest = sharers.map(\.kind).max() ?? kind
        let owners = sharers.filter { $0.kind == strongest }
        if owners.count == 1, owners[0].name == file { return Choice(name: stemSidecar, reason: .stem) }
        return Choice(name: named, reason: .new)
    }

    /// The name spelt `spelling` if it is among `names`; else one spelt so but for the case of `.xmp`;
    /// else the first in byte order.
    private static func best(_ names: [String], spelt spelling: String) -> String? {
        if names.contains(spelling) { return spelling }
        let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return sorted.first { $0.dropLast(4) == spelling.dropLast(4) } ?? sorted.first
    }

    /// `IMG_1.JPG` → `IMG_1`, as spelt.
    private static func stemPrefix(of name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// `IMG_1.JPG` → `jpg`.
    private static func extensionOf(_ name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }
}
