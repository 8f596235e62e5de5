/// Which pictures stored beside a photo make it a Portrait (depth effect) photo, however the file
/// stores them: the one list for HEIF auxiliary images (`auxC`), Apple's JPEG auxiliary images
/// (`apdi:AuxiliaryImageType` in an MPF image's XMP) and the XMP schemas of depth maps.
///
/// Depth is a depth or disparity map, or Apple's portrait effects matte (written only with one).
/// An HDR gain map (`urn:com:apple:photo:2020:aux:hdrgainmap`, Ultra HDR's `hdrgm`), an alpha plane
/// (`urn:mpeg:hevc:2015:auxid:1`, `urn:mpeg:mpegB:cicp:systems:auxiliary:alpha`) and Apple's
/// semantic segmentation mattes (skin, hair, teeth, glasses, sky) are not: phones write them into
/// ordinary photos too.
enum AuxiliaryImageTypes {
    /// HEIF's depth auxiliary types: HEVC's `auxid:2` (ISO/IEC 23008-12, what iPhones write) and
    /// the codec-independent CICP name (MIAF, AVIF); libheif takes the same two as depth channels.
    /// Apple's portrait effects matte (`AVPortraitEffectsMatte`) comes only with Portrait captures.
    static let depth: Set<String> = [
        "urn:mpeg:hevc:2015:auxid:2",
        "urn:mpeg:mpegB:cicp:systems:auxiliary:depth",
        "urn:com:apple:photo:2018:aux:portraiteffectsmatte",
    ]

    /// Whether an auxiliary image of type `urn` (an `auxC` type, NUL and spaces trimmed) is depth.
    static func isDepth(_ urn: String) -> Bool {
        depth.contains(urn)
    }

    /// XMP schemas that describe a depth map: Google's depth map metadata (GDepth, written by
    /// Google Camera's Lens Blur and Portrait modes), the depth map of Android's Dynamic Depth 1.0
    /// (`Camera:DepthMap`), and Apple's depth data (the XMP of an iPhone JPEG's depth image).
    static let depthNamespaces = [
        "http://ns.google.com/photos/1.0/depthmap/",
        "http://ns.google.com/photos/dd/1.0/depthmap/",
        "http://ns.apple.com/depthData/1.0/",
    ]

    /// Whether an XMP packet describes depth: it declares a depth schema, or names a depth
    /// auxiliary image type (`apdi:AuxiliaryImageType`, Apple's pixel data info).
    static func describesDepth(_ packet: ArraySlice<UInt8>) -> Bool {
        for namespace in depthNamespaces {
            for quote in ["\"", "'"] where XMPProperties.find(Array((namespace + quote).utf8), in: packet) != nil {
                return true
            }
        }
        guard let type = XMPProperties.value(of: "apdi:AuxiliaryImageType", in: packet) else { return false }
        return isDepth(type.trimmingWhitespace())
    }
}
