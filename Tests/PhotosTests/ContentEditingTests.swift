import Foundation
import PhotosImaging
import PhotosIngest
import PhotosLinux
import PhotosStore
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// Content editing on real files: a corpus photo and movie copied into a watched folder (the
/// user's files), scanned, then edited, edited again, reverted and deleted through PhotoKit's API.
/// The user's files are checked byte for byte after every step.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct ContentEditingTests {
    static let photo = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!  // 640x480
    static let movie = Corpus.file("Phone/DCIM/100APPLE/IMG_0420.MOV")!
    static let otherMovie = Corpus.file("Phone/DCIM/101APPLE/IMG_1500.MOV")!

    let directory: TemporaryDirectory
    let pictures: URL
    let userPhoto: URL
    let original: Data

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-editing")
        pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        userPhoto = pictures.appendingPathComponent("DSCN0010.jpg")
        try FileManager.default.copyItem(at: Self.photo, to: userPhoto)
        original = try Data(contentsOf: userPhoto)
    }

    /// The library over `Pictures`, scanned (opened again each time: every opening finishes the
    /// file work a stopped process left).
    func openLibrary() throws -> PHPhotoLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        return try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
    }

    func scan(_ library: PHPhotoLibrary) throws {
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
    }

    func onlyAsset(_ library: PHPhotoLibrary, _ type: PHAssetMediaType = .image) throws -> PHAsset {
        let options = PHFetchOptions()
        options.photoLibrary = library
        let result = PHAsset.fetchAssets(with: type, options: options)
        try #require(result.count == 1)
        return result.firstObject!
    }

    /// The input, waited for (the handler runs on a worker thread).
    func input(
        _ asset: PHAsset, canHandle: @escaping (PHAdjustmentData) -> Bool = { _ in false }
    ) throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = canHandle
        let box = Mutex<PHContentEditingInput?>(nil)
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, info in
            if input == nil { Issue.record("no input: \(info[PHContentEditingInputErrorKey] ?? "no error")") }
            box.withLock { $0 = input }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        return try #require(box.withLock { $0 })
    }

    /// A JPEG of the picture at `url`, `edge` pixels on its long side: a stand-in for an app's render.
    static func render(_ url: URL, edge: Int) throws -> Data {
        Data(
            try ImageRenderer().render(fileAt: url.path, ImageRequest(target: PixelSize(width: edge, height: edge)))
                .data)
    }

    static let sepia = PHAdjustmentData(
        formatIdentifier: "org.example.sepia", formatVersion: "1.0", data: Data("amount=0.8".utf8))
    static let crop = PHAdjustmentData(
        formatIdentifier: "org.example.crop", formatVersion: "2", data: Data("square".utf8))

    /// Edits `asset` with a render `edge` pixels on its long side; returns the output.
    @discardableResult
    func edit(
        _ asset: PHAsset, in library: PHPhotoLibrary, edge: Int, adjustment: PHAdjustmentData = sepia,
        canHandle: @escaping (PHAdjustmentData) -> Bool = { _ in false }
    ) throws -> PHContentEditingOutput {
        let input = try input(asset, canHandle: canHandle)
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = adjustment
        try Self.render(input.fullSizeImageURL!, edge: edge).write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        return output
    }

    func imageSize(_ asset: PHAsset, _ version: PHImageRequestOptionsVersion) -> CGSize? {
        PHImageManager.default().fullSizeImageSize(of: asset, version: version)
    }

    func types(_ asset: PHAsset) -> [PHAssetResourceType] {
        PHAssetResource.assetResources(for: asset).map(\.type).sorted { $0.rawValue < $1.rawValue }
    }

    /// Every file under the library's edits folder, relative to it.
    func editFiles(_ library: PHPhotoLibrary) -> [String] {
        let root = library.importDirectory.appendingPathComponent(".edits").path
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter {
            !$0.isEmpty
                && !((try? FileManager.default.attributesOfItem(atPath: root + "/" + $0)[.type] as? FileAttributeType)
                    == .typeDirectory)
        }
        .sorted()
    }

    @Test func anEditRoundTripsAndTheUsersFileIsNeverWritten() async throws {
        let library = try openLibrary()
        try scan(library)
        var asset = try onlyAsset(library)
        #expect(asset.canPerform(.content) && !asset.hasAdjustments && asset.adjustmentsState == .none)

        let first = try input(asset)
        #expect(first.fullSizeImageURL?.path == userPhoto.path && first.adjustmentData == nil)
        #expect(first.mediaType == .image && first.fullSizeImageOrientation == 1)
        #expect(first.uniformTypeIdentifier == "public.jpeg" && first.creationDate == asset.creationDate)
        #expect(first.displaySizeImage?.size == CGSize(width: 640, height: 480))

        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        let before = library.currentChangeToken
        let output = PHContentEditingOutput(contentEditingInput: first)
        output.adjustmentData = Self.sepia
        let rendered = try Self.render(userPhoto, edge: 320)
        try rendered.write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        // Observers see a content change; the history records an update of the asset.
        try await recorder.waitFor(1)
        let change = try #require(recorder.changes.withLock { $0.first })
        #expect(change.changeDetails(for: asset)?.assetContentChanged == true)
        let history = try library.fetchPersistentChanges(since: before).map { try $0.changeDetails(for: .asset) }
        #expect(history.contains { $0.updatedLocalIdentifiers.contains(asset.localIdentifier) })

        asset = try onlyAsset(library)
        #expect(asset.hasAdjustments && asset.adjustmentFormatIdentifier == "org.example.sepia")
        #expect(asset.adjustmentsState == .userAdjusted)
        #expect(types(asset) == [.photo, .fullSizePhoto, .adjustmentData])
        let resources = PHAssetResource.assetResources(for: asset)
        let render = try #require(resources.first { $0.type == .fullSizePhoto })
        #expect(try Data(contentsOf: render.fileURL) == rendered, "the render is the app's, byte for byte")
        #expect(render.fileURL.path.hasPrefix(library.importDirectory.path + "/.edits/"))
        #expect(!FileManager.default.fileExists(atPath: output.renderedContentURL.path), "moved into place")
        let envelope = try #require(resources.first { $0.type == .adjustmentData })
        #expect(AdjustmentEnvelope.decode(try Data(contentsOf: envelope.fileURL)) == Self.sepia)

        #expect(imageSize(asset, .current) == CGSize(width: 320, height: 240), "as it looks now: the render")
        #expect(imageSize(asset, .unadjusted) == CGSize(width: 640, height: 480), "without the edit: the original")
        #expect(imageSize(asset, .original) == CGSize(width: 640, height: 480))
        #expect(try Data(contentsOf: userPhoto) == original, "the user's photo is untouched")

        // An app that knows the format changes the edit from the original; another edits over it.
        let again = try input(asset) { $0.formatIdentifier == "org.example.sepia" }
        #expect(again.fullSizeImageURL?.path == userPhoto.path && again.adjustmentData == Self.sepia)
        let over = try input(asset)
        #expect(over.fullSizeImageURL == render.fileURL && over.adjustmentData == nil)

        // Reverting drops the edit's files after the commit; the photo stays as it was.
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).revertAssetContentToOriginal() }
        asset = try onlyAsset(library)
        #expect(!asset.hasAdjustments && asset.adjustmentFormatIdentifier == nil && asset.adjustmentsState == .none)
        #expect(types(asset) == [.photo])
        #expect(editFiles(library) == [], "the render and adjustment data are gone")
        #expect(try library.database.fileJournal().isEmpty)
        #expect(imageSize(asset, .current) == CGSize(width: 640, height: 480))
        #expect(try Data(contentsOf: userPhoto) == original)
    }

    @Test func anEditOverAnEditKeepsTheEarlierRenderAsItsBase() throws {
        let library = try openLibrary()
        try scan(library)
        try edit(try onlyAsset(library), in: library, edge: 320)
        let firstRender = try #require(
            PHAssetResource.assetResources(for: try onlyAsset(library)).first { $0.type == .fullSizePhoto })

        // An app that cannot read the sepia edit crops the edited picture.
        try edit(try onlyAsset(library), in: library, edge: 200, adjustment: Self.crop)
        let asset = try onlyAsset(library)
        #expect(asset.adjustmentFormatIdentifier == "org.example.crop")
        #expect(types(asset) == [.photo, .fullSizePhoto, .adjustmentData, .adjustmentBasePhoto])
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.first { $0.type == .adjustmentBasePhoto }?.fileURL == firstRender.fileURL)
        #expect(editFiles(library).count == 3, "the first edit's adjustment data went; its render is the base")
        #expect(imageSize(asset, .current) == CGSize(width: 200, height: 150))

        // The crop app, asked again, starts from what its edit was made on: the first render.
        let input = try input(asset) { $0.formatIdentifier == "org.example.crop" }
        #expect(input.fullSizeImageURL == firstRender.fileURL && input.adjustmentData == Self.crop)
        // Changing its edit keeps the same base.
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = Self.crop
        try Self.render(input.fullSizeImageURL!, edge: 100).write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let changed = try onlyAsset(library)
        #expect(
            PHAssetResource.assetResources(for: changed).first { $0.type == .adjustmentBasePhoto }?.fileURL
                == firstRender.fileURL)
        #expect(editFiles(library).count == 3)
        #expect(imageSize(changed, .current) == CGSize(width: 100, height: 75))
        #expect(try Data(contentsOf: userPhoto) == original)
    }

    @Test func anEditThatCannotBeCommittedChangesNothingAndCanBeRetried() throws {
        let library = try openLibrary()
        try scan(library)
        let asset = try onlyAsset(library)
        let output = PHContentEditingOutput(contentEditingInput: try input(asset))
        func commit() -> PHPhotosError.Code? {
            do {
                try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
                return nil
            } catch {
                return (error as? PHPhotosError)?.code
            }
        }
        try Self.render(userPhoto, edge: 100).write(to: output.renderedContentURL)
        #expect(commit() == .invalidResource, "no adjustment data")
        output.adjustmentData = Self.sepia
        try Data("not a picture".utf8).write(to: output.renderedContentURL)
        #expect(commit() == .invalidResource, "a render that is no image")
        try FileManager.default.removeItem(at: output.renderedContentURL)
        #expect(commit() == .invalidResource, "no render written")
        #expect(!(try onlyAsset(library)).hasAdjustments && editFiles(library) == [])
        #expect(try library.database.fileJournal().isEmpty)

        try Self.render(userPhoto, edge: 100).write(to: output.renderedContentURL)
        #expect(commit() == nil, "the same output, once complete, commits")
        #expect(try onlyAsset(library).hasAdjustments)

        // An input made before another edit is stale once that edit replaced what it was made over.
        let stale = try input(try onlyAsset(library))
        try edit(try onlyAsset(library), in: library, edge: 80)
        let late = PHContentEditingOutput(contentEditingInput: stale)
        late.adjustmentData = Self.crop
        try Self.render(userPhoto, edge: 60).write(to: late.renderedContentURL)
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = late }
        }
        #expect(try Data(contentsOf: userPhoto) == original)
    }

    @Test(arguments: [FaultInjection.Step.committed, .removed])
    func aRevertStoppedAfterItsCommitRemovesTheEditAtTheNextOpen(step: FaultInjection.Step) throws {
        do {
            let library = try openLibrary()
            try scan(library)
            try edit(try onlyAsset(library), in: library, edge: 320)
            #expect(editFiles(library).count == 2)
            FaultInjection.set(in: library.importDirectory.standardizedFileURL.path) { $0 == step }
            defer { FaultInjection.clear(in: library.importDirectory.standardizedFileURL.path) }
            let asset = try onlyAsset(library)
            #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest(for: asset).revertAssetContentToOriginal() }
            }
            #expect(!(try onlyAsset(library)).hasAdjustments, "the revert committed")
            #expect(try !library.database.fileJournal().isEmpty, "with file work owed")
        }
        let reopened = try openLibrary()
        #expect(try reopened.database.fileJournal().isEmpty)
        #expect(editFiles(reopened) == [], "the edit's files went at the next open")
        #expect(try Data(contentsOf: userPhoto) == original, "the user's photo is untouched")
    }

    @Test(arguments: [FaultInjection.Step.staged, .committed, .linked, .placed])
    func anEditStoppedAtAnyStepIsWholeOrAbsentAtTheNextOpen(step: FaultInjection.Step) throws {
        do {
            let library = try openLibrary()
            try scan(library)
            FaultInjection.set(in: library.importDirectory.standardizedFileURL.path) { $0 == step }
            defer { FaultInjection.clear(in: library.importDirectory.standardizedFileURL.path) }
            #expect(throws: (any Error).self) { try edit(try onlyAsset(library), in: library, edge: 320) }
        }
        let reopened = try openLibrary()
        let asset = try onlyAsset(reopened)
        #expect(try reopened.database.fileJournal().isEmpty)
        if step == .staged {
            #expect(!asset.hasAdjustments && types(asset) == [.photo], "stopped before its commit: no edit")
        } else {
            #expect(asset.hasAdjustments, "stopped after its commit: the edit is finished")
            for resource in PHAssetResource.assetResources(for: asset) {
                #expect(FileManager.default.fileExists(atPath: resource.fileURL.path), "\(resource.type) is in place")
            }
            #expect(imageSize(asset, .current) == CGSize(width: 320, height: 240))
        }
        #expect(try Data(contentsOf: userPhoto) == original)
    }

    @Test func deletingAnEditedAssetRemovesItsEditNeverTheUsersFile() throws {
        let library = try openLibrary()
        try scan(library)
        try edit(try onlyAsset(library), in: library, edge: 320)
        let asset = try onlyAsset(library)
        let edits = editFiles(library)
        #expect(!edits.isEmpty)
        // Under a root that allows no file changes, the folder's photo is the user's: nothing is deleted.
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        }
        #expect(editFiles(library) == edits)
        #expect(try Data(contentsOf: userPhoto) == original)

        // Under a root with write = "files", the photo goes to the Trash, whole, and its edit waits with
        // it in Recently Deleted; erased for good, the edit goes.
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        configuration.roots = [LibraryRoot(path: pictures.path, write: .files)]
        configuration.trash = Trash(environment: ["XDG_DATA_HOME": directory.path("data").path])
        let writing = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
        try writing.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(!FileManager.default.fileExists(atPath: userPhoto.path))
        let trashed = directory.path("data/Trash/files/DSCN0010.jpg")
        #expect(try Data(contentsOf: trashed) == original, "the user's photo is in the Trash, untouched")
        #expect(editFiles(writing) == edits, "kept while the asset can be restored")
        try writing.eraseTrashedAssets(try writing.trashedAssets())
        #expect(editFiles(writing) == [])
        #expect(try writing.database.fileJournal().isEmpty)
    }

    /// `PHAsset.contentType` is the type of what the asset shows: a TIFF's JPEG render once edited.
    @Test func anEditedAssetsContentTypeIsItsRenders() throws {
        try FileManager.default.removeItem(at: userPhoto)
        try FileManager.default.copyItem(
            at: try #require(Corpus.file("Scans/Reagan.tiff")), to: pictures.appendingPathComponent("Reagan.tiff"))
        let library = try openLibrary()
        try scan(library)
        let asset = try onlyAsset(library)
        #expect(asset.contentType == .tiff)
        #expect(try input(asset).contentType == .tiff, "the input is the file to edit")
        let editing = try input(asset)
        let output = PHContentEditingOutput(contentEditingInput: editing)
        output.adjustmentData = Self.sepia
        var request = ImageRequest(target: PixelSize(width: 100, height: 100))
        request.format = .jpeg  // The scan has transparency: left to itself, the render would be a PNG.
        let tiff = try #require(editing.fullSizeImageURL).path
        try Data(ImageRenderer().render(fileAt: tiff, request).data).write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = try onlyAsset(library)
        #expect(edited.contentType == .jpeg, "the render, a JPEG, is what is shown")
        #expect(PHAssetResource.assetResources(for: edited).first { $0.type == .photo }?.contentType == .tiff)
        try library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        #expect(try onlyAsset(library).contentType == .tiff)
    }

    @Test func theScannerKeepsAnEditAndDropsItOnlyWithItsPhoto() throws {
        let library = try openLibrary()
        try scan(library)
        try edit(try onlyAsset(library), in: library, edge: 320)
        let identifier = try onlyAsset(library).localIdentifier

        // Rescanned, and with its file's time changed (read again), the photo keeps its edit.
        try scan(library)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: userPhoto.path)
        try scan(library)
        let rescanned = try onlyAsset(library)
        #expect(rescanned.localIdentifier == identifier && rescanned.hasAdjustments)
        #expect(types(rescanned) == [.photo, .fullSizePhoto, .adjustmentData])

        // The user deletes the photo: the asset goes, and its edit's files at the next opening.
        try FileManager.default.removeItem(at: userPhoto)
        try scan(library)
        let options = PHFetchOptions()
        options.photoLibrary = library
        #expect(PHAsset.fetchAssets(with: options).count == 0)
        #expect(editFiles(library).count == 2, "the scanner removes no file; it journals the edit's")
        let reopened = try openLibrary()
        #expect(editFiles(reopened) == [])
        #expect(try reopened.database.fileJournal().isEmpty)
    }

    @Test func aVideoEditIsItsRenderedMovie() throws {
        let userMovie = pictures.appendingPathComponent("IMG_0420.MOV")
        try FileManager.default.copyItem(at: Self.movie, to: userMovie)
        let movieBytes = try Data(contentsOf: userMovie)
        try FileManager.default.removeItem(at: userPhoto)
        let library = try openLibrary()
        try scan(library)
        let asset = try onlyAsset(library, .video)
        let input = try input(asset)
        #expect(input.fullSizeImageURL == nil)
        #expect((input.audiovisualAsset as? AVURLAsset)?.url.path == userMovie.path)
        let output = PHContentEditingOutput(contentEditingInput: input)
        #expect(output.renderedContentURL.pathExtension == "mov")
        output.adjustmentData = Self.crop
        try FileManager.default.copyItem(at: Self.otherMovie, to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = try onlyAsset(library, .video)
        #expect(types(edited) == [.video, .fullSizeVideo, .adjustmentData])

        func movie(_ version: PHVideoRequestOptionsVersion) throws -> String? {
            let options = PHVideoRequestOptions()
            options.version = version
            let url = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            PHImageManager.default().requestAVAsset(forVideo: edited, options: options) { avAsset, _, _ in
                url.withLock { $0 = (avAsset as? AVURLAsset)?.url.path }
                done.signal()
            }
            try #require(done.wait(timeout: .now() + 60) == .success)
            return url.withLock { $0 }
        }
        #expect(try movie(.current)?.hasPrefix(library.importDirectory.path + "/.edits/") == true)
        #expect(try movie(.original) == userMovie.path)
        #expect(try Data(contentsOf: userMovie) == movieBytes)
    }
}

