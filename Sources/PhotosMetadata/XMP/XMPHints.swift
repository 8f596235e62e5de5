/// What an XMP packet says about the kind of picture: a screenshot, a panorama, a motion photo.
struct XMPHints: Sendable, Hashable {
    /// iOS writes `exif:UserComment` "Screenshot" into screenshots (and the same in EXIF).
    var isScreenshot = false
    /// Google's photo-sphere tags (GPano), which panorama and 360° cameras write.
    var isPanorama = false
    /// The length of the movie that ends the file of a Google or Samsung motion photo: the
    /// `MotionPhoto` item of Google's container directory (format version 1), or the older
    /// `GCamera:MicroVideoOffset`, which counts from the end of the file.
    var motionPhotoVideoLength: Int?
    /// A depth map described in the packet (Google's GDepth or Dynamic Depth, Apple's depth data):
    /// see ``AuxiliaryImageTypes/describesDepth(_:)``.
    var hasDepthMap = false
    /// The star rating (`xmp:Rating`, as Lightroom, darktable, digiKam and cameras write it): 0
    /// to 5, or -1 for a rejected picture; nil when absent.
    var rating: Int?

    /// Reads the hints of `packet` (UTF-8 text; other bytes are ignored).
    init(_ packet: ArraySlice<UInt8>) {
        func value(_ property: String) -> String? {
            XMPProperties.value(of: property, in: packet)?.trimmingWhitespace()
        }
        isScreenshot = value("exif:UserComment") == "Screenshot"
        // XMP allows a real number ("3.0"); older packets use the xap prefix.
        rating = (value("xmp:Rating") ?? value("xap:Rating")).flatMap { Double($0) }.map { Int($0.rounded()) }
        let hasProjection = !(value("GPano:ProjectionType") ?? "").isEmpty
        let viewer = value("GPano:UsePanoramaViewer")?.lowercased()
        isPanorama = viewer == "true" || (hasProjection && viewer != "false")
        hasDepthMap = AuxiliaryImageTypes.describesDepth(packet)
        if value("GCamera:MotionPhoto") == "1" {
            motionPhotoVideoLength = Self.containerItemLength(semantic: "MotionPhoto", in: packet)
        } else if value("GCamera:MicroVideo") == "1" {
            motionPhotoVideoLength = value("GCamera:MicroVideoOffset").flatMap { Int($0) }
        }
        if let length = motionPhotoVideoLength, length <= 0 { motionPhotoVideoLength = nil }
    }

    /// `Item:Length` of the `Container:Item` whose `Item:Semantic` is `semantic`.
    private static func containerItemLength(semantic: String, in packet: ArraySlice<UInt8>) -> Int? {
        var rest = packet
        let tag = Array("<Container:Item".utf8)
        while let start = XMPProperties.find(tag, in: rest) {
            let attributes = rest[start...].prefix { $0 != UInt8(ascii: ">") }
            if XMPProperties.value(of: "Item:Semantic", in: attributes) == semantic {
                return XMPProperties.value(of: "Item:Length", in: attributes).flatMap { Int($0) }
            }
            rest = rest[start...]
        }
        return nil
    }
}
