import Foundation
import Photos
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

/// `FolderScanner` on real directories: the corpus against its oracle, and rescans after changes on disk.
@Suite struct FolderScannerTests {
    struct Truth: Decodable {
        let path: String
        let expect: String
        let width: Int?
        let height: Int?
        let creationDate: String?
        let creationDate_utc: String?
        let lat: Double?
        let lon: Double?
        let duration_s: Double?
        let subtypes: [String]?
        let live_pair_of: String?
        let burst_id: String?
        let duplicate_of: [String]?
    }

    static func truth() throws -> [Truth] {
        let url = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/truth.json")
        return try JSONDecoder().decode([Truth].self, from: Data(contentsOf: url))
    }

    /// A sound (an M4A: `ftyp M4A `, a movie header of 5 s, no track) is an audio asset whose file
    /// is its `.audio` resource, not a photo.
    @Test func aSoundIsAnAudioAssetWithAnAudioResource() throws {
        let tree = try Tree()
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            withUnsafeBytes(of: UInt32(8 + body.count).bigEndian, Array.init) + Array(type.utf8) + body
        }
        func be32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        let matrix = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000].flatMap { be32(UInt32($0)) }
        let header =
            [0, 0, 0, 0] + be32(0) + be32(0) + be32(1000) + be32(5000) + be32(0x10000) + [1, 0]
            + [UInt8](repeating: 0, count: 10) + matrix + [UInt8](repeating: 0, count: 24) + be32(2)
        let bytes =
            box("ftyp", Array("M4A ".utf8) + be32(0) + Array("M4A mp42isom".utf8))
            + box("moov", box("mvhd", header)) + box("mdat", [UInt8](repeating: 0, count: 64))
        try Data(bytes).write(to: tree.root.appendingPathComponent("song.m4a"))
        let report = try tree.scan()
        #expect(report.ingested == 1, "\(report)")
        let sounds = PHAsset.fetchAssets(with: .audio, options: tree.options)
        let sound = try #require(sounds.firstObject)
        #expect(abs(sound.duration - 5) < 0.01)
        #expect(PHAssetResource.assetResources(for: sound).map(\.type) == [.audio])
        // Scanned again, the file keeps its type.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)],
            ofItemAtPath: tree.root.appendingPathComponent("song.m4a").path)
        _ = try tree.scan()
        let again = try #require(PHAsset.fetchAssets(with: .audio, options: tree.options).firstObject)
        #expect(PHAssetResource.assetResources(for: again).map(\.type) == [.audio])
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and truth.json"))
    func corpusScanMatchesTheOracle() throws {
        // The scanner resolves symbolic links in roots; compare with the resolved path.
        let root = try #require(Corpus.root).resolvingSymlinksInPath().path
        let library = try PHPhotoLibrary(inMemoryWith: .init())
        let report = try FolderScanner(database: library.database).scan(roots: [root])
        let truth = try Self.truth()

        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        let paths = Set(
            PHAsset.fetchAssets(with: options).flatMap { asset in
                PHAssetResource.assetResources(for: asset).map { $0.fileURL.path }
            })
        let rejected = Set(try library.database.rejectedFiles().map(\.path))
        // Files whose verdict differs from the oracle, with the reason (issue 3 works these down).
        var differences: [String] = []
        for file in truth {
            let path = root + "/" + file.path
            let verdict = paths.contains(path) ? "ingest" : rejected.contains(path) ? "reject" : "skip"
            if verdict != file.expect {
                differences.append("\(file.path): expected \(file.expect), got \(verdict)")
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(report.ingested + report.rejected + report.skipped == report.seen)
        #expect(report.offlineRoots.isEmpty)
    }

    /// Every ingested file's asset, field by field, against ExifTool's answer.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus and truth.json"))
    func corpusAssetsCarryTheOraclesMetadata() throws {
        let corpus = try ScannedCorpus()
        let (root, library, options) = (corpus.root, corpus.library, corpus.options)
        let assetByPath = corpus.files.mapValues { ($0.asset, $0.resource.type) }
        let resourceByPath = corpus.files.mapValues(\.resource)
        try FolderScanner(database: library.database).updateContentHashes()
        let duplicateGroups = try library.database.duplicateGroups()
            .map { Set($0.map { String($0.path.dropFirst(root.count + 1)) }) }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = .current
        local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let instant = ISO8601DateFormatter()

        var problems: [String] = []
        for file in try Self.truth() where file.expect == "ingest" {
            guard let (asset, role) = assetByPath[file.path] else { continue }  // The scan test reports these.
            func problem(_ text: String) { problems.append("\(file.path): \(text)") }
            if role != .pairedVideo, let width = file.width, let height = file.height,
                asset.pixelWidth != width || asset.pixelHeight != height
            {
                problem("size \(asset.pixelWidth)x\(asset.pixelHeight), expected \(width)x\(height)")
            }
            // Each file's own size, a Live Photo's movie and a RAW+JPEG pair's RAW too.
            if let width = file.width, let height = file.height, let resource = resourceByPath[file.path],
                resource.pixelWidth != width || resource.pixelHeight != height
            {
                problem("file size \(resource.pixelWidth)x\(resource.pixelHeight), expected \(width)x\(height)")
            }
            if role != .pairedVideo, let text = file.creationDate {
                let expected =
                    file.creationDate_utc.flatMap { instant.date(from: $0) }
                    ?? local.date(from: String(text.prefix(19)))
                if let expected, let date = asset.creationDate, abs(date.timeIntervalSince(expected)) > 1 {
                    problem("taken \(date), expected \(text)")
                }
            }
            // A file that states no date is dated by its modification time, and its asset says so.
            if role != .pairedVideo, asset.creationDateIsFileTime != (file.creationDate == nil) {
                problem(
                    "creationDateIsFileTime \(asset.creationDateIsFileTime), but the file states "
                        + (file.creationDate.map { "the date \($0)" } ?? "no date"))
            }
            if role != .pairedVideo, let lat = file.lat, let lon = file.lon {
                let coordinate = asset.location?.coordinate
                if coordinate == nil || abs(coordinate!.latitude - lat) > 1e-5
                    || abs(coordinate!.longitude - lon) > 1e-5
                {
                    problem("location \(String(describing: coordinate)), expected \(lat), \(lon)")
                }
            }
            if role == .video, let duration = file.duration_s, abs(asset.duration - duration) > 0.05 {
                problem("duration \(asset.duration), expected \(duration)")
            }
            let expectedSubtypes: [String: PHAssetMediaSubtype] = [
                "hdr": .photoHDR, "screenshot": .photoScreenshot, "panorama": .photoPanorama, "livePhoto": .photoLive,
                // Named by no corpus file: none may carry them.
                "depthEffect": .photoDepthEffect, "spatial": .spatialMedia, "timelapse": .videoTimelapse,
                "cinematic": .videoCinematic,
            ]
            for (name, subtype) in expectedSubtypes
            where (file.subtypes ?? []).contains(name) != asset.mediaSubtypes.contains(subtype) {
                problem(
                    "subtype \(name): expected \((file.subtypes ?? []).contains(name)), got \(asset.mediaSubtypes.names)"
                )
            }
            if let pair = file.live_pair_of, assetByPath[pair]?.0 != asset {
                problem("not one asset with its Live Photo pair \(pair)")
            }
            if asset.burstIdentifier != file.burst_id {
                problem("burst \(asset.burstIdentifier ?? "none"), expected \(file.burst_id ?? "none")")
            }
            if let copies = file.duplicate_of, !copies.isEmpty,
                !duplicateGroups.contains(Set([file.path] + copies))
            {
                problem("not reported as a duplicate of \(copies)")
            }
        }
        // Differences still open, each with its reason; one that disappears must leave this list.
        let known: [String: String] = [:]
        let unexpected = problems.filter { problem in !known.keys.contains { problem.hasPrefix($0 + ":") } }
        #expect(unexpected.isEmpty, "\(unexpected.joined(separator: "\n"))")
        for path in known.keys {
            #expect(problems.contains { $0.hasPrefix(path + ":") }, "\(path) now matches: take it off the list")
        }
        let bursts = PHAsset.fetchAssets(withBurstIdentifier: "5D0C3A4E-8B1F-4C52-9E0A-6F2B7C1D3E41", options: options)
        #expect(bursts.count == 4 && bursts.filter(\.representsBurst).count == 1, "one representative per burst")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func foldersBecomeFoldersAndAlbums() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "2008/Death Valley/a.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn2.jpg", to: "2008/Death Valley/b.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "2008/loose.jpg")
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "top.jpg")
        try tree.scan()

        let rootFolder = try #require(tree.folder(at: ""))
        #expect(rootFolder.localizedTitle == tree.root.lastPathComponent)
        let children = PHCollection.fetchCollections(in: rootFolder, options: tree.options).map(\.localizedTitle)
        #expect(
            children == [tree.root.lastPathComponent, "2008"], "the root's own photos are its folder's first album")
        let year = try #require(tree.folder(at: "2008"))
        let inYear = PHCollection.fetchCollections(in: year, options: tree.options)
        #expect(inYear.map(\.localizedTitle) == ["2008", "Death Valley"], "a directory with both gets an album first")
        let valley = try #require(tree.album(at: "2008/Death Valley"))
        #expect(valley.estimatedAssetCount == 2)
        #expect(!valley.canPerform(.rename) && !valley.canPerform(.addContent), "directory albums follow the disk")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func renamesAndMovesKeepIdentityAndUserState() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "Trip/a.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn2.jpg", to: "Trip/b.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "Other/c.jpg")
        try tree.scan()
        let album = try #require(tree.album(at: "Trip"))
        let a = try #require(tree.asset(at: "Trip/a.jpg"))
        var userAlbum = ""
        try tree.library.performChangesAndWait {
            PHAssetChangeRequest(for: a).isFavorite = true
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            request.addAssets([a] as NSArray)
            userAlbum = request.placeholderForCreatedAssetCollection.localIdentifier
        }

        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent("Trip"), to: tree.root.appendingPathComponent("Holiday"))
        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent("Other/c.jpg"), to: tree.root.appendingPathComponent("Holiday/c.jpg"))
        let report = try tree.scan()
        #expect(report.ingested == 0 && report.removed == 0 && report.moved == 3, "\(report)")

        let renamed = try #require(tree.album(at: "Holiday"))
        #expect(renamed.localIdentifier == album.localIdentifier, "a renamed directory is the same album")
        #expect(renamed.localizedTitle == "Holiday")
        #expect(renamed.estimatedAssetCount == 3)
        #expect(tree.album(at: "Other") == nil, "an emptied directory's album goes")
        let moved = try #require(tree.asset(at: "Holiday/a.jpg"))
        #expect(moved.localIdentifier == a.localIdentifier && moved.isFavorite)
        let best = try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [userAlbum], options: tree.options)
                .firstObject)
        #expect(PHAsset.fetchAssets(in: best, options: tree.options).firstObject == moved)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func deletionsChangesAndOfflineRoots() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "x/a.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "x/b.jpg")
        var report = try tree.scan()
        #expect(report.ingested == 2)
        report = try tree.scan()
        #expect(report.unchanged == 2 && report.ingested == 0, "an unchanged tree is not read again")

        let b = try #require(tree.asset(at: "x/b.jpg"))
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("x/a.jpg"))
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("x/b.jpg"))
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "x/b.jpg")  // Same name, new content and inode.
        report = try tree.scan()
        #expect(report.removed + report.updated + report.ingested >= 2, "\(report)")
        #expect(tree.asset(at: "x/a.jpg") == nil)
        let replaced = try #require(tree.asset(at: "x/b.jpg"))
        #expect(replaced.pixelWidth == 640 && replaced.pixelHeight == 480)
        _ = b

        let elsewhere = try TemporaryDirectory(prefix: "photos-offline")
        let missingRoot = elsewhere.path("unplugged").path
        report = try FolderScanner(database: tree.library.database).scan(roots: [missingRoot])
        #expect(report.offlineRoots == [missingRoot])
        #expect(tree.asset(at: "x/b.jpg") != nil, "scanning an offline root removes nothing")

        // The root itself goes away (an unmounted disk): its assets stay, unavailable, and return.
        let parked = elsewhere.path("parked")
        try FileManager.default.moveItem(at: tree.root, to: parked)
        report = try tree.scan()
        #expect(report.offlineRoots == [tree.root.path] && report.removed == 0)
        let kept = try #require(tree.asset(at: "x/b.jpg"))
        #expect(!kept.isAvailable)
        try FileManager.default.moveItem(at: parked, to: tree.root)
        report = try tree.scan()
        #expect(report.offlineRoots.isEmpty && report.unchanged == 1)
        #expect(tree.asset(at: "x/b.jpg")?.isAvailable == true)
        #expect(tree.asset(at: "x/b.jpg")?.localIdentifier == kept.localIdentifier)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func identicalFilesAreReportedAsDuplicates() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "a/one.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "b/copy of one.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "b/other.jpg")
        try tree.scan()
        #expect(try tree.library.database.duplicateGroups().isEmpty, "hashing waits until duplicates are asked for")
        try FolderScanner(database: tree.library.database).updateContentHashes()
        let groups = try tree.library.database.duplicateGroups()
        #expect(
            groups.map { $0.map(\.path) } == [
                [
                    tree.root.appendingPathComponent("a/one.jpg").path,
                    tree.root.appendingPathComponent("b/copy of one.jpg").path,
                ]
            ])
        #expect(Set(groups[0].map(\.assetLocalIdentifier)).count == 2, "duplicates stay separate assets")
    }

    /// Files without their image data (docs/metadata.md): a metadata stub, which stops where its image data begins,
    /// is an asset with the size and date its headers state; a file cut anywhere else is listed as rejected,
    /// `truncated`; a file with no place for image data as `corrupt`.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aMetadataStubIsAnAssetAndACutFileIsRejected() throws {
        let tree = try Tree()
        func bytes(_ corpusPath: String) throws -> [UInt8] {
            try [UInt8](Data(contentsOf: try #require(Corpus.file(corpusPath))))
        }
        func offset(of pattern: String, in bytes: [UInt8]) throws -> Int {
            let ascii = Array(pattern.utf8)
            return try #require(
                (0..<(bytes.count - ascii.count)).first { bytes[$0..<($0 + ascii.count)].elementsEqual(ascii) })
        }
        let png = try bytes("Downloads/ReaganSmallPng.png")
        let idat = try offset(of: "IDAT", in: png) - 4
        let dng = try bytes("Camera/RAW/canon_eos_6d.dng")
        let heic = try bytes("Downloads/Stonehenge.heic")
        // Names that differ in more than the extension: a RAW and a HEIC of one name would be one asset.
        let files: [(name: String, bytes: [UInt8])] = [
            ("stub.png", Array(png.prefix(idat + 8))),  // right after the first IDAT header
            ("cut.png", Array(png.prefix(idat + 100))),
            ("pruned.dng", Array(dng.prefix(135_960))),  // exactly at the first strip (IFD0's thumbnail)
            ("cut.dng", Array(dng.prefix(300_000))),
            ("header-only.heic", Array(heic.prefix(try offset(of: "mdat", in: heic) + 12))),  // after its 64-bit header
        ]
        for file in files {
            try Data(file.bytes).write(to: tree.root.appendingPathComponent(file.name))
        }
        try tree.copy("Bad/exif_only_no_image.jpg", to: "no-image.jpg")
        let report = try tree.scan()
        #expect(report.ingested == 3 && report.rejected == 3, "\(report)")
        for (name, width, height) in [
            ("stub.png", 200, 130), ("pruned.dng", 1224, 816), ("header-only.heic", 300, 200),
        ] {
            let asset = try #require(tree.asset(at: name), "\(name)")
            #expect(asset.pixelWidth == width && asset.pixelHeight == height, "\(name)")
        }
        #expect(tree.asset(at: "pruned.dng")?.creationDate != nil, "the DNG's EXIF date")
        let rejected = Dictionary(
            uniqueKeysWithValues: try tree.library.database.rejectedFiles().map {
                (URL(fileURLWithPath: $0.path).lastPathComponent, $0)
            })
        #expect(rejected["cut.png"]?.code == "truncated")
        #expect(rejected["cut.dng"]?.code == "truncated")
        #expect(rejected["no-image.jpg"]?.code == "corrupt")
        #expect(rejected["cut.dng"]?.reason.contains("past the end of the file") == true)
    }

    /// A root whose files were all rejected holds no asset, yet its rejections are rows of the
    /// store: the next scan compares them and reads nothing again (a first scan's shortcut, which
    /// reads no rows where the store holds nothing under the root, is not taken).
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aRootOfRejectedFilesIsNotReadAgain() throws {
        let tree = try Tree()
        try tree.copy("Bad/exif_only_no_image.jpg", to: "a/no-image.jpg")
        try tree.copy("Bad/exif_only_no_image.jpg", to: "b/no-image.jpg")
        let scanned = try tree.scan()
        #expect(scanned.rejected == 2 && scanned.rejectedBefore == 0)
        let first = try tree.library.database.rejectedFiles()
        Thread.sleep(forTimeInterval: 0.01)
        let again = try tree.scan()
        // Rejected still, and known to be: a daemon's totals do not count them twice.
        #expect(again.rejected == 2 && again.rejectedBefore == 2 && again.ingested == 0, "\(again)")
        // A file read again is rejected anew, at a later date.
        #expect(try tree.library.database.rejectedFiles() == first, "the rejected files were read again")
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aFileStillBeingWrittenIsLeftForLater() throws {
        let tree = try Tree()
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "done.jpg")
        let content = try Data(contentsOf: try #require(Corpus.file("Camera/2008/Death Valley/FurnaceCreekInn.jpg")))
        let growing = tree.root.appendingPathComponent("growing.jpg")
        _ = FileManager.default.createFile(atPath: growing.path, contents: content.prefix(1024))
        // Write the rest slowly, for longer than the scan waits for files to settle.
        let writer = Thread {
            let handle = try! FileHandle(forWritingTo: growing)
            let chunks = 64
            let step = (content.count - 1024 + chunks - 1) / chunks
            for offset in stride(from: 1024, to: content.count, by: step) {
                Thread.sleep(forTimeInterval: 0.07)
                handle.seekToEndOfFile()
                handle.write(content[offset..<min(offset + step, content.count)])
            }
            try! handle.close()
        }
        writer.start()
        let report = try tree.scan()
        #expect(report.stillChanging == [growing.path], "\(report)")
        #expect(report.rejected == 0 && report.ingested == 1)
        #expect(tree.asset(at: "growing.jpg") == nil)
        while writer.isExecuting || !writer.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.6)
        let later = try tree.scan()
        #expect(later.ingested == 1 && later.stillChanging.isEmpty, "\(later)")
        #expect(tree.asset(at: "growing.jpg")?.pixelWidth == 400)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func scanningSomeDirectoriesKeepsIdentityAndAlbums() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "a/one.jpg")
        try tree.copy("Camera/2002/Fujifilm/DSCF0001.JPG", to: "b/two.jpg")
        try tree.scan()
        let one = try #require(tree.asset(at: "a/one.jpg"))
        let albumB = try #require(tree.album(at: "b"))
        let scanner = FolderScanner(database: tree.library.database)
        let a = tree.root.appendingPathComponent("a").path
        let b = tree.root.appendingPathComponent("b").path

        // A file moved between two directories, and a new one: only those directories are read.
        try FileManager.default.moveItem(
            at: tree.root.appendingPathComponent("a/one.jpg"), to: tree.root.appendingPathComponent("b/one.jpg"))
        try tree.copy("Camera/1997/Ricoh/RIMG0001.JPG", to: "b/three.jpg")
        Thread.sleep(forTimeInterval: 0.6)  // Let the new file settle.
        var report = try scanner.scan(root: tree.root.path, directories: [a, b])
        #expect(report.moved == 1 && report.ingested == 1 && report.seen == 3, "\(report)")
        #expect(tree.asset(at: "b/one.jpg")?.localIdentifier == one.localIdentifier)
        #expect(tree.album(at: "a") == nil, "a directory that lost its last photo loses its album")
        let b2 = try #require(tree.album(at: "b"))
        #expect(b2.localIdentifier == albumB.localIdentifier && b2.estimatedAssetCount == 3)

        // Nothing changed: nothing read, nothing written.
        let token = try tree.library.database.currentToken()
        report = try scanner.scan(root: tree.root.path, directories: [b])
        #expect(report.unchanged == 3 && report.ingested == 0)
        #expect(try tree.library.database.currentToken() == token)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func ignoredNamesAndMarkerDirectoriesAreSkipped() throws {
        let tree = try Tree()
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "keep/a.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "keep/.hidden.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "keep/b.jpg.part")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: ".cache/c.jpg")
        try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "private/d.jpg")
        _ = FileManager.default.createFile(
            atPath: tree.root.appendingPathComponent("private/.nomedia").path, contents: Data())
        let report = try tree.scan()
        #expect(report.seen == 1 && report.ingested == 1, "\(report)")
    }

    /// A scan asked to stop (photosd stopping in the middle of a startup crawl) stops at its next
    /// batch, keeping what it committed and taking nothing away; the next scan finishes the job.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func aScanAskedToStopKeepsItsBatchesAndTheNextOneFinishes() throws {
        let tree = try Tree()
        for folder in 0..<6 {
            for photo in 0..<10 {
                try tree.copy("Camera/2008/Death Valley/FurnaceCreekInn.jpg", to: "day\(folder)/IMG_\(photo).jpg")
            }
        }
        let scanner = FolderScanner(database: tree.library.database, batchSize: 5, quietTime: 0)
        #expect(throws: ScanStopped.self) {
            try scanner.scan(roots: [tree.root.path]) { progress in
                if progress.ingested > 0 { scanner.requestStop() }
            }
        }
        let kept = PHAsset.fetchAssets(with: tree.options).count
        #expect(kept > 0 && kept < 60, "\(kept) assets after the stop")

        let report = try FolderScanner(database: tree.library.database, quietTime: 0).scan(roots: [tree.root.path])
        #expect(report.ingested == 60 - kept && report.removed == 0, "\(report)")
        #expect(PHAsset.fetchAssets(with: tree.options).count == 60)
    }
}

