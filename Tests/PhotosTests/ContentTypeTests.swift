import Foundation
import PhotosIngest
import PhotosMetadata
import PhotosTestSupport
import Testing

@testable import Photos

/// The `UTType` stand-in, read from the one table of types the library sniffs files with, and the
/// `contentType` of resources, assets and creation options.
@Suite struct ContentTypeTests {
    /// A type of the table: its identifier, preferred extension and MIME type, the types it must
    /// conform to, and types it must not.
    struct Row: Sendable, CustomTestStringConvertible {
        let identifier: String
        let filenameExtension: String?
        let mimeType: String?
        let conforms: [UTType]
        let conformsNot: [UTType]

        var testDescription: String { identifier }
    }

    static let rows: [Row] = [
        Row(
            identifier: "public.jpeg", filenameExtension: "jpeg", mimeType: "image/jpeg",
            conforms: [.image, .data, .content, .item], conformsNot: [.movie, .rawImage, .png]),
        Row(
            identifier: "public.heic", filenameExtension: "heic", mimeType: "image/heic",
            conforms: [UTType("public.heif-standard")!, .image, .data], conformsNot: [.heif, .movie]),
        Row(
            identifier: "public.png", filenameExtension: "png", mimeType: "image/png",
            conforms: [.image], conformsNot: [.rawImage, .text]),
        Row(
            identifier: "public.tiff", filenameExtension: "tiff", mimeType: "image/tiff",
            conforms: [.image], conformsNot: [.rawImage]),
        Row(
            identifier: "com.compuserve.gif", filenameExtension: "gif", mimeType: "image/gif",
            conforms: [.image], conformsNot: [.movie]),
        Row(
            identifier: "org.webmproject.webp", filenameExtension: "webp", mimeType: "image/webp",
            conforms: [.image], conformsNot: [.movie]),
        Row(
            identifier: "com.adobe.raw-image", filenameExtension: "dng", mimeType: "image/x-adobe-dng",
            conforms: [.rawImage, .image, .data], conformsNot: [.tiff, .movie]),
        Row(
            identifier: "com.nikon.raw-image", filenameExtension: "nef", mimeType: "image/x-nikon-nef",
            conforms: [.rawImage, .image], conformsNot: [.tiff]),
        Row(
            identifier: "com.canon.cr3-raw-image", filenameExtension: "cr3", mimeType: "image/x-canon-cr3",
            conforms: [.rawImage], conformsNot: [.movie]),
        Row(
            identifier: "com.fuji.raw-image", filenameExtension: "raf", mimeType: "image/x-fujifilm-raf",
            conforms: [.rawImage], conformsNot: []),
        Row(
            identifier: "com.apple.quicktime-movie", filenameExtension: "mov", mimeType: "video/quicktime",
            conforms: [.movie, .audiovisualContent, .data, .content], conformsNot: [.image, .video, .audio]),
        Row(
            identifier: "public.mpeg-4", filenameExtension: "mp4", mimeType: "video/mp4",
            conforms: [.movie, .audiovisualContent], conformsNot: [.image]),
        Row(
            identifier: "com.apple.m4v-video", filenameExtension: "m4v", mimeType: "video/x-m4v",
            conforms: [.mpeg4Movie, .movie], conformsNot: [.quickTimeMovie]),
        Row(
            identifier: "com.apple.m4a-audio", filenameExtension: "m4a", mimeType: "audio/mp4",
            conforms: [.audio, .audiovisualContent], conformsNot: [.movie]),
        Row(
            identifier: "public.camera-raw-image", filenameExtension: nil, mimeType: nil,
            conforms: [.image, .data, .content, .item], conformsNot: [.movie]),
        Row(
            identifier: "public.movie", filenameExtension: nil, mimeType: nil,
            conforms: [.audiovisualContent, .data], conformsNot: [.image, .audio, .video]),
        Row(
            identifier: "public.image", filenameExtension: nil, mimeType: nil,
            conforms: [.data, .content, .item], conformsNot: [.movie, .rawImage]),
    ]

