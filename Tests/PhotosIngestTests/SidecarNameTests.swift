import Testing

@testable import PhotosIngest

/// Which listed names a scan takes for XMP sidecars: `.xmp` in any case, after at least one character.
struct SidecarNameTests {
    @Test(arguments: [
        ("IMG_1.JPG.xmp", true), ("IMG_1.xmp", true), ("IMG_1.XMP", true), ("a.XmP", true),
        ("é.xmp", true), ("photo.jpg", false), (".xmp", false), ("xmp", false), ("IMG.xmpx", false),
        ("IMG_xmp", false), ("IMG\u{0E}xmp", false), ("IMG.xm", false), ("", false),
        ("IMG.ẋmp", false),
    ])
    func aNameIsASidecarByItsLastFourBytes(name: String, isSidecar: Bool) {
        #expect(Reconciliation.isSidecar(name) == isSidecar)
    }
}
