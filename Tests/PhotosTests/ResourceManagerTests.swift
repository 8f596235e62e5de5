import Foundation
import Photos
import PhotosTestSupport
import Synchronization
import Testing

/// `PHAssetResourceManager` on a corpus photo of 2.4 MB (three chunks of at most 1 MB).
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ResourceManagerTests {
    static let photo = Corpus.file("Phone/DCIM/100APPLE/IMG_0005.JPG")!

    let library: FileAssetLibrary
    var resource: PHAssetResource { PHAssetResource.assetResources(for: library.asset(Self.photo))[0] }

    init() throws {
        library = try FileAssetLibrary(files: [Self.photo])
    }

    /// What a request delivered: its chunks, progress values and completion error.
    final class Delivery: Sendable {
        let chunks = Mutex<[Data]>([])
        let progress = Mutex<[Double]>([])
        let done = DispatchSemaphore(value: 0)
        let error = Mutex<PHPhotosError?>(nil)

        func finish(_ error: (any Error)?) {
            self.error.withLock { $0 = error as? PHPhotosError }
            done.signal()
        }

        func wait() { #expect(done.wait(timeout: .now() + 30) == .success, "the request completed") }
    }

    @Test func dataArrivesInOrderedChunksThatMakeTheFile() throws {
        let delivery = Delivery()
        let options = PHAssetResourceRequestOptions()
        options.progressHandler = { value in delivery.progress.withLock { $0.append(value) } }
        PHAssetResourceManager.default().requestData(
            for: resource, options: options,
            dataReceivedHandler: { chunk in delivery.chunks.withLock { $0.append(chunk) } },
            completionHandler: delivery.finish)
        delivery.wait()
        #expect(delivery.error.withLock { $0 } == nil)
        let chunks = delivery.chunks.withLock { $0 }
        #expect(chunks.count == 3 && chunks.allSatisfy { $0.count <= 1 << 20 })
        #expect(chunks.reduce(Data(), +) == (try Data(contentsOf: Self.photo)))
        let progress = delivery.progress.withLock { $0 }
        #expect(progress.first == 0 && progress.last == 1 && progress == progress.sorted())
    }

    @Test func aRequestCancelledAfterItsFirstChunkGetsNoOtherAndEndsCancelled() throws {
        let delivery = Delivery()
        let manager = PHAssetResourceManager.default()
        let id = Mutex<PHAssetResourceDataRequestID>(0)
        let started = DispatchSemaphore(value: 0)
        id.withLock { value in
            value = manager.requestData(
                for: resource, options: nil,
                dataReceivedHandler: { chunk in
                    started.wait()
                    delivery.chunks.withLock { $0.append(chunk) }
                    manager.cancelDataRequest(id.withLock { $0 })
                }, completionHandler: delivery.finish)
        }
        started.signal()
        delivery.wait()
        #expect(delivery.chunks.withLock { $0.count } == 1)
        #expect(delivery.error.withLock { $0?.code } == .userCancelled)
    }

    @Test func writeDataCopiesAndNeverWritesOverAFile() throws {
        let destination = library.directory.path("copy.jpg")
        let first = Delivery()
        PHAssetResourceManager.default().writeData(
            for: resource, toFile: destination, options: nil, completionHandler: first.finish)
        first.wait()
        #expect(first.error.withLock { $0 } == nil)
        #expect(try Data(contentsOf: destination) == Data(contentsOf: Self.photo))

        let mine = library.directory.path("mine.jpg")
        try Data("the user's own file".utf8).write(to: mine)
        let second = Delivery()
        PHAssetResourceManager.default().writeData(
            for: resource, toFile: mine, options: nil, completionHandler: second.finish)
        second.wait()
        let refused = try #require(second.error.withLock { $0 })
        #expect(refused.code == .invalidResource && refused.message.contains("exists"), "\(refused)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "the user's own file")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: library.directory.url.path)
                .allSatisfy { !$0.contains(".photos-copy-") }, "no temporary file is left")
    }

    @Test func aFileGoneSinceTheScanIsAMissingResource() throws {
        let directory = try TemporaryDirectory()
        let gone = directory.path("gone.jpg")
        try FileManager.default.copyItem(at: Self.photo, to: gone)
        let other = try FileAssetLibrary(files: [gone])
        let resource = PHAssetResource.assetResources(for: other.asset(gone))[0]
        try FileManager.default.removeItem(at: gone)
        let delivery = Delivery()
        PHAssetResourceManager.default().requestData(
            for: resource, options: nil, dataReceivedHandler: { _ in }, completionHandler: delivery.finish)
        delivery.wait()
        let error = try #require(delivery.error.withLock { $0 })
        #expect(error.code == .missingResource && error.filePath == gone.path, "\(error)")
    }
}
