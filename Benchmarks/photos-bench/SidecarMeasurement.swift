import Foundation
import Photos
import PhotosIngest
import PhotosSidecars
import PhotosTestSupport

/// A favorite toggled through PhotoKit until it is in the photo's XMP sidecar on disk, in process:
/// a root with `write = "sidecars"`, beside the same toggle on a root with `write = "none"` (the
/// library alone) and the floor, what any durable sidecar write costs (the same bytes to a
/// temporary name, fsync, rename over the sidecar, fsync of the directory).
///
/// After each timed toggle the sidecar is read back (untimed) and must hold the new favorite.
struct SidecarMeasurement {
    /// The goal: a toggle on disk at p99 within 5 ms.
    static let goalP99 = 5.0
    static let measure = "favorite toggle to its sidecar"
    static let libraryOnly = "favorite toggle, library only"

    let toggles: Int
    let directory: String
    let table: ResultTable

    func run() throws {
        guard let photo = Corpus.file("Test charts/Orientation/landscape_1.jpg") else {
            print("sidecars: SKIPPED, ../shared/corpus is missing")
            return
        }
        let base = URL(fileURLWithPath: directory).appendingPathComponent("sidecars")
        try? FileManager.default.removeItem(at: base)
        defer { try? FileManager.default.removeItem(at: base) }
        print("sidecars: \(toggles) favorite toggles in \(base.path)")

        let (withSidecars, sidecarPictures) = try library(in: base, named: "sidecars", photo: photo, write: .sidecars)
        let (libraryOnly, _) = try library(in: base, named: "none", photo: photo, write: .none)
        let sidecar = sidecarPictures.appendingPathComponent("IMG_1.jpg.xmp").path
        let floorFile = base.appendingPathComponent("floor.xmp").path
        let warmups = max(2, toggles / 10)

        var samples = Samples()
        var alone = Samples()
        var floor = Samples()
        for round in 0..<(warmups + toggles) {
            let asset = try onlyAsset(withSidecars)
            let toggle = try timed {
                try withSidecars.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite.toggle() }
            }
            let written = try SidecarFile.read(sidecar)?.state.isFavorite
            guard written == !asset.isFavorite else {
                throw BenchmarkError(
                    "sidecars: after toggle \(round) the sidecar says favorite \(String(describing: written))")
            }
            let other = try onlyAsset(libraryOnly)
            let plain = try timed {
                try libraryOnly.performChangesAndWait { PHAssetChangeRequest(for: other).isFavorite.toggle() }
            }
            // The same bytes to a file of their own: the library's sidecar is left to the library.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: sidecar))
            let durable = try timed { try Self.durableWrite(bytes, over: floorFile) }
            if round >= warmups {
                samples.append(toggle.duration)
                alone.append(plain.duration)
                floor.append(durable.duration)
            }
        }
        table.add(ResultRow(Self.measure, size: 1, samples, floor: floor))
        table.add(ResultRow(Self.libraryOnly, size: 1, alone, floor: nil))
    }

    private func library(in base: URL, named name: String, photo: URL, write: RootWritePolicy) throws
        -> (PHPhotoLibrary, URL)
    {
        let pictures = base.appendingPathComponent(name).appendingPathComponent("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: photo, to: pictures.appendingPathComponent("IMG_1.jpg"))
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures.path, write: write)]
        let library = try PHPhotoLibrary(
            url: base.appendingPathComponent(name).appendingPathComponent("library.sqlite"),
            configuration: configuration)
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
        return (library, pictures)
    }

    private func onlyAsset(_ library: PHPhotoLibrary) throws -> PHAsset {
        let options = PHFetchOptions()
        options.photoLibrary = library
        guard let asset = PHAsset.fetchAssets(with: options).firstObject else {
            throw BenchmarkError("sidecars: the library has no asset")
        }
        return asset
    }

    /// `bytes` made durable at `path` as a careful writer does: a temporary file, fsync, rename, fsync
    /// of the directory.
    static func durableWrite(_ bytes: Data, over path: String) throws {
        let temporary = path + ".bench-tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchmarkError("sidecars: cannot create \(temporary): errno \(errno)") }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            throw BenchmarkError("sidecars: cannot write \(path): errno \(errno)")
        }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw BenchmarkError("sidecars: cannot open the directory of \(path)") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw BenchmarkError("sidecars: fsync of the directory of \(path)") }
    }
}