    @Test(arguments: rows)
    func aTypeHasItsTagsAndItsPlaceInTheHierarchy(_ row: Row) throws {
        let type = try #require(UTType(row.identifier))
        #expect(type.identifier == row.identifier && type.isDeclared)
        #expect(type.preferredFilenameExtension == row.filenameExtension)
        #expect(type.preferredMIMEType == row.mimeType)
        #expect(type.conforms(to: type), "a type conforms to itself")
        #expect(!type.supertypes.contains(type), "but is not its own supertype")
        for parent in row.conforms {
            #expect(type.conforms(to: parent), "\(type) conforms to \(parent)")
            #expect(type.supertypes.contains(parent) && type.isSubtype(of: parent) && parent.isSupertype(of: type))
        }
        for other in row.conformsNot {
            #expect(!type.conforms(to: other), "\(type) does not conform to \(other)")
        }
        if let mime = row.mimeType { #expect(UTType(mimeType: mime) == type) }
        if let ext = row.filenameExtension { #expect(UTType(filenameExtension: ext.uppercased()) == type) }
    }

    @Test func lookupsFollowTheSniffersSpellings() throws {
        #expect(UTType(filenameExtension: "JPG") == .jpeg && UTType(filenameExtension: "jfif") == .jpeg)
        #expect(UTType(filenameExtension: "tif") == .tiff)
        #expect(UTType(filenameExtension: "mov", conformingTo: .movie) == .quickTimeMovie)
        #expect(UTType(filenameExtension: "mov", conformingTo: .image) == nil, "a movie is not an image")
        #expect(UTType(filenameExtension: "xyz") == nil && UTType(filenameExtension: "") == nil)
        #expect(UTType(mimeType: "image/x-ms-bmp") == .bmp, "libmagic's spelling")
        #expect(UTType(mimeType: "IMAGE/HEIC") == .heic)
        #expect(UTType(mimeType: "application/xml") == .xml && UTType(mimeType: "text/xml") == .xml)
        #expect(UTType(mimeType: "application/x-nonsense") == nil)
        #expect(UTType("PUBLIC.JPEG") == .jpeg && UTType("PUBLIC.JPEG")?.hashValue == UTType.jpeg.hashValue)
        #expect(UTType("org.example.unknown") == nil)
        // Kodak's DCR and KDC share an identifier: both extensions are its.
        let kodak = try #require(UTType("com.kodak.raw-image"))
        #expect(UTType(filenameExtension: "dcr") == kodak && UTType(filenameExtension: "kdc") == kodak)
        #expect(kodak.conforms(to: .rawImage))
    }

    @Test func anImportedTypeTheTableDoesNotKnowConformsToItsParent() {
        let sidecar = UTType(importedAs: "org.example.sidecar", conformingTo: .xml)
        #expect(!sidecar.isDeclared && sidecar.identifier == "org.example.sidecar")
        #expect(sidecar.conforms(to: .xml) && sidecar.conforms(to: .text) && sidecar.conforms(to: .data))
        #expect(!sidecar.conforms(to: .image))
        #expect(sidecar.supertypes == [.xml, .text, .data, .content, .item])
        #expect(sidecar.preferredFilenameExtension == nil && sidecar.preferredMIMEType == nil)
        let plain = UTType(importedAs: "org.example.blob")
        #expect(plain.supertypes == [.data, .item], "public.data when no parent is given")
        #expect(UTType(importedAs: "public.heic").isDeclared, "a known identifier is the declared type")
        #expect(UTType(importedAs: "public.heic").preferredMIMEType == "image/heic")
    }

    @Test func everyConstantIsDeclaredUnderItemOrContent() {
        let constants: [UTType] = [
            .item, .content, .data, .image, .jpeg, .png, .gif, .tiff, .bmp, .heic, .heif, .webP, .rawImage,
            .audiovisualContent, .movie, .video, .audio, .quickTimeMovie, .mpeg4Movie, .mpeg, .mpeg2TransportStream,
            .avi, .mp3, .wav, .aiff, .text, .plainText, .xml, .json, .html, .pdf, .svg, .ico, .zip,
        ]
        for type in constants {
            #expect(type.isDeclared, "\(type)")
            #expect(type.conforms(to: .item) || type.conforms(to: .content), "\(type) is in the hierarchy")
        }
        #expect(Set(constants).count == constants.count, "no two constants name one type")
    }

    /// The RAW list scanning and grouping consult and the hierarchy say the same.
    @Test func theCameraRAWTypesAreExactlyTheRAWListsTypes() {
        let identifiers = UniformTypeDeclaration.all.map(\.identifier)
        let conforming = Set(identifiers.filter { UTType($0)!.conforms(to: .rawImage) })
        #expect(conforming == RAWTypes.identifiers)
    }

    @Test func creationOptionsContentTypeIsItsUniformTypeIdentifier() throws {
        let options = PHAssetResourceCreationOptions()
        #expect(options.contentType == nil)
        options.contentType = .heic
        #expect(options.uniformTypeIdentifier == "public.heic")
        options.uniformTypeIdentifier = "com.adobe.raw-image"
        #expect(options.contentType == UTType("com.adobe.raw-image"))
        #expect(options.contentType?.conforms(to: .rawImage) == true)
        options.uniformTypeIdentifier = "org.example.unknown"
        #expect(options.contentType?.identifier == "org.example.unknown" && options.contentType?.isDeclared == false)
        options.contentType = nil
        #expect(options.uniformTypeIdentifier == nil)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aCreatedResourceRecordsTheContentTypeGivenAndNamesNamelessDataByItsType() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let png = try Data(contentsOf: try #require(Corpus.file("Downloads/png.png")))
        let dng = try Data(contentsOf: try #require(Corpus.file("Camera/RAW/canon_eos_6d.dng")))
        var given = "", sniffed = ""
        try library.performChangesAndWait {
            let options = PHAssetResourceCreationOptions()
            options.contentType = .png
            let first = PHAssetCreationRequest.forAsset()
            first.addResource(with: .photo, data: png, options: options)
            given = first.placeholderForCreatedAsset!.localIdentifier
            let second = PHAssetCreationRequest.forAsset()
            second.addResource(with: .photo, data: dng, options: nil)
            sniffed = second.placeholderForCreatedAsset!.localIdentifier
        }
        let first = fixture.asset(identifier: given)
        let resource = try #require(PHAssetResource.assetResources(for: first).first)
        #expect(resource.contentType == .png && resource.uniformTypeIdentifier == "public.png")
        #expect(first.contentType == .png)
        #expect(resource.originalFilename == "photo-1.png")
        let raw = try #require(PHAssetResource.assetResources(for: fixture.asset(identifier: sniffed)).first)
        #expect(raw.contentType == UTType("com.adobe.raw-image") && raw.contentType.conforms(to: .rawImage))
        #expect(raw.originalFilename == "photo-1.dng", "the extension of the type the content is")
    }

    /// An asset's type is its photo's: a RAW+JPEG pair's JPEG, a Live Photo's still.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func anAssetsContentTypeIsItsPrimaryResources() throws {
        let directory = try TemporaryDirectory(prefix: "photos-content-type")
        let pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        for (source, name) in [
            ("Camera/RAW/canon_eos_6d.dng", "IMG_0001.DNG"), ("Camera/2008/Road trip/DSCN0010.jpg", "IMG_0001.JPG"),
            ("Phone/DCIM/100APPLE/IMG_5195.HEIC", "IMG_5195.HEIC"),
            ("Phone/DCIM/100APPLE/IMG_5195.MOV", "IMG_5195.MOV"),
            ("Videos/misc/mp4.mp4", "clip.mp4"),
        ] {
            try FileManager.default.copyItem(
                at: try #require(Corpus.file(source)), to: pictures.appendingPathComponent(name))
        }
        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"))
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        let options = PHFetchOptions()
        options.photoLibrary = library
        var byName: [String: PHAsset] = [:]
        for asset in PHAsset.fetchAssets(with: options) {
            for resource in PHAssetResource.assetResources(for: asset) { byName[resource.originalFilename] = asset }
        }
        try #require(byName.count == 5, "\(byName.keys.sorted())")
        #expect(Set(byName.values.map(\.localIdentifier)).count == 3, "a pair, a Live Photo and a clip")

        let pair = try #require(byName["IMG_0001.DNG"])
        #expect(pair.localIdentifier == byName["IMG_0001.JPG"]?.localIdentifier, "one asset of the two files")
        #expect(pair.contentType == .jpeg, "a RAW+JPEG pair shows its JPEG")
        let alternate = try #require(PHAssetResource.assetResources(for: pair).first { $0.type == .alternatePhoto })
        #expect(alternate.contentType.conforms(to: .rawImage))

        let live = try #require(byName["IMG_5195.HEIC"])
        #expect(live.mediaSubtypes.contains(.photoLive) && live.contentType == .heic)
        let paired = try #require(PHAssetResource.assetResources(for: live).first { $0.type == .pairedVideo })
        #expect(paired.contentType == .quickTimeMovie)

        let clip = try #require(byName["clip.mp4"])
        #expect(clip.mediaType == .video && clip.contentType == .mpeg4Movie && clip.contentType.conforms(to: .movie))
    }

    /// Every file of the corpus the oracle says is ingested: its resource's type is the one its
    /// content is, whatever its name says, with the oracle's MIME type.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and truth.json"))
    func corpusResourcesHaveTheTypeOfTheirContent() throws {
        struct Truth: Decodable {
            let path: String
            let expect: String
            let kind: String
            let mime: String?
        }
        let truthURL = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/truth.json")
        let truth = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: truthURL))
        let resourceByPath = try ScannedCorpus().files
        var problems: [String] = []
        var checked = 0
        for file in truth where file.expect == "ingest" {
            guard let (resource, asset) = resourceByPath[file.path], let mime = file.mime else { continue }
            checked += 1
            let type = resource.contentType
            func problem(_ text: String) { problems.append("\(file.path) (\(type)): \(text)") }
            if !type.isDeclared { problem("not in the table") }
            if type.identifier != resource.uniformTypeIdentifier { problem("not the resource's identifier") }
            if type.preferredMIMEType != mime { problem("MIME \(type.preferredMIMEType ?? "none"), expected \(mime)") }
            if UTType(mimeType: mime) != type { problem("the oracle's MIME type \(mime) is another type") }
            let kind: UTType = file.kind == "video" ? .movie : .image
            if !type.conforms(to: kind) { problem("does not conform to \(kind)") }
            if (mime.hasPrefix("image/x-") && mime != "image/x-ms-bmp") != type.conforms(to: .rawImage) {
                problem("RAW is \(type.conforms(to: .rawImage)) for \(mime)")
            }
            if resource.type == .photo || resource.type == .video, asset.contentType != type {
                problem("the asset's type is \(asset.contentType)")
            }
        }
        #expect(checked > 80, "the corpus' ingested files were found")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // A PNG named .jpg is a PNG.
        #expect(resourceByPath["Bad/normalphoto.jpg"]?.0.contentType == .png)
    }
}