/// A temporary directory tree scanned into a temporary library.
final class Tree {
    let directory: TemporaryDirectory
    let library: PHPhotoLibrary
    var root: URL { directory.path("Pictures") }
    var options: PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    init() throws {
        directory = try TemporaryDirectory(prefix: "photos-scan")
        try FileManager.default.createDirectory(at: directory.path("Pictures"), withIntermediateDirectories: true)
        library = try PHPhotoLibrary(url: directory.path("library.sqlite"))
    }

    func copy(_ corpusPath: String, to relative: String) throws {
        let destination = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try #require(Corpus.file(corpusPath)), to: destination)
    }

    @discardableResult
    func scan() throws -> ScanReport {
        try FolderScanner(database: library.database).scan(roots: [root.path])
    }

    private func path(_ relative: String) -> String {
        relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
    }

    func folder(at relative: String) -> PHCollectionList? {
        PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: options)
            .first { $0.directoryPath == path(relative) }
    }

    func album(at relative: String) -> PHAssetCollection? {
        PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            .first { $0.directoryPath == path(relative) }
    }

    func asset(at relative: String) -> PHAsset? {
        let options = self.options
        options.includeHiddenAssets = true
        return PHAsset.fetchAssets(with: options).first { asset in
            PHAssetResource.assetResources(for: asset).contains { $0.fileURL.path == path(relative) }
        }
    }
}
