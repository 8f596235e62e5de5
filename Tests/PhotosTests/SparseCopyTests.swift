import Foundation
import Glibc
import PhotosTestSupport
import Testing

@testable import Photos

/// A copied file keeps its holes: a sparse file added to the library takes the room of its data,
/// not of its size, and reads back byte for byte.
@Suite struct SparseCopyTests {
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aSparseFileIsCopiedIntoTheLibraryWithItsHoles() throws {
        let directory = try TemporaryDirectory(prefix: "sparse-copy")
        let source = directory.path("sparse.jpg")
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")), to: source)
        // A hole, then more data after it, then a hole to the end.
        let handle = try FileHandle(forWritingTo: source)
        try handle.seek(toOffset: 64 << 20)
        try handle.write(contentsOf: Data("data after the hole".utf8))
        try handle.close()
        let size: off_t = 128 << 20
        #expect(truncate(source.path, size) == 0)

        let library = try PHPhotoLibrary(url: directory.path("library.sqlite"))
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: nil)
        }
        let imports = library.importDirectory.path
        let copied = try #require(
            FileManager.default.enumerator(atPath: imports)?.compactMap { $0 as? String }
                .map { imports + "/" + $0 }.first { $0.hasSuffix("sparse.jpg") })
        var info = stat()
        #expect(stat(copied, &info) == 0)
        #expect(off_t(info.st_size) == size)
        #expect(Int64(info.st_blocks) * 512 < 8 << 20, "\(info.st_blocks) blocks for 128 MiB of which a few are data")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == (try Data(contentsOf: source)))
    }
}
