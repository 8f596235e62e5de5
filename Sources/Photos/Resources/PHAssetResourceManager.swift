import Foundation
import Glibc
import PhotosCore
import PhotosLinux
import Synchronization

/// Identifies a data request, for ``PHAssetResourceManager/cancelDataRequest(_:)``.
public typealias PHAssetResourceDataRequestID = Int32

/// Progress of a resource request: the fraction read so far (0 to 1). Not `@Sendable`, as in PhotoKit.
public typealias PHAssetResourceProgressHandler = (Double) -> Void

/// Options of a resource data request. Files are local here: network access is accepted and
/// changes nothing.
// @unchecked: the caller sets the options before the request, which reads them once, on the caller's thread.
public final class PHAssetResourceRequestOptions: NSObject, @unchecked Sendable {
    /// Accepted; every file is on this machine.
    public var isNetworkAccessAllowed = false
    /// Called with the fraction read so far (0 to 1), on the request's queue.
    public var progressHandler: PHAssetResourceProgressHandler?

    /// Options with PhotoKit's defaults.
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
public final class PHAssetResourceManager: NSObject, Sendable {
    private static let shared = PHAssetResourceManager()
    private let nextID = Atomic<Int32>(1)
    /// The data requests under way, and whether each was cancelled.
    private let requests = Mutex<[PHAssetResourceDataRequestID: Bool]>([:])

    /// The manager every caller shares.
    public class func `default`() -> PHAssetResourceManager { shared }

    /// A manager of its own (the shared ``default()`` is the usual choice).
    public override init() {}

    /// Reads the resource's file, handing it to `dataReceivedHandler` a chunk at a time, then
    /// calls `completionHandler` with nil, or the error that ended the read.
    @discardableResult
    public func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler: @escaping (Data) -> Void,
        completionHandler: @escaping ((any Error)?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let dataReceivedHandler = callerHandler(dataReceivedHandler)
        let completionHandler = callerHandler(completionHandler)
        let id = nextID.add(1, ordering: .relaxed).oldValue
        requests.withLock { $0[id] = false }
        let work = Work(
            path: resource.fileURL.path, progress: options?.progressHandler.map(callerHandler),
            chunk: dataReceivedHandler,
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
        completionHandler: @escaping ((any Error)?) -> Void
    ) {
        let completionHandler = callerHandler(completionHandler)
        let progress = options?.progressHandler.map(callerHandler)
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

    /// Copies the resource's file to `fileURL`, which must not exist, and returns when the copy
    /// is written (the form Swift gives PhotoKit's completion-handler method); throws the error
    /// the completion handler would be given.
    ///
    /// ```swift
    /// try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
    /// ```
    public func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?
    ) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeData(for: resource, toFile: fileURL, options: options) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
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
            // An asset's file, never what a link swapped in at its name points to.
            let descriptor = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
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

/// Files written without ever writing over one, through the library's `FileOperations`: into a
/// new temporary file beside the destination (`O_CREAT | O_EXCL`, flushed), then linked under its
/// name (`link` fails if the name is taken, even when another program takes it meanwhile) and the
/// temporary name removed. `photos export`, `photos thumbnail` and
/// ``PHAssetResourceManager/writeData(for:toFile:options:completionHandler:)`` write with it. The
/// files are the user's: made as `cp` makes them, `0666` less the umask.
public enum ResourceFileCopy {
    /// The mode a new file is made with, less the umask.
    static let userFileMode: mode_t = 0o666

    /// Copies `source` to `destination`; throws a `PHPhotosError` naming the file and the reason.
    /// With `preservingAttributes`, the copy keeps the source's mode and its access and
    /// modification times (`cp -p`; `photos export`).
    public static func copy(_ source: String, to destination: String, preservingAttributes: Bool = false) throws {
        try place(destination) { temporary in
            // An asset's file, never what a link swapped in at its name points to.
            try FileOperations.copy(
                source, to: temporary, preservingAttributes: preservingAttributes, mode: userFileMode,
                followingLinks: false)
        }
    }

    /// Writes `bytes` as a new file at `destination`; throws a `PHPhotosError` if the name is
    /// taken or the file cannot be written.
    public static func create(_ destination: String, bytes: Data) throws {
        try place(destination) { temporary in try FileOperations.write(bytes, to: temporary, mode: userFileMode) }
    }

    /// Removes a file one of these calls made (a copy of a run that failed later): never another.
    public static func removeCopy(_ path: String) throws {
        do {
            try FileOperations.unlink(path)
        } catch let failure as SystemCallError {
            throw error(failure.errno, writing: path)
        }
    }

    /// A temporary file beside `destination`, made by `make`, then linked as `destination`.
    private static func place(_ destination: String, make: (String) throws -> Void) throws {
        let temporary = destination + ".photos-copy-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // The temporary name goes whatever happens; after the link the file keeps its own name.
        defer { try? FileOperations.unlink(temporary) }
        do {
            try make(temporary)
            try FileOperations.link(temporary, destination)
        } catch let failure as SystemCallError {
            throw failure.call == "read" || (failure.call == "open" && failure.path != temporary)
                ? error(failure.errno, reading: failure.path ?? destination)
                : error(failure.errno, writing: destination)
        }
    }

    static func error(_ code: Int32, reading path: String) -> PHPhotosError {
        PHPhotosError(
            code == ENOENT ? .missingResource : .invalidResource,
            "cannot read \(PathBytes.displayed(path)): \(SystemCallError(call: "open", errno: code).reason)",
            userInfo: [NSFilePathErrorKey: path])
    }

    static func error(_ code: Int32, writing path: String) -> PHPhotosError {
        let reason = code == EEXIST ? "it exists (nothing is written over)" : String(cString: strerror(code))
        return PHPhotosError(
            code == ENOSPC ? .notEnoughSpace : .invalidResource, "cannot write \(PathBytes.displayed(path)): \(reason)",
            userInfo: [NSFilePathErrorKey: path])
    }
}
