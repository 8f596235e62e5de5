import Foundation
import Glibc
import PhotosCore
import Synchronization

/// Identifies a data request, for ``PHAssetResourceManager/cancelDataRequest(_:)``.
public typealias PHAssetResourceDataRequestID = Int32

/// Options of a resource data request. Files are local here: network access is accepted and
/// changes nothing.
public final class PHAssetResourceRequestOptions: NSObject, @unchecked Sendable {
    /// Accepted; every file is on this machine.
    public var isNetworkAccessAllowed = false
    /// Called with the fraction read so far (0 to 1), on the request's queue.
    public var progressHandler: (@Sendable (Double) -> Void)?

    public override init() {}
}

/// An asset's files, read in chunks or copied to a file, off the caller's thread (PhotoKit's
/// `PHAssetResourceManager`).
///
/// ```swift
/// let video = PHAssetResource.assetResources(for: asset).first { $0.type == .pairedVideo }!
/// PHAssetResourceManager.default().writeData(for: video, toFile: URL(fileURLWithPath: "/tmp/live.mov"),
///                                            options: nil) { error in print(error ?? "written") }
/// ```
///
/// Each request's handlers run in order on a serial queue of its own: the chunks (at most 1 MB
/// each), then the completion, once. A file gone since it was scanned completes with
/// `missingResource`; a cancelled request with `userCancelled`, and no chunk after the cancel.
/// `writeData` never writes over a file: an existing one completes the request with
/// `invalidResource`, and so does a name another program takes meanwhile (the copy is written under
/// a temporary name, flushed, then linked under its own).
public final class PHAssetResourceManager: NSObject, @unchecked Sendable {
    private static let shared = PHAssetResourceManager()
    private let nextID = Atomic<Int32>(1)
    /// The data requests under way, and whether each was cancelled.
    private let requests = Mutex<[PHAssetResourceDataRequestID: Bool]>([:])

    /// The manager every caller shares.
    public class func `default`() -> PHAssetResourceManager { shared }

    public override init() {}

    /// Reads the resource's file, handing it to `dataReceivedHandler` a chunk at a time, then
    /// calls `completionHandler` with nil, or the error that ended the read.
    @discardableResult
    public func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler: @escaping @Sendable (Data) -> Void,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        requests.withLock { $0[id] = false }
        let work = Work(
            path: resource.fileURL.path, progress: options?.progressHandler, chunk: dataReceivedHandler,
            isCancelled: { [self] in requests.withLock { $0[id] == true } })
        DispatchQueue(label: "photos.resource.\(id)").async { [self] in
            let error = work.read()
            requests.withLock { $0[id] = nil }
            completionHandler(error)
        }
        return id
    }

    /// Copies the resource's file to `fileURL`, which must not exist, then calls
    /// `completionHandler` with nil or the error.
    public func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let progress = options?.progressHandler
        DispatchQueue(label: "photos.resource.write").async {
            do {
                try ResourceFileCopy.copy(resource.fileURL.path, to: fileURL.path)
                progress?(1)
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// Stops a data request: no chunk is handed over after this returns but the one being handed
    /// over, and the request completes with `userCancelled`.
    public func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {
        requests.withLock { requests in
            if requests[requestID] != nil { requests[requestID] = true }
        }
    }

    /// One data request's reading.
    private struct Work: Sendable {
        let path: String
        let progress: (@Sendable (Double) -> Void)?
        let chunk: @Sendable (Data) -> Void
        let isCancelled: @Sendable () -> Bool

        func read() -> (any Error)? {
            let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { return ResourceFileCopy.error(errno, reading: path) }
            defer { close(descriptor) }
            var status = stat()
            let size = fstat(descriptor, &status) == 0 ? Double(status.st_size) : 0
            var done = 0.0
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            progress?(0)
            while true {
                if isCancelled() { return PHPhotosError(.userCancelled, "the request for \(path) was cancelled") }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return ResourceFileCopy.error(errno, reading: path) }
                if count == 0 { break }
                chunk(Data(buffer[..<count]))
                done += Double(count)
                if size > 0 { progress?(min(1, done / size)) }
            }
            progress?(1)
            return nil
        }
    }
}

/// A file copied without ever writing over one: into a new temporary file beside the destination,
/// flushed to disk, then linked under its name (`link` fails if the name is taken, even when another
/// program takes it meanwhile) and the temporary name removed. `photos export` and
/// ``PHAssetResourceManager/writeData(for:toFile:options:completionHandler:)`` copy with it.
public enum ResourceFileCopy {
    /// Copies `source` to `destination`; throws a `PHPhotosError` naming the file and the reason.
    public static func copy(_ source: String, to destination: String) throws {
        let input = PathBytes.withCString(source) { open($0, O_RDONLY | O_CLOEXEC) }
        guard input >= 0 else { throw error(errno, reading: source) }
        defer { close(input) }
        let temporary = destination + ".photos-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let output = PathBytes.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard output >= 0 else { throw error(errno, writing: destination) }
        // The temporary name goes whatever happens; after the link the copy keeps its own name.
        defer {
            close(output)
            _ = PathBytes.withCString(temporary) { unlink($0) }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw error(errno, reading: source) }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let sent = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { throw error(errno, writing: destination) }
                offset += sent
            }
        }
        guard fsync(output) == 0 else { throw error(errno, writing: destination) }
        let linked = PathBytes.withCString(temporary) { from in PathBytes.withCString(destination) { link(from, $0) } }
        guard linked == 0 else { throw error(errno, writing: destination) }
    }

    static func error(_ code: Int32, reading path: String) -> PHPhotosError {
        PHPhotosError(
            code == ENOENT ? .missingResource : .invalidResource,
            "cannot read \(PathBytes.displayed(path)): \(String(cString: strerror(code)))",
            userInfo: [NSFilePathErrorKey: path])
    }

    static func error(_ code: Int32, writing path: String) -> PHPhotosError {
        let reason = code == EEXIST ? "it exists (nothing is written over)" : String(cString: strerror(code))
        return PHPhotosError(
            code == ENOSPC ? .notEnoughSpace : .invalidResource, "cannot write \(PathBytes.displayed(path)): \(reason)",
            userInfo: [NSFilePathErrorKey: path])
    }
}