/// The adjustment envelope is Apple's `.AAE` format: an iPhone's sidecar reads as adjustment data.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct AdjustmentEnvelopeTests {
    @Test func anIPhoneSidecarReadsAndOursRoundTrips() throws {
        let sidecar = try Data(contentsOf: Corpus.file("Phone/DCIM/100APPLE/IMG_4120.AAE")!)
        let list = try #require(PropertyListSerialization.propertyList(from: sidecar, format: nil) as? [String: Any])
        let read = try #require(AdjustmentEnvelope.decode(sidecar))
        #expect(read.formatIdentifier == list["adjustmentFormatIdentifier"] as? String)
        #expect(read.formatVersion == list["adjustmentFormatVersion"] as? String)
        #expect(read.data == list["adjustmentData"] as? Data && !read.data.isEmpty)

        let ours = try AdjustmentEnvelope.encode(read, overEarlierRender: true, at: Date(timeIntervalSince1970: 0))
        #expect(AdjustmentEnvelope.decode(ours) == read)
        let written = try #require(PropertyListSerialization.propertyList(from: ours, format: nil) as? [String: Any])
        #expect(written["adjustmentBaseVersion"] as? Int == 1)
        #expect(AdjustmentEnvelope.decode(Data("<plist><dict/></plist>".utf8)) == nil)
    }
}
