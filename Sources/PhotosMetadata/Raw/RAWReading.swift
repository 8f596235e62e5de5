/// Which reader ``MetadataExtractor`` gives camera RAW files.
///
/// The container parsers read the RAW families they know (DNG and the TIFF-based ones, CRW, RAF)
/// several times faster than LibRaw and agree with ExifTool on the corpus; LibRaw reads the
/// families they do not (MRW, X3F, IIQ, 3FR, ...). A file a parser rejects stays rejected: it is
/// not handed to LibRaw in the hope that LibRaw makes more of it.
///
/// ```swift
/// // LibRaw alone, on every RAW: what scripts/bench-raw measures and the corpus tests check.
/// let extractor = MetadataExtractor(rawReading: .libRaw)
/// ```
public enum RAWReading: Sendable, Hashable {
    /// A family's parser when there is one, LibRaw otherwise. The default.
    case parsersFirst
    /// LibRaw for every camera RAW, the families the parsers read included.
    case libRaw
}
