import Dispatch
import Foundation
import Photos
import PhotosTestSupport
import Testing

/// The programs of PhotoKitPrograms.swift run against copies of corpus files scanned into a
/// library, their results held to the library and to the corpus files' bytes.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PhotoKitProgramTests {
    static let exportFiles = [
        "Phone/DCIM/100APPLE/IMG_0004.JPG", "Phone/DCIM/100APPLE/IMG_0420.MOV", "Phone/DCIM/100APPLE/IMG_0815.HEIC",
        "Phone/DCIM/100APPLE/IMG_5195.HEIC", "Phone/DCIM/100APPLE/IMG_5195.MOV", "Camera/2021/Norway/aurora.jpg",
        "Camera/2008/Road trip/DSCN0010.jpg", "Camera/2002/Fujifilm/DSCF0001.JPG",
        "Phone/DCIM/Camera/PXL_20231101_151117000.jpg", "Camera/2021/Trip to Provence/fin de journée.jpg",
    ]
    static let reviewFiles = [
        "Phone/DCIM/100APPLE/IMG_0004.JPG", "Phone/DCIM/100APPLE/IMG_6100.JPG", "Camera/2008/Road trip/DSCN0010.jpg",
        "Camera/2008/Road trip/DSCN0012.jpg",
    ]
    static let syncFiles = [
        "Phone/DCIM/100APPLE/IMG_0004.JPG", "Phone/DCIM/100APPLE/IMG_0815.HEIC", "Camera/2021/Norway/aurora.jpg",
        "Phone/DCIM/100APPLE/IMG_0420.MOV",
    ]

    static func all(_ library: PHPhotoLibrary) -> [PHAsset] {
        let options = PHFetchOptions()
        options.photoLibrary = library
        options.includeHiddenAssets = true
        return Array(PHAsset.fetchAssets(with: options))
    }

    @Test func theExporterWritesEachOriginalByYearAndMonthWithASidecarThatDescribesItsAsset() async throws {
        let corpus = try await offPool { try CorpusLibrary(files: Self.exportFiles) }
        let everything = Self.all(corpus.library)
        let favorite = try #require(everything.first { $0.creationDate?.description.hasPrefix("2021") == true })
        try await offPool {
            try corpus.library.performChangesAndWait { PHAssetChangeRequest(for: favorite).isFavorite = true }
        }

        let start = try #require(ISO8601DateFormatter().date(from: "2005-01-01T00:00:00Z"))
        let end = try #require(ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z"))
        let destination = corpus.directory.path("Export")
        let exporter = PhotoArchiveExporter(library: corpus.library, destination: destination)
        let exported = try await offPool { try exporter.export(takenFrom: start, to: end) }
        #expect(exporter.failures.isEmpty, "\(exporter.failures)")

        // The predicate and the sort, checked against every asset of the library.
        let expected = Self.all(corpus.library)
            .filter { ($0.creationDate.map { $0 >= start && $0 < end }) ?? false }
            .sorted { $0.creationDate! < $1.creationDate! }
        #expect(expected.count >= 6 && expected.count < everything.count, "the range must take some and leave some")
        #expect(exported.map(\.localIdentifier) == expected.map(\.localIdentifier))

        let month = DateFormatter()
        month.dateFormat = "yyyy/MM"
        month.timeZone = TimeZone(identifier: "UTC")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        for (asset, export) in zip(expected, exported) {
            #expect(
                export.folder.path == destination.appendingPathComponent(month.string(from: asset.creationDate!)).path)
            let originals = PHAssetResource.assetResources(for: asset).filter { $0.type != .adjustmentData }
            #expect(export.files.count == originals.count && !originals.isEmpty)
            var size: Int64 = 0
            for (resource, file) in zip(originals, export.files) {
                let source = try #require(corpus.original(of: resource))
                #expect(file.lastPathComponent == source.lastPathComponent)
                #expect(try Data(contentsOf: file) == Data(contentsOf: source), "\(file.lastPathComponent)")
                size += try #require(FileManager.default.attributesOfItem(atPath: source.path)[.size] as? NSNumber)
                    .int64Value
            }
            let sidecar = try decoder.decode(PhotoArchiveExporter.Sidecar.self, from: Data(contentsOf: export.sidecar))
            #expect(sidecar.localIdentifier == asset.localIdentifier)
            #expect(sidecar.mediaType == asset.mediaType.rawValue)
            // ISO 8601 in whole seconds.
            let written = try #require(sidecar.creationDate)
            #expect(abs(written.timeIntervalSince(asset.creationDate!)) < 1)
            #expect(sidecar.favorite == asset.isFavorite)
            #expect(sidecar.fileSize == size)
            #expect(sidecar.files == export.files.map(\.lastPathComponent))
            #expect(sidecar.location?.latitude == asset.location?.coordinate.latitude)
            #expect(sidecar.location?.longitude == asset.location?.coordinate.longitude)
        }
        // What truth.json says of two of them: the live photo's pair in one folder, Berlin's position.
        let live = try #require(
            exported.first { $0.files.map(\.lastPathComponent) == ["IMG_5195.HEIC", "IMG_5195.MOV"] })
        #expect(live.folder.path.hasSuffix("2021/04"))
        let berlin = try #require(exported.first { $0.files.map(\.lastPathComponent) == ["IMG_0815.HEIC"] })
        let berlinSidecar = try decoder.decode(
            PhotoArchiveExporter.Sidecar.self, from: Data(contentsOf: berlin.sidecar))
        #expect(abs((berlinSidecar.location?.latitude ?? 0) - 52.4596056) < 1e-4)
        #expect(abs((berlinSidecar.location?.longitude ?? 0) - 13.3218417) < 1e-4)
        let favorites = try exported.filter {
            try decoder.decode(PhotoArchiveExporter.Sidecar.self, from: Data(contentsOf: $0.sidecar)).favorite
        }
        #expect(favorites.map(\.localIdentifier) == [favorite.localIdentifier])
    }

    @Test func theReviewerMovesAssetsBetweenAlbumsAndSeesEachMoveInItsFetchResults() async throws {
        let corpus = try await offPool { try CorpusLibrary(files: Self.reviewFiles) }
        let options = corpus.options
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let photos = Array(PHAsset.fetchAssets(with: .image, options: options))
        try #require(photos.count == 4)
        let ids = photos.map(\.localIdentifier)
        let reviewer = AlbumReviewer(library: corpus.library)
        // The scan made albums of the copies' directories; the reviewer's own are not there yet.
        #expect(reviewer.album("To Review") == nil && reviewer.album("Keep") == nil)

        let created = try await offPool { try reviewer.setUp(reviewing: photos) }
        try await waitForNotice(reviewer)
        #expect(Set(reviewer.notices.last?.albumsInserted ?? []) == ["To Review", "Keep", "Reject"])
        #expect(reviewer.identifiers(in: "To Review") == ids)
        for (title, identifier) in created {
            let album = PHAssetCollection.fetchAssetCollections(
                withLocalIdentifiers: [identifier], options: corpus.options)
            #expect(album.firstObject?.localizedTitle == title)
        }

        for (photo, keep) in [(photos[0], true), (photos[1], true), (photos[2], false)] {
            let committed = try await offPool { () -> Bool in
                let done = DispatchSemaphore(value: 0)
                var committed = false
                reviewer.decide(photo, keep: keep) { success, _ in
                    committed = success
                    done.signal()
                }
                done.wait()
                return committed
            }
            #expect(committed)
            try await waitForNotice(reviewer)
            let notice = try #require(reviewer.notices.last)
            let target = keep ? "Keep" : "Reject"
            #expect(notice.removed == ["To Review": [photo.localIdentifier]])
            #expect(notice.inserted == [target: [photo.localIdentifier]])
            #expect(notice.insertedIndexes[target] == IndexSet(integer: reviewer.identifiers(in: target).count - 1))
            #expect(notice.albumsInserted.isEmpty && notice.albumsRemoved.isEmpty)
        }
        #expect(reviewer.identifiers(in: "To Review") == [ids[3]])
        #expect(reviewer.identifiers(in: "Keep") == [ids[0], ids[1]])
        #expect(reviewer.identifiers(in: "Reject") == [ids[2]])

        let best = try await offPool { try reviewer.promote([photos[1]], toNewAlbum: "Best") }
        try await waitForNotice(reviewer)
        let notice = try #require(reviewer.notices.last)
        #expect(notice.albumsInserted == ["Best"])
        #expect(notice.removed == ["Keep": [ids[1]]])
        #expect(reviewer.identifiers(in: "Best") == [ids[1]])
        #expect(reviewer.album("Best")?.localIdentifier == best)

        try await offPool { try reviewer.rename("Reject", to: "Rejected") }
        try await waitForNotice(reviewer)
        let renaming = try #require(reviewer.notices.last)
        #expect(renaming.renamed == ["Reject": "Rejected"])
        #expect(renaming.albumsChanged == ["Rejected"] && renaming.removed.isEmpty && renaming.inserted.isEmpty)
        #expect(reviewer.identifiers(in: "Rejected") == [ids[2]] && reviewer.album("Reject") == nil)
        #expect(reviewer.notices.count == 6, "one notice per change block")

        // What another run of the program would find: the albums as the reviewer left them.
        let reopened = try corpus.reopen()
        let again = AlbumReviewer(library: reopened)
        for title in ["To Review", "Keep", "Rejected", "Best"] {
            #expect(again.identifiers(in: title) == reviewer.identifiers(in: title), "\(title)")
        }
    }

    @Test func theSyncLoopKeepsItsMirrorEqualToTheLibraryAcrossRunsAndReopenings() async throws {
        let suite = "photos-tests.mirror-sync.\(UUID().uuidString)"
        // Each run opens the suite anew, as a program started again would.
        func defaults() -> UserDefaults { UserDefaults(suiteName: suite)! }
        defer { defaults().removePersistentDomain(forName: suite) }
        let corpus = try await offPool { try CorpusLibrary(files: Self.syncFiles) }
        func state(_ library: PHPhotoLibrary) -> [String: LibraryMirrorSync.Entry] {
            Dictionary(
                uniqueKeysWithValues: Self.all(library).map { ($0.localIdentifier, LibraryMirrorSync.Entry($0)) })
        }

        // First run: no token yet, so everything.
        let first = try LibraryMirrorSync(defaults: defaults()).run(with: corpus.library)
        #expect(first.fullResync)
        #expect(LibraryMirrorSync(defaults: defaults()).mirror == state(corpus.library))
        #expect(LibraryMirrorSync(defaults: defaults()).mirror.count == 4)

        // Between runs: a favourite, a hidden photo, a deletion, an album, a new file scanned in.
        let assets = Self.all(corpus.library)
        let (a, b, c) = (assets[0], assets[1], assets[2])
        try await offPool {
            try corpus.library.performChangesAndWait {
                PHAssetChangeRequest(for: a).isFavorite = true
                PHAssetChangeRequest(for: b).isHidden = true
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Synced")
            }
            try corpus.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([c] as NSArray) }
        }
        try await offPool { try corpus.add(["Phone/DCIM/Camera/PXL_20231101_151117000.jpg"]) }
        let added = try #require(Set(state(corpus.library).keys).subtracting(assets.map(\.localIdentifier)).first)

        let second = try LibraryMirrorSync(defaults: defaults()).run(with: corpus.library)
        #expect(!second.fullResync && second.changes >= 3)
        #expect(second.inserted.contains(added))
        #expect(second.updated.isSuperset(of: [a.localIdentifier, b.localIdentifier]))
        let mirrored = LibraryMirrorSync(defaults: defaults()).mirror
        #expect(mirrored == state(corpus.library))
        #expect(mirrored[c.localIdentifier] == nil && mirrored[b.localIdentifier]?.hidden == true)
        #expect(mirrored[a.localIdentifier]?.favorite == true)

        // The library opened again by a later run, changed, and synced from a third opening.
        do {
            let reopened = try corpus.reopen()
            let date = try #require(ISO8601DateFormatter().date(from: "2020-02-02T12:00:00Z"))
            let newAsset = try #require(Self.all(reopened).first { $0.localIdentifier == added })
            try await offPool {
                try reopened.performChangesAndWait {
                    PHAssetChangeRequest(for: a).isFavorite = false
                    PHAssetChangeRequest(for: newAsset).creationDate = date
                    PHAssetChangeRequest(for: b).location = CLLocation(latitude: 48.8566, longitude: 2.3522)
                }
            }
        }
        let third = try corpus.reopen()
        let sync = LibraryMirrorSync(defaults: defaults())
        let report = try sync.run(with: third)
        #expect(!report.fullResync && report.changes == 1)
        #expect(report.updated == [a.localIdentifier, added, b.localIdentifier])
        #expect(sync.mirror == state(third))
        #expect(sync.mirror[added]?.creationDate == ISO8601DateFormatter().date(from: "2020-02-02T12:00:00Z"))
        #expect(sync.mirror[b.localIdentifier]?.latitude == 48.8566)
        #expect(sync.storedToken == third.currentChangeToken)

        // Nothing changed since: nothing to do.
        let idle = try LibraryMirrorSync(defaults: defaults()).run(with: third)
        #expect(idle == LibraryMirrorSync.Report())

        // A token another library cannot read: the program starts over from that library.
        let other = try await offPool { try CorpusLibrary(files: ["Phone/DCIM/100APPLE/IMG_3001.JPG"]) }
        let restart = LibraryMirrorSync(defaults: defaults())
        #expect(try restart.run(with: other.library).fullResync)
        #expect(restart.mirror == state(other.library))

        // Removing the suite takes the token and the mirror with it.
        defaults().removePersistentDomain(forName: suite)
        #expect(defaults().data(forKey: LibraryMirrorSync.tokenKey) == nil)
        #expect(LibraryMirrorSync(defaults: defaults()).mirror.isEmpty)
    }

    private func waitForNotice(_ reviewer: AlbumReviewer) async throws {
        let told = try await offPool { reviewer.noticed.wait(timeout: .now() + 300) == .success }
        #expect(told, "no change notification")
    }
}
