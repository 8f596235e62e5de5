import Testing

@testable import PhotosSidecars

@Suite struct SidecarNamesTests {
    typealias Entry = SidecarNames.Entry

    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var kind: SidecarNames.Kind
        var beside: [Entry]
        var stemSidecarFor: String?
        var name: String
        var reason: SidecarNames.Choice.Reason
        var testDescription: String { "\(file) beside \(beside.map(\.name)) → \(name)" }
    }

    static let table: [Case] = [
        Case(file: "IMG_1.JPG", kind: .image, beside: [], name: "IMG_1.JPG.xmp", reason: .new),
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.JPG.xmp", .other)], name: "IMG_1.JPG.xmp",
            reason: .named),
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.JPG.XMP", .other)], name: "IMG_1.JPG.XMP",
            reason: .named),
        Case(file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.xmp", .other)], name: "IMG_1.xmp", reason: .stem),
        Case(file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.XMP", .other)], name: "IMG_1.XMP", reason: .stem),
        Case(file: "img_1.jpg", kind: .image, beside: [Entry("IMG_1.xmp", .other)], name: "IMG_1.xmp", reason: .stem),
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.xmp", .other), Entry("IMG_1.JPG.xmp", .other)],
            name: "IMG_1.JPG.xmp", reason: .named),
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.jpg.xmp", .other), Entry("IMG_1.JPG.xmp", .other)],
            name: "IMG_1.JPG.xmp", reason: .named),
        // Lightroom's IMG_1.xmp beside a RAW+JPEG pair is the RAW's.
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.CR2", .raw), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.JPG.xmp", reason: .new),
        Case(
            file: "IMG_1.CR2", kind: .raw, beside: [Entry("IMG_1.JPG", .image), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.xmp", reason: .stem),
        Case(
            file: "IMG_1.CR2", kind: .raw,
            beside: [Entry("IMG_1.JPG", .image), Entry("IMG_1.xmp", .other), Entry("IMG_1.CR2.xmp", .other)],
            name: "IMG_1.CR2.xmp", reason: .named),
        // Unless the sidecar says it is the JPEG's.
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.CR2", .raw), Entry("IMG_1.xmp", .other)],
            stemSidecarFor: "JPG", name: "IMG_1.xmp", reason: .stem),
        Case(
            file: "IMG_1.CR2", kind: .raw, beside: [Entry("IMG_1.JPG", .image), Entry("IMG_1.xmp", .other)],
            stemSidecarFor: "JPG", name: "IMG_1.CR2.xmp", reason: .new),
        // A Live Photo: the still owns it, not the movie.
        Case(
            file: "IMG_1.HEIC", kind: .image, beside: [Entry("IMG_1.MOV", .video), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.xmp", reason: .stem),
        Case(
            file: "IMG_1.MOV", kind: .video, beside: [Entry("IMG_1.HEIC", .image), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.MOV.xmp", reason: .new),
        Case(file: "CLIP.MP4", kind: .video, beside: [Entry("CLIP.xmp", .other)], name: "CLIP.xmp", reason: .stem),
        // Two stills with one stem: IMG_1.xmp is nobody's for sure.
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_1.PNG", .image), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.JPG.xmp", reason: .new),
        Case(
            file: "IMG_1.NEF", kind: .raw, beside: [Entry("IMG_1.CR2", .raw), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.NEF.xmp", reason: .new),
        // Other stems do not count.
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_10.CR2", .raw), Entry("IMG_1.xmp", .other)],
            name: "IMG_1.xmp", reason: .stem),
        Case(
            file: "IMG_1.JPG", kind: .image, beside: [Entry("IMG_2.xmp", .other)], name: "IMG_1.JPG.xmp", reason: .new),
        // A name without an extension.
        Case(file: "scan", kind: .image, beside: [Entry("scan.xmp", .other)], name: "scan.xmp", reason: .named),
    ]

    @Test(arguments: table)
    func theSidecarToReadAndWrite(_ row: Case) {
        let choice = SidecarNames.sidecar(
            for: row.file, kind: row.kind, among: row.beside + [Entry(row.file, row.kind)],
            stemSidecarFor: row.stemSidecarFor)
        #expect(choice == SidecarNames.Choice(name: row.name, reason: row.reason))
        #expect(choice.exists == (row.reason != .new))
    }
}
