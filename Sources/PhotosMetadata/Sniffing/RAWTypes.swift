/// Camera RAW formats: the one list the library consults (scanning, grouping RAW+JPEG pairs, and
/// `PHAssetCreationRequest` all ask it).
public enum RAWTypes {
    /// The uniform type identifiers of camera RAW files: every RAW type the readers know, and
    /// Apple's identifiers for RAW families they do not read yet.
    public static let identifiers: Set<String> = Set(FileType.known.filter(\.isRAW).compactMap(\.uniformTypeIdentifier))
        .union([
            "com.olympus.or-raw-image", "com.panasonic.raw-image", "com.sigma.raw-image", "public.camera-raw-image",
        ])

    /// Whether a uniform type identifier names a camera RAW format.
    public static func contains(_ identifier: String) -> Bool { identifiers.contains(identifier) }
}

extension FileType {
    /// Whether the type is a camera RAW format (Apple names each `….raw-image`).
    var isRAW: Bool { uniformTypeIdentifier?.hasSuffix("raw-image") == true }
}

extension FileMetadata {
    /// Whether the file is a camera RAW (DNG, NEF, CR2, CR3, RAF, ...).
    public var isRAW: Bool { uniformTypeIdentifier.map(RAWTypes.contains) ?? false }
}
