import Foundation
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// A user's file is never lost: not by a failing block, not by a process killed between any two
/// steps of a move, not by a hostile resource name, not by deleting an asset the library does not own.
@Suite(.serialized) struct ImportSafetyTests {
    let directory: TemporaryDirectory
    let photo: Data

    init() throws {
        directory = try TemporaryDirectory(prefix: "import-safety")
        let corpusPhoto = try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg"))
        photo = try Data(contentsOf: corpusPhoto)
    }

    var libraryURL: URL { directory.path("library/library.sqlite") }

    func openLibrary() throws -> PHPhotoLibrary { try PHPhotoLibrary(url: libraryURL) }

    /// A user's photo outside the library, in `folder`.
    func userPhoto(_ name: String = "IMG_0001.jpg", in folder: String = "Desktop") throws -> URL {
        let url = directory.path(folder).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try photo.write(to: url)
        return url
    }

    /// Every regular file under the import folder, relative to it (staging included).
    func filesInImports(_ library: PHPhotoLibrary) -> [String] {
        let root = library.importDirectory.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    func importedPaths(_ library: PHPhotoLibrary) throws -> [String] {
        try library.database.read { db in
            try db.rows(
                "SELECT d.path || r.name AS path FROM resource r JOIN directory d ON d.id = r.directoryId ORDER BY path",
                []
            ) { try $0.text(0) }
        }
    }

    /// Runs `body` in a block that then fails.
    func failingBlock(_ library: PHPhotoLibrary, _ body: @escaping () -> Void) {
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                body()
                // Out of range in an empty album: the whole block fails.
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Empty")
                    .removeAssets(at: IndexSet([7]))
            }
        }
    }

    /// Adds `source` as a new asset's photo, to be moved into the library.
    func addMovedResource(_ source: URL) {
        let options = PHAssetResourceCreationOptions()
        options.shouldMoveFile = true
        PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: options)
    }

    func move(_ source: URL, into library: PHPhotoLibrary) throws {
        try library.performChangesAndWait { addMovedResource(source) }
    }

    // MARK: Failing blocks

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFailingBlockLeavesAMovedFileWhereItWasByteForByte() throws {
        let library = try openLibrary()
        let source = try userPhoto()
        failingBlock(library) { addMovedResource(source) }
        #expect(try Data(contentsOf: source) == photo, "the original is where it was, unchanged")
        #expect(filesInImports(library) == [], "nothing the block staged is left")
        #expect(PHAsset.fetchAssets(with: optionsFor(library)).count == 0)
        #expect(try library.database.fileJournal().isEmpty)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFailingBlockRemovesOnlyWhatItCopiedOrWrote() throws {
        let library = try openLibrary()
        let source = try userPhoto()
        // Something of the user's already in the import folder (never the block's to remove).
        try FileManager.default.createDirectory(at: library.importDirectory, withIntermediateDirectories: true)
        let keep = library.importDirectory.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: keep)
        failingBlock(library) {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: nil)
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: photo, options: nil)
        }
        #expect(try Data(contentsOf: source) == photo)
        #expect(filesInImports(library) == ["notes.txt"], "only the user's file is left")
        #expect(try Data(contentsOf: keep) == Data("mine".utf8))
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aMoveCommitsThenRemovesTheOriginal() throws {
        let library = try openLibrary()
        let source = try userPhoto()
        try move(source, into: library)
        #expect(!FileManager.default.fileExists(atPath: source.path), "moved")
        let paths = try importedPaths(library)
        try #require(paths.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == photo)
        #expect(filesInImports(library).count == 1, "no staged copy is left: \(filesInImports(library))")
        #expect(try library.database.fileJournal().isEmpty)
    }

    // MARK: Crashes between the steps

    /// Stops a move at `step` as a killed process would, reopens the library, and checks that the
    /// photo is in exactly the place the commit says: the original before the commit, the library after.
    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: [FaultInjection.Step.staged, .committed, .linked, .placed, .sourceRemoved])
    func aMoveKilledAtAnyStepIsFinishedOrUndoneAtTheNextOpen(step: FaultInjection.Step) throws {
        let source = try userPhoto()
        do {
            let library = try openLibrary()
            FaultInjection.set(in: library.importDirectory.standardizedFileURL.path) { $0 == step }
            defer { FaultInjection.clear(in: library.importDirectory.standardizedFileURL.path) }
            #expect(throws: PHPhotosError.self) { try move(source, into: library) }
            // At the moment of the crash the photo is somewhere: the original, or the library's copy.
            let copies = filesInImports(library).map { library.importDirectory.path + "/" + $0 }
            let holders = ([source.path] + copies).filter { (try? Data(contentsOf: URL(fileURLWithPath: $0))) == photo }
            #expect(!holders.isEmpty, "the photo is in neither place after a crash at \(step)")
        }
        let reopened = try openLibrary()
        #expect(try reopened.database.fileJournal().isEmpty, "the journal is finished")
        let assets = PHAsset.fetchAssets(with: optionsFor(reopened))
        if step == .staged {
            #expect(assets.count == 0, "the block never committed")
            #expect(try Data(contentsOf: source) == photo, "so the original stays")
        } else {
            #expect(assets.count == 1, "the block committed")
            let paths = try importedPaths(reopened)
            try #require(paths.count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == photo, "the library has the photo")
            #expect(!FileManager.default.fileExists(atPath: source.path), "and the move is complete")
            #expect(filesInImports(reopened) == [String(paths[0].dropFirst(reopened.importDirectory.path.count + 1))])
        }
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "needs ../shared/corpus"),
        arguments: [FaultInjection.Step.committed, .removed])
    func aDeletionKilledAfterItsCommitRemovesTheLibrarysCopyAtTheNextOpen(step: FaultInjection.Step) throws {
        let source = try userPhoto()
        do {
            let library = try openLibrary()
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: nil)
            }
            let asset = try #require(PHAsset.fetchAssets(with: optionsFor(library)).firstObject)
            FaultInjection.set(in: library.importDirectory.standardizedFileURL.path) { $0 == step }
            defer { FaultInjection.clear(in: library.importDirectory.standardizedFileURL.path) }
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
            }
        }
        let reopened = try openLibrary()
        #expect(try reopened.database.fileJournal().isEmpty)
        #expect(filesInImports(reopened) == [], "the copy of the deleted asset is gone")
        #expect(try Data(contentsOf: source) == photo, "the user's original (copied, not moved) is untouched")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func anOriginalReplacedBeforeTheMoveFinishesIsNotRemoved() throws {
        let source = try userPhoto()
        do {
            let library = try openLibrary()
            FaultInjection.set(in: library.importDirectory.standardizedFileURL.path) { $0 == .placed }
            defer { FaultInjection.clear(in: library.importDirectory.standardizedFileURL.path) }
            #expect(throws: PHPhotosError.self) { try move(source, into: library) }
        }
        // The user saves another picture under the same name before the library is opened again.
        try FileManager.default.removeItem(at: source)
        try Data("a different picture".utf8).write(to: source)
        _ = try openLibrary()
        #expect(try Data(contentsOf: source) == Data("a different picture".utf8), "not the file that was moved")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func movingASymbolicLinkRemovesTheLinkNeverTheFileItNames() throws {
        let library = try openLibrary()
        let target = try userPhoto("kept.jpg", in: "Originals")
        let link = directory.path("Desktop/shortcut.jpg")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try move(link, into: library)
        #expect(try Data(contentsOf: target) == photo, "the file the link named is untouched")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "the link moved")
        let paths = try importedPaths(library)
        try #require(paths.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == photo, "the library has a copy of the content")
        let attributes = try FileManager.default.attributesOfItem(atPath: paths[0])
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func stagedCopiesOfStoppedProcessesAreRemovedAtOpenAndNothingElse() throws {
        _ = try openLibrary()
        let staging = libraryURL.deletingLastPathComponent().appendingPathComponent("Imports/.staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        // A copy staged by a process that is gone (no process has this id), one of this running
        // process, and a file that is no staged copy at all.
        let abandoned = staging.appendingPathComponent("2147483646-\(UUID().uuidString)-IMG.jpg")
        let running = staging.appendingPathComponent("\(getpid())-\(UUID().uuidString)-IMG.jpg")
        let other = staging.appendingPathComponent("notes.txt")
        for url in [abandoned, running, other] { try Data("x".utf8).write(to: url) }
        _ = try openLibrary()
        #expect(!FileManager.default.fileExists(atPath: abandoned.path), "a stopped process's copy goes")
        #expect(FileManager.default.fileExists(atPath: running.path), "a running process's copy stays")
        #expect(FileManager.default.fileExists(atPath: other.path), "what no process staged stays")
    }

    // MARK: Across file systems

    @Test(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
    func aMoveAcrossFileSystemsCopiesSyncsThenUnlinks() throws {
        let disk = try SmallFileSystem(megabytes: 16)
        let source = disk.url.appendingPathComponent("IMG_0002.jpg")
        try photo.write(to: source)
        let library = try openLibrary()
        // A failing block first: the original on the other file system stays.
        failingBlock(library) { addMovedResource(source) }
        #expect(try Data(contentsOf: source) == photo)
        #expect(filesInImports(library) == [])
        try move(source, into: library)
        #expect(!FileManager.default.fileExists(atPath: source.path))
        let paths = try importedPaths(library)
        try #require(paths.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: paths[0])) == photo)
    }

    @Test(.enabled(if: Corpus.isAvailable && SmallFileSystem.isAvailable, "needs ../shared/corpus, root and tmpfs"))
    func aMoveFromWhereTheOriginalCannotBeRemovedFailsBeforeTheCommit() throws {
        let disk = try SmallFileSystem(megabytes: 16)
        let source = disk.url.appendingPathComponent("IMG_0003.jpg")
        try photo.write(to: source)
        try disk.makeReadOnly()
        let library = try openLibrary()
        let token = library.currentChangeToken
        // Found after the commit, the asset would be in the library and the original left behind.
        #expect {
            try move(source, into: library)
        } throws: { error in
            (error as? PHPhotosError)?.code == .accessRestricted
        }
        #expect(library.currentChangeToken == token)
        #expect(try Data(contentsOf: source) == photo)
        #expect(filesInImports(library) == [])
        // A copy of the same file is fine: nothing of it needs removing.
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: nil)
        }
        #expect(try importedPaths(library).count == 1)
    }

    // MARK: Names

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func hostileNamesStayInsideTheImportFolderAndCollisionsGetNewNames() throws {
        let library = try openLibrary()
        let source = try userPhoto()
        // What `..` would reach from an asset's folder in Imports: the user's photos beside the library.
        let victim = try userPhoto("precious.jpg", in: "library/Imports/../Pictures")
        let names = [
            "../../Pictures/precious.jpg", "a/b.jpg", "IMG.jpg", "IMG.jpg", "..",
            String(repeating: "é", count: 200) + ".jpg",
        ]
        failingBlock(library) {
            for name in names {
                let options = PHAssetResourceCreationOptions()
                options.originalFilename = name
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: source, options: options)
            }
        }
        #expect(try Data(contentsOf: victim) == photo, "the failing block's clean-up left the user's folder alone")
        try library.performChangesAndWait {
            // Two resources per asset, so that names collide inside one asset's folder.
            for pair in stride(from: 0, to: names.count, by: 2) {
                let request = PHAssetCreationRequest.forAsset()
                for (offset, name) in names[pair..<pair + 2].enumerated() {
                    let options = PHAssetResourceCreationOptions()
                    options.originalFilename = name
                    request.addResource(with: offset == 0 ? .photo : .alternatePhoto, fileURL: source, options: options)
                }
            }
        }
        let imports = library.importDirectory.standardizedFileURL.path + "/"
        let paths = try importedPaths(library)
        #expect(paths.count == names.count)
        #expect(Set(paths).count == paths.count, "no two resources share a file")
        for path in paths {
            #expect(path.hasPrefix(imports), "\(path) is inside the import folder")
            let name = String(path.dropFirst(imports.count + 37))
            #expect(
                !name.contains("/") && !name.hasPrefix(".") && name.utf8.count <= 255, "\(name) is one plain component")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == photo)
        }
        #expect(try Data(contentsOf: victim) == photo)
        let recorded = try library.database.read { db in
            try db.rows("SELECT coalesce(originalFilename, name) FROM resource ORDER BY id", []) { try $0.text(0) }
        }
        #expect(recorded.first == "../../Pictures/precious.jpg", "the name the caller gave is what PhotoKit reports")
    }

    // MARK: Deleting assets

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func deletingAFolderBackedAssetLeavesItsFileEvenUnderTheImportFoldersName() throws {
        let library = try openLibrary()
        // A folder whose path starts with the import folder's path, as a string, and one reached through `..`.
        let lookalike = try userPhoto("a.jpg", in: "library/Imports-old")
        let dotted = try userPhoto("b.jpg", in: "library/Pictures")
        let roots = [lookalike.deletingLastPathComponent().path, library.importDirectory.path + "/../Pictures"]
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: roots)
        let assets = PHAsset.fetchAssets(with: optionsFor(library))
        #expect(assets.count == 2)
        // Their roots allow no file changes: the deletion is refused and nothing is touched.
        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets) }
        }
        #expect(refused?.code == .accessRestricted)
        #expect(PHAsset.fetchAssets(with: optionsFor(library)).count == 2)
        #expect(try Data(contentsOf: lookalike) == photo)
        #expect(try Data(contentsOf: dotted) == photo)

        // Under roots with write = "files" they go to the Trash, whole: never removed as the library's own.
        var configuration = PHPhotoLibrary.Configuration()
        configuration.roots = roots.map { LibraryRoot(path: URL(fileURLWithPath: $0).standardized.path, write: .files) }
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        let writing = try PHPhotoLibrary(url: libraryURL, configuration: configuration)
        try writing.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(with: optionsFor(writing)))
        }
        #expect(PHAsset.fetchAssets(with: optionsFor(writing)).count == 0)
        for name in ["a.jpg", "b.jpg"] {
            #expect(try Data(contentsOf: directory.path("data/Trash/files/" + name)) == photo, "\(name) in the Trash")
        }
        #expect(try writing.trashedAssets().count == 2)
    }

    func optionsFor(_ library: PHPhotoLibrary) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        return options
    }
}
