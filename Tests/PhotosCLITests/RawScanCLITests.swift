import Foundation
import PhotosTestSupport
import Testing

/// `photos scan` of camera RAW families read through LibRaw, run as the built binary: the dates LibRaw keeps in
/// the process's zone come back as the file's wall clock, and LibRaw is loaded only when a RAW needs it.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct RawScanCLITests {
    /// A folder holding the corpus NEF named as a Hasselblad 3FR (TIFF-based; no parser reads 3FR, so LibRaw does).
    static func hasselbladFolder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "photos-raw-scan")
        let photos = directory.path("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/RAW/DSC_0070.NEF")), to: photos.appendingPathComponent("DSC_0070.3FR"))
        return directory
    }

    static func scan(_ directory: TemporaryDirectory, environment: [String: String])
        throws -> (status: Int32, stdout: String, stderr: String)
    {
        try BuiltProducts.run(
            "photos",
            [
                "scan", "--library", directory.path("library.sqlite").path, "--time-zone", "UTC",
                directory.path("photos").path,
            ],
            environment: environment)
    }

    /// LibRaw's timestamp is `mktime` in the process's zone (here UTC+05:45); the asset's date is still the camera's
    /// wall clock read in `--time-zone`, and the size is LibRaw's (3039: the parser would say 3040).
    @Test func aRAWReadByLibRawKeepsItsWallClockWhateverTheProcessZone() throws {
        let directory = try Self.hasselbladFolder()
        let scan = try Self.scan(directory, environment: ["TZ": "Asia/Kathmandu"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let listing = try BuiltProducts.run(
            "photos", ["assets", "--library", directory.path("library.sqlite").path, "--no-daemon", "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let asset = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any], "\(listing.stdout)")
        #expect(asset["creationDate"] as? String == "2004-06-09T16:02:35+00:00")
        #expect(asset["pixelWidth"] as? Int == 3039 && asset["pixelHeight"] as? Int == 2014)
        let resource = try #require((asset["resources"] as? [[String: Any]])?.first)
        #expect(resource["uniformTypeIdentifier"] as? String == "com.hasselblad.3fr-raw-image")
    }

    /// The dynamic loader's own log (LD_DEBUG=files) names every library a process opens: LibRaw is opened for
    /// the 3FR, and not for a folder of JPEGs.
    @Test func aScanWithoutRAWFilesNeverLoadsLibRaw() throws {
        let jpegs = try TemporaryDirectory(prefix: "photos-raw-scan")
        let photos = jpegs.path("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")), to: photos.appendingPathComponent("a.jpg"))
        let withoutRAW = try Self.scan(jpegs, environment: ["LD_DEBUG": "files"])
        #expect(withoutRAW.status == 0)
        #expect(withoutRAW.stderr.contains("file=libc.so"), "the loader's log is not there to read")
        #expect(!withoutRAW.stderr.contains("libraw_r"))

        let withRAW = try Self.scan(try Self.hasselbladFolder(), environment: ["LD_DEBUG": "files"])
        #expect(withRAW.status == 0)
        #expect(withRAW.stderr.contains("libraw_r"))
    }
}
