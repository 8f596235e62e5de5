import Foundation
import Glibc
import Photos
import PhotosCore
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// File and folder names that are not UTF-8 are ingested, kept byte for byte, and never merged
/// with a name that a lossy decoding would have made of them.
@Suite struct ByteNameScanTests {
    /// Calls `body` with `bytes` as a NUL-terminated C path (no Foundation: it would re-encode).
    static func withRaw<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// Writes `content` to the file whose path is `bytes`.
    static func write(_ content: Data, to bytes: [UInt8]) throws {
        let fd = withRaw(bytes) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = content.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == content.count else { throw POSIXError(.EIO) }
    }

    /// The whole content of the file whose path is `bytes`, read with `open` and `read`.
    static func read(_ bytes: [UInt8]) -> Data? {
        let fd = withRaw(bytes) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return count == 0 ? data : nil }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func latin1AndReplacementCharacterNamesAreTwoAssetsInAByteNamedFolder() throws {
        let tree = try Tree()
        let latin1Content = try Data(
            contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let replacedContent = try Data(contentsOf: try #require(Corpus.file("Camera/1997/Ricoh/RIMG0001.JPG")))
        // Pictures/\xFFolder/caf\xE9.jpg and Pictures/\xFFolder/caf\u{FFFD}.jpg
        let folder = Array(tree.root.path.utf8) + [0x2F, 0xFF] + Array("older".utf8)
        #expect(Self.withRaw(folder) { mkdir($0, 0o755) } == 0)
        let latin1 = folder + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let replaced = folder + Array("/caf\u{FFFD}.jpg".utf8)
        try Self.write(latin1Content, to: latin1)
        try Self.write(replacedContent, to: replaced)
        // Kept: a one-off scan takes a file modified in the last half second as still being written
        // (FolderScanner's quiet time, measured against the clock): only time settles it.
        Thread.sleep(forTimeInterval: 0.6)  // Let the new files settle.

        var report = try tree.scan()
        #expect(report.ingested == 2 && report.rejected == 0, "\(report)")
        let assets = PHAsset.fetchAssets(with: tree.options)
        #expect(assets.count == 2)
        var contentByBytes: [[UInt8]: Data] = [:]
        var identifiers: [[UInt8]: String] = [:]
        for asset in assets {
            for resource in PHAssetResource.assetResources(for: asset) {
                let bytes = PathBytes.bytes(resource.fileURL.path)
                contentByBytes[bytes] = Self.read(bytes)
                identifiers[bytes] = asset.localIdentifier
            }
        }
        #expect(Set(contentByBytes.keys) == [latin1, replaced], "the stored paths are the files' bytes")
        #expect(contentByBytes[latin1] == latin1Content, "the Latin-1 name opens the Latin-1 file")
        #expect(contentByBytes[replaced] == replacedContent, "the U+FFFD name opens its own file")
        let album = try #require(tree.album(at: "\u{EFFF}older"), "the folder with a byte name is an album")
        #expect(album.estimatedAssetCount == 2)
        #expect(album.localizedTitle == "\u{EFFF}older")

        // A rescan reads nothing and changes nothing.
        let token = try tree.library.database.currentToken()
        report = try tree.scan()
        #expect(report.unchanged == 2 && report.ingested == 0 && report.removed == 0, "\(report)")
        #expect(try tree.library.database.currentToken() == token)

        // Deleting one removes that one only.
        #expect(Self.withRaw(latin1) { unlink($0) } == 0)
        report = try tree.scan()
        #expect(report.removed == 1, "\(report)")
        let left = PHAsset.fetchAssets(with: tree.options)
        #expect(left.count == 1 && left.firstObject?.localIdentifier == identifiers[replaced])
    }

    /// Two names that differ only in their Unicode normalization (`Café.jpg` with a precomposed
    /// `é`, and with `e` and a combining accent) are two files: two assets, and a rescan finds
    /// both unchanged (it took one for the other and logged an update of it at every scan).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func namesThatDifferOnlyInNormalizationAreTwoFilesAtEveryScan() throws {
        let tree = try Tree()
        let composed = Array(tree.root.path.utf8) + Array("/Caf\u{E9}.jpg".utf8)
        let decomposed = Array(tree.root.path.utf8) + Array("/Cafe\u{301}.jpg".utf8)
        try Self.write(
            try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))),
            to: composed)
        try Self.write(
            try Data(contentsOf: try #require(Corpus.file("Camera/1997/Ricoh/RIMG0001.JPG"))), to: decomposed)
        // Kept: a one-off scan takes a file modified in the last half second as still being written.
        Thread.sleep(forTimeInterval: 0.6)  // Let the new files settle.
        var report = try tree.scan()
        #expect(report.ingested == 2, "\(report)")
        let token = try tree.library.database.currentToken()
        for _ in 0..<2 {
            report = try tree.scan()
            #expect(report.unchanged == 2 && report.updated == 0 && report.ingested == 0, "\(report)")
        }
        #expect(try tree.library.database.currentToken() == token, "no change logged")
    }

    /// Names of every length, 1 to 255 bytes, are crawled exactly (`d_name` read in place).
    @Test func namesOfEveryLengthAreReadExactly() throws {
        let directory = try TemporaryDirectory(prefix: "crawl-lengths")
        var expected: [String] = []
        for length in 1...255 {
            let bytes = [UInt8](repeating: UInt8(ascii: "b") + UInt8(length % 20), count: length)
            try Self.write(Data(), to: Array(directory.url.path.utf8) + [UInt8(ascii: "/")] + bytes)
            expected.append(PathBytes.string(bytes))
        }
        let listed = try Crawler.readDirectory(directory.url.path).get().map(\.name)
        #expect(listed.sorted() == expected.sorted())
    }
}
