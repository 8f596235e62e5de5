import Foundation
import PhotosCore
import Synchronization
import Testing

@testable import PhotosImaging

/// The decode cost rule as a table, and the budget's refusal and turn-taking.
@Suite struct DecodeMemoryTests {
    static func header(
        _ loader: String, _ width: Int, _ height: Int, bands: Int, bytes: Int = 1, interlaced: Bool = false,
        progressive: Bool = false
    ) -> ImageHeader {
        ImageHeader(
            storedSize: PixelSize(width: width, height: height), orientation: 1, pages: 1, loader: loader, exif: nil,
            bands: bands, bytesPerSample: bytes, interlaced: interlaced, progressive: progressive)
    }

    static let thumbnail = PixelSize(width: 256, height: 256)
    /// A band of 256 rows of the stored width, and the scaled picture twice over at 4 bytes a pixel.
    static func streamed(_ width: Int, bands: Int, bytes: Int = 1) -> Int {
        width * bands * bytes * 256 + 256 * 256 * 8
    }

    @Test(arguments: [
        // The file: an interlaced 16-bit RGBA PNG of 14000x14000 is decoded whole.
        (header("pngload_source", 14000, 14000, bands: 4, bytes: 2, interlaced: true), 14000 * 14000 * 8),
        // The same, not interlaced: read row by row.
        (header("pngload_source", 14000, 14000, bands: 4, bytes: 2), streamed(14000, bands: 4, bytes: 2)),
        // A baseline JPEG streams with shrink-on-load; a progressive one keeps its coefficients.
        (header("jpegload_source", 12000, 9000, bands: 3), streamed(12000, bands: 3)),
        (header("jpegload_source", 12000, 9000, bands: 3, progressive: true), 12000 * 9000 * 3 * 2),
        (header("webpload_source", 16000, 12000, bands: 4), streamed(16000, bands: 4)),
        // HEIF, GIF, TIFF: whole.
        (header("heifload_source", 8064, 6048, bands: 3), 8064 * 6048 * 3),
        (header("gifload_source", 10000, 10000, bands: 4), 10000 * 10000 * 4),
        (header("tiffload_source", 9000, 6000, bands: 3, bytes: 2), 9000 * 6000 * 6),
        // A tiny image costs at least its streamed share.
        (header("heifload_source", 16, 16, bands: 3), streamed(16, bands: 3)),
    ])
    func theCostOfADecodeFollowsHowItsFormatDecodes(header: ImageHeader, bytes: Int) {
        #expect(DecodeCost.bytes(of: header, output: Self.thumbnail) == bytes)
    }

    @Test func aDecodeLargerThanTheBudgetIsRefusedWithTheReason() throws {
        let memory = DecodeMemory(budget: 256 << 20)
        let bomb = Self.header("pngload_source", 14000, 14000, bands: 4, bytes: 2, interlaced: true)
        var ran = false
        #expect {
            try memory.reserving(
                DecodeCost.bytes(of: bomb, output: Self.thumbnail), path: "/p/bomb.png",
                reason: DecodeCost.reason(of: bomb)
            ) { () throws(ImagingError) in ran = true }
        } throws: { error in
            guard let error = error as? ImagingError else { return false }
            return error.code == .tooLarge && error.path == "/p/bomb.png"
                && error.message.contains(
                    "about 1496 MB (an interlaced PNG is decoded whole: 14000x14000 pixels, 4 samples of 2 bytes)")
                && error.message.contains("budget of 256 MB")
        }
        #expect(!ran)
        #expect(memory.reserved == 0)
    }

    /// Two decodes that fit the budget alone but not together run one after the other.
    @Test func decodesThatDoNotFitTogetherTakeTurns() throws {
        let memory = DecodeMemory(budget: 100)
        let counts = Counts()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            // Threads of their own: the wait blocks, as a decode on the image workers does.
            Thread.detachNewThread {
                try? memory.reserving(60, path: nil, reason: "") { () throws(ImagingError) in
                    counts.enter()
                    Thread.sleep(forTimeInterval: 0.05)  // Kept: the decode's work, long enough to overlap.
                    counts.leave()
                }
                group.leave()
            }
        }
        group.wait()
        #expect(counts.most.withLock { $0 } == 1)
        #expect(counts.finished.withLock { $0 } == 4)
        #expect(memory.reserved == 0)
    }

    final class Counts: Sendable {
        let inside = Mutex(0)
        let most = Mutex(0)
        let finished = Mutex(0)

        func enter() {
            let now = inside.withLock { count in
                count += 1
                return count
            }
            most.withLock { $0 = max($0, now) }
        }

        func leave() {
            inside.withLock { $0 -= 1 }
            finished.withLock { $0 += 1 }
        }
    }
}
