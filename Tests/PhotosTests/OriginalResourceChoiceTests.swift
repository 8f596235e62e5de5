import Foundation
import PhotosImaging
import PhotosIngest
import PhotosTestSupport
import Synchronization
import Testing

@testable import Photos

/// `PHAsset.OriginalResourceChoice` (SDK 27) on a RAW+JPEG pair made of corpus files: the DNG
/// (developed by LibRaw at 1224x816) and a 640x480 JPEG under one name, scanned into one asset.
/// The two originals differ in size, so every image says which file it was rendered from.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct OriginalResourceChoiceTests {
    static let raw = Corpus.file("Camera/RAW/canon_eos_6d.dng")!
    static let jpeg = Corpus.file("Camera/2008/Road trip/DSCN0010.jpg")!
    static let rawSize = CGSize(width: 1224, height: 816)
    static let jpegSize = CGSize(width: 640, height: 480)

    let directory: TemporaryDirectory
    let pictures: URL
    let library: PHPhotoLibrary

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-original-choice")
        pictures = directory.path("Pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.raw, to: pictures.appendingPathComponent("IMG_0001.DNG"))
        try FileManager.default.copyItem(at: Self.jpeg, to: pictures.appendingPathComponent("IMG_0001.JPG"))
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)
    }

    func scan() throws {
        _ = try FolderScanner(database: library.database, quietTime: 0).scan(roots: [pictures.path])
    }

    func asset(named name: String) throws -> PHAsset {
        let options = PHFetchOptions()
        options.photoLibrary = library
        let found = PHAsset.fetchAssets(with: options).first { asset in
            PHAssetResource.assetResources(for: asset).contains { $0.originalFilename == name }
        }
        return try #require(found, "no asset with \(name)")
    }

    func pair() throws -> PHAsset {
        let pair = try asset(named: "IMG_0001.DNG")
        try #require(
            Set(PHAssetResource.assetResources(for: pair).map(\.type)).isSuperset(of: [.photo, .alternatePhoto]))
        return pair
    }

    func imageSize(_ asset: PHAsset, _ version: PHImageRequestOptionsVersion) -> CGSize? {
        PHImageManager.default().fullSizeImageSize(of: asset, version: version)
    }

    func imageData(_ asset: PHAsset, _ version: PHImageRequestOptionsVersion) -> (Data?, String?) {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.version = version
        let result = Mutex<(Data?, String?)>((nil, nil))
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: options) { data, type, _, _ in
            result.withLock { $0 = (data, type) }
        }
        return result.withLock { $0 }
    }

    /// The content editing input, or its error, waited for.
    func input(_ asset: PHAsset, choice: PHAsset.OriginalResourceChoice? = nil) throws
        -> (input: PHContentEditingInput?, error: PHPhotosError?)
    {
        let options = PHContentEditingInputRequestOptions()
        if let choice { options.originalResourceChoice = choice }
        let box = Mutex<(PHContentEditingInput?, PHPhotosError?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, info in
            box.withLock { $0 = (input, info[PHContentEditingInputErrorKey] as? PHPhotosError) }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success)
        return box.withLock { $0 }
    }

    @Test func aScannedPairStartsFromItsCompressedOriginal() throws {
        try scan()
        let pair = try pair()
        #expect(pair.originalResourceChoice == .compressed)
        for version in [PHImageRequestOptionsVersion.current, .unadjusted, .original] {
            #expect(imageSize(pair, version) == Self.jpegSize, "\(version)")
        }
        #expect(pair.contentType == .jpeg)
        let (data, type) = imageData(pair, .original)
        #expect(data == (try Data(contentsOf: Self.jpeg)) && type == "public.jpeg")
        let url = try #require(try input(pair).input?.fullSizeImageURL)
        #expect(url.lastPathComponent == "IMG_0001.JPG")
    }

    @Test func revertingToTheRAWRendersAndEditsFromTheRAWUntilRevertedBack() throws {
        try scan()
        let before = try pair()
        let userFiles = try [Self.raw, Self.jpeg].map { try Data(contentsOf: $0) }
        try library.performChangesAndWait { PHAssetChangeRequest(for: before).revertAssetContent(to: .raw) }

        let raw = try pair()
        #expect(raw.originalResourceChoice == .raw && !raw.hasAdjustments)
        #expect(raw.modificationDate != before.modificationDate)
        for version in [PHImageRequestOptionsVersion.current, .unadjusted, .original] {
            #expect(imageSize(raw, version) == Self.rawSize, "\(version): rendered from the DNG")
        }
        #expect(raw.contentType.conforms(to: .rawImage))
        let (data, type) = imageData(raw, .unadjusted)
        #expect(data == userFiles[0] && type == "com.adobe.raw-image")
        let given = try input(raw)
        #expect(given.input?.fullSizeImageURL?.lastPathComponent == "IMG_0001.DNG")
        #expect(given.input?.uniformTypeIdentifier == "com.adobe.raw-image")
        #expect(given.input?.displaySizeImage?.size == CGSize(width: 1024, height: 683), "developed from the RAW")

        // An edit over the RAW; reverting to the compressed original drops it and switches back.
        let output = PHContentEditingOutput(contentEditingInput: try #require(given.input))
        output.adjustmentData = PHAdjustmentData(
            formatIdentifier: "org.example.develop", formatVersion: "1", data: Data())
        let source = try #require(given.input?.fullSizeImageURL).path
        let render = try ImageRenderer().render(
            fileAt: source, ImageRequest(target: PixelSize(width: 300, height: 300)))
        try Data(render.data).write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: raw).contentEditingOutput = output }
        let edited = try pair()
        #expect(edited.hasAdjustments && edited.originalResourceChoice == .raw)
        #expect(imageSize(edited, .current) == CGSize(width: 300, height: 200))
        #expect(imageSize(edited, .unadjusted) == Self.rawSize)

        try library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContent(to: .compressed) }
        let back = try pair()
        #expect(back.originalResourceChoice == .compressed && !back.hasAdjustments)
        #expect(Set(PHAssetResource.assetResources(for: back).map(\.type)) == [.photo, .alternatePhoto])
        #expect(imageSize(back, .current) == Self.jpegSize && imageSize(back, .original) == Self.jpegSize)
        #expect(try [Self.raw, Self.jpeg].map { try Data(contentsOf: $0) } == userFiles)
        let copies = try ["IMG_0001.DNG", "IMG_0001.JPG"].map {
            try Data(contentsOf: pictures.appendingPathComponent($0))
        }
        #expect(copies == userFiles, "the user's files are only read")
    }

    /// Reverting an edited pair to its RAW removes the edit's files (the library's own) only after
    /// the commit: stopped right after it, or after a file went, the next opening finishes the
    /// removal, and the user's DNG and JPEG are never written.
    @Test(arguments: [FaultInjection.Step.committed, .removed])
    func aRevertToTheRAWStoppedAfterItsCommitRemovesTheEditAtTheNextOpen(step: FaultInjection.Step) throws {
        let path = directory.path("halfway.sqlite")
        var configuration = PHPhotoLibrary.Configuration()
        configuration.thumbnailCacheDirectory = nil
        let userFiles = try ["IMG_0001.DNG", "IMG_0001.JPG"].map {
            try Data(contentsOf: pictures.appendingPathComponent($0))
        }
        func pair(in library: PHPhotoLibrary) throws -> PHAsset {
            let options = PHFetchOptions()
            options.photoLibrary = library
            return try #require(PHAsset.fetchAssets(with: options).firstObject)
        }
        func editFiles(_ library: PHPhotoLibrary) -> [String] {
            let root = library.importDirectory.appendingPathComponent(".edits").path
            return (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []).filter { name in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
        }
        do {
            let halfway = try PHPhotoLibrary(url: path, configuration: configuration)
            _ = try FolderScanner(database: halfway.database, quietTime: 0).scan(roots: [pictures.path])
            let given = try #require(try input(try pair(in: halfway)).input)
            let output = PHContentEditingOutput(contentEditingInput: given)
            output.adjustmentData = PHAdjustmentData(
                formatIdentifier: "org.example.develop", formatVersion: "1", data: Data())
            let render = try ImageRenderer().render(
                fileAt: try #require(given.fullSizeImageURL).path,
                ImageRequest(target: PixelSize(width: 300, height: 300)))
            try Data(render.data).write(to: output.renderedContentURL)
            let unedited = try pair(in: halfway)
            try halfway.performChangesAndWait { PHAssetChangeRequest(for: unedited).contentEditingOutput = output }
            #expect(editFiles(halfway).count == 2, "the render and the adjustment data")

            let importDirectory = halfway.importDirectory.standardizedFileURL.path
            FaultInjection.set(in: importDirectory) { $0 == step }
            defer { FaultInjection.clear(in: importDirectory) }
            let edited = try pair(in: halfway)
            #expect(throws: PHPhotosError.self) {
                try halfway.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContent(to: .raw) }
            }
            let reverted = try pair(in: halfway)
            #expect(reverted.originalResourceChoice == .raw && !reverted.hasAdjustments, "the revert committed")
            #expect(try !halfway.database.fileJournal().isEmpty, "with file work owed")
        }
        let reopened = try PHPhotoLibrary(url: path, configuration: configuration)
        #expect(try reopened.database.fileJournal().isEmpty)
        #expect(editFiles(reopened).isEmpty, "the edit's files went at the next open")
        #expect(try pair(in: reopened).originalResourceChoice == .raw)
        let copies = try ["IMG_0001.DNG", "IMG_0001.JPG"].map {
            try Data(contentsOf: pictures.appendingPathComponent($0))
        }
        #expect(copies == userFiles, "the user's files are only read")
    }

    @Test func theChoiceOutlivesARescanAndIsAContentChange() throws {
        try scan()
        let token = library.currentChangeToken
        let first = try pair()
        try library.performChangesAndWait { PHAssetChangeRequest(for: first).revertAssetContent(to: .raw) }
        let changes = try library.fetchPersistentChanges(since: token).map { $0 }
        let details = try #require(try changes.last?.changeDetails(for: .asset))
        let identifier = try pair().localIdentifier
        #expect(details.updatedLocalIdentifiers == [identifier])
        #expect(details.changedProperties[identifier] == ["content"], "observers see assetContentChanged")

        // The JPEG is written again: the asset is read again, and keeps its choice.
        let jpeg = pictures.appendingPathComponent("IMG_0001.JPG")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: jpeg.path)
        try scan()
        #expect(try pair().originalResourceChoice == .raw)
        // Asking again for what is already the choice changes nothing.
        let unchanged = library.currentChangeToken
        let again = try pair()
        try library.performChangesAndWait { PHAssetChangeRequest(for: again).revertAssetContent(to: .raw) }
        #expect(try library.fetchPersistentChanges(since: unchanged).map { $0 }.isEmpty)
    }

    @Test func anAssetWithoutARAWAlternateRefusesAChoice() throws {
        try FileManager.default.copyItem(at: Self.jpeg, to: pictures.appendingPathComponent("single.jpg"))
        try FileManager.default.copyItem(at: Self.raw, to: pictures.appendingPathComponent("alone.dng"))
        try scan()
        for name in ["single.jpg", "alone.dng"] {
            let single = try asset(named: name)
            #expect(single.originalResourceChoice == .compressed)
            let error = #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait { PHAssetChangeRequest(for: single).revertAssetContent(to: .raw) }
            }
            #expect(error?.code == .changeNotSupported, "\(name)")
            #expect(try asset(named: name).originalResourceChoice == .compressed)
            let refused = try input(single, choice: .compressed)
            #expect(refused.input == nil && refused.error?.code == .requestNotSupportedForAsset, "\(name)")
        }
        // Reverting to the original as before still works on any asset.
        let single = try asset(named: "single.jpg")
        try library.performChangesAndWait { PHAssetChangeRequest(for: single).revertAssetContentToOriginal() }
    }

    @Test func anInputRequestCanChooseTheOtherOriginalWithoutChangingTheAsset() throws {
        try scan()
        let pair = try pair()
        let raw = try #require(try input(pair, choice: .raw).input)
        #expect(raw.fullSizeImageURL?.lastPathComponent == "IMG_0001.DNG")
        #expect(try self.pair().originalResourceChoice == .compressed)
        let compressed = try #require(try input(pair, choice: .compressed).input)
        #expect(compressed.fullSizeImageURL?.lastPathComponent == "IMG_0001.JPG")
    }

    @Test func aCreationRequestSetsTheChoiceOnlyForARAWPlusJPEGPair() throws {
        var created = ""
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: Self.jpeg, options: nil)
            request.addResource(with: .alternatePhoto, fileURL: Self.raw, options: nil)
            request.originalResourceChoice = .raw
            #expect(request.originalResourceChoice == .raw)
            created = request.placeholderForCreatedAsset!.localIdentifier
        }
        let options = PHFetchOptions()
        options.photoLibrary = library
        let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [created], options: options).firstObject)
        #expect(asset.originalResourceChoice == .raw)
        #expect(imageSize(asset, .original) == Self.rawSize)

        // A photo alone, or a RAW photo with a JPEG alternate, is no RAW+JPEG pair: the block fails.
        for resources in [
            [(PHAssetResourceType.photo, Self.jpeg)], [(.photo, Self.raw), (.alternatePhoto, Self.jpeg)],
        ] {
            let error = #expect(throws: PHPhotosError.self) {
                try library.performChangesAndWait {
                    let request = PHAssetCreationRequest.forAsset()
                    for (type, url) in resources { request.addResource(with: type, fileURL: url, options: nil) }
                    request.originalResourceChoice = .compressed
                }
            }
            #expect(error?.code == .invalidResource)
        }
        #expect(PHAsset.fetchAssets(with: options).count == 1, "nothing made by the failed blocks")
        #expect(PHOriginalResourceChoice.raw.rawValue == 1 && PHOriginalResourceChoice.compressed.rawValue == 0)
    }
}
