import Foundation
import Photos
import PhotosClient
import PhotosWire

/// Where a command that changes the library sends its changes: photosd's `POST /v1/changes` when the
/// daemon serves the library (its observers, hooks and streams see the change at once, and its
/// policies apply), else the library file, through the batch applier the API uses. A batch is atomic
/// either way: all of it is committed, or none.
///
/// ```swift
/// let submitter = try ChangeSubmitter(options: options, daemon: daemon)
/// let album = try submitter.resolver.album("Pictures/2024/Zoo")
/// let result = try submitter.submit(API.ChangeBatch(changes: [.renameAlbum(.init(album: album, title: "Aquarium"))]))
/// ```
struct ChangeSubmitter {
    /// Where the batch goes.
    enum Target {
        case daemon(DaemonSource)
        case library(PHPhotoLibrary)
    }

    let target: Target

    /// photosd when it serves the library the options name (``DaemonOptions/daemon(for:environment:)``),
    /// else the library file.
    init(options: LibraryOptions, daemon: DaemonOptions) throws {
        if let source = try daemon.daemon(for: options) {
            target = .daemon(source)
        } else {
            target = .library(try options.open())
        }
    }

    /// Whether the batch goes to the library file (no photosd serves it).
    var isLibraryFile: Bool {
        if case .library = target { return true }
        return false
    }

    /// Names of assets, albums and folders, looked up where the batch goes.
    var resolver: ObjectResolver {
        switch target {
        case .daemon(let source): ObjectResolver(.daemon(source))
        case .library(let library): ObjectResolver(.library(library))
        }
    }

    /// Commits `batch`; its errors are the API's words, prefixed with the failing operation.
    func submit(_ batch: API.ChangeBatch) throws -> API.ChangeBatchResult {
        switch target {
        case .daemon(let source):
            let body = try JSONEncoder().encode(batch)
            let reply = try APIConnection.request(
                source.socket, "POST", "/v1/changes",
                headers: source.authorization.merging(["Content-Type": "application/json"]) { $1 },
                body: Array(body), trusting: source.peers)
            guard reply.status == 200 else { throw CLIError(reply.errorMessage) }
            return try JSONDecoder().decode(API.ChangeBatchResult.self, from: Data(reply.body))
        case .library(let library):
            do {
                try batch.validate()
            } catch {
                throw CLIError("\(error)")
            }
            if batch.changes.contains(where: { if case .createAsset = $0 { true } else { false } }) {
                throw CLIError("adding files to the library goes through photosd (photos scan adds a folder)")
            }
            let applier = ChangeBatchApplier(library: library, sniffer: nil, files: [:])
            do {
                let token = try library.performChangesAndWaitReturningToken { try applier.apply(batch) }
                return API.ChangeBatchResult(created: applier.created, token: token.token)
            } catch let failure as ChangeBatchApplier.Failure {
                throw CLIError("changes[\(failure.index)] (\(failure.operation)): \(failure.error.message)")
            } catch let error as PHPhotosError {
                throw CLIError(error.message)
            }
        }
    }
}
