import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Property tests: random commits (the daemon inserting, an app editing, reordering, hiding,
/// deleting, changing an album) against fetch results with different predicates and sorts. For
/// each, the change details applied to the old result give a fresh fetch, and the changed
/// indexes point at the changed objects.
@Suite struct ChangeDetailsPropertyTests {
    /// The fetches observed, each made anew for comparison.
    static let fetches:
        [(name: String, fetch: @Sendable (PHPhotoLibrary, PHAssetCollection) -> PHFetchResult<PHAsset>)] = [
            ("natural order", { library, _ in PHAsset.fetchAssets(with: options(library)) }),
            (
                "newest first",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: options(library) {
                            $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                        })
                }
            ),
            (
                "favorites by date",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: options(library) {
                            $0.predicate = NSPredicate(format: "favorite == YES")
                            $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
                        })
                }
            ),
            (
                "favorites first, hidden too",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: options(library) {
                            $0.includeHiddenAssets = true
                            $0.sortDescriptors = [
                                NSSortDescriptor(key: "isFavorite", ascending: false),
                                NSSortDescriptor(key: "creationDate", ascending: true),
                            ]
                        })
                }
            ),
            (
                "wide images by width",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: .image,
                        options: options(library) {
                            $0.predicate = NSPredicate(format: "pixelWidth > %d", 2000)
                            $0.sortDescriptors = [NSSortDescriptor(key: "pixelWidth", ascending: true)]
                        })
                }
            ),
            // Every edit sets the asset's modificationDate: it moves in, out and around these.
            (
                "last modified first",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: options(library) {
                            $0.sortDescriptors = [NSSortDescriptor(key: "modificationDate", ascending: false)]
                        })
                }
            ),
            (
                "modified lately",
                { library, _ in
                    PHAsset.fetchAssets(
                        with: options(library) {
                            $0.predicate = NSPredicate(
                                format: "modificationDate > %@", Date(timeIntervalSince1970: 1_750_000_000) as NSDate)
                        })
                }
            ),
            ("album", { library, album in PHAsset.fetchAssets(in: album, options: options(library)) }),
            (
                "favorites smart album",
                { library, _ in
                    let favorites = PHAssetCollection.fetchAssetCollections(
                        with: .smartAlbum, subtype: .smartAlbumFavorites, options: options(library)
                    ).firstObject!
                    return PHAsset.fetchAssets(in: favorites, options: options(library))
                }
            ),
        ]

    static func options(_ library: PHPhotoLibrary, _ configure: (PHFetchOptions) -> Void = { _ in }) -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        configure(options)
        return options
    }

    @Test(arguments: 0..<60)
    func detailsTurnTheOldResultIntoTheNewOne(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed) &* 31 &+ 5)
        let library = try PHPhotoLibrary(inMemoryWith: .init())
        var dates: [Double] = (0..<40).map { _ in Double(Int.random(in: 0..<20, using: &random)) * 86_400 }
        try insert(count: 40, into: library, dates: &dates, random: &random)
        var albumIdentifier = ""
        try library.performChangesAndWait {
            albumIdentifier =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        let album = PHAssetCollection.fetchAssetCollections(
            withLocalIdentifiers: [albumIdentifier], options: Self.options(library)
        ).firstObject!
        var results = Self.fetches.map { $0.fetch(library, album) }

        var seen = try library.database.currentToken()
        for step in 0..<Int.random(in: 1...4, using: &random) {
            // Some commits land without anyone asking for details (an observer that kept an
            // older result): details must then cover them all.
            let commits = Int.random(in: 1...2, using: &random)
            for _ in 0..<commits {
                let all = PHAsset.fetchAssets(with: Self.options(library) { $0.includeHiddenAssets = true })
                let assets = (0..<all.count).map { all[$0] }
                let operations = Int.random(in: 1...5, using: &random)
                var kinds: [Int] = []
                for _ in 0..<operations { kinds.append(Int.random(in: 0..<7, using: &random)) }
                if kinds.contains(0) {
                    try insert(
                        count: Int.random(in: 1...3, using: &random), into: library, dates: &dates, random: &random)
                    kinds.removeAll { $0 == 0 }
                }
                guard !kinds.isEmpty, !assets.isEmpty else { continue }
                let picks = kinds.map { ($0, assets[Int.random(in: 0..<assets.count, using: &random)]) }
                let newDates = picks.map { _ in
                    Date(timeIntervalSince1970: Double(Int.random(in: 0..<20, using: &random)) * 86_400)
                }
                var deleted = Set<String>()
                try library.performChangesAndWait {
                    for ((kind, asset), date) in zip(picks, newDates) where !deleted.contains(asset.localIdentifier) {
                        switch kind {
                        case 1: PHAssetChangeRequest(for: asset).isFavorite.toggle()
                        case 2: PHAssetChangeRequest(for: asset).creationDate = date
                        case 3: PHAssetChangeRequest(for: asset).isHidden.toggle()
                        case 4:
                            PHAssetChangeRequest.deleteAssets([asset] as NSArray)
                            deleted.insert(asset.localIdentifier)
                        case 5: PHAssetCollectionChangeRequest(for: album)?.addAssets([asset] as NSArray)
                        default: PHAssetCollectionChangeRequest(for: album)?.removeAssets([asset] as NSArray)
                        }
                    }
                }
            }
            let entries = try library.database.changes(after: seen)
            guard let newest = entries.last?.token else { continue }
            seen = newest
            let change = PHChange(entry: entries.last!, library: library)
            for (index, (name, fetch)) in Self.fetches.enumerated() {
                let before = results[index]
                let fresh = fetch(library, album)
                let context = "seed \(seed), step \(step), \(name)"
                guard let details = change.changeDetails(for: before) else {
                    #expect(identifiers(before) == identifiers(fresh), "no details, yet the result changed: \(context)")
                    continue
                }
                let after = details.fetchResultAfterChanges
                #expect(identifiers(after) == identifiers(fresh), "after-result is a fresh fetch: \(context)")
                #expect(apply(details) == identifiers(fresh), "removed, inserted, moved applied: \(context)")
                // Changed indexes point at objects that stayed and were updated in these commits.
                let updated = Set(entries.flatMap(\.asset.updated))
                let old = Set(identifiers(before))
                let expectedChanged = IndexSet(
                    identifiers(after).indices.filter {
                        updated.contains(identifiers(after)[$0]) && old.contains(identifiers(after)[$0])
                    })
                #expect(details.changedIndexes == expectedChanged, "changed indexes: \(context)")
                results[index] = after
            }
        }
    }

    private func insert(count: Int, into library: PHPhotoLibrary, dates: inout [Double], random: inout SplitMix64)
        throws
    {
        var records: [AssetRecord] = []
        for _ in 0..<count {
            var record = AssetRecord(
                localIdentifier: UUID().uuidString + "/L0/001",
                mediaType: Bool.random(using: &random) ? .image : .video,
                addedDate: Date(timeIntervalSince1970: 1_700_000_000))
            record.creationDate = Double(Int.random(in: 0..<20, using: &random)) * 86_400
            record.isFavorite = Bool.random(using: &random)
            record.isHidden = Int.random(in: 0..<8, using: &random) == 0
            record.pixelWidth = [1000, 2000, 3000, 4000][Int.random(in: 0..<4, using: &random)]
            record.pixelHeight = 1000
            records.append(record)
        }
        try library.database.write { transaction in
            for record in records { _ = try transaction.insertAsset(record) }
        }
    }

    private func identifiers(_ result: PHFetchResult<PHAsset>) -> [String] {
        (0..<result.count).map { result[$0].localIdentifier }
    }

    /// The old result's identifiers with the details applied as a UIKit batch update applies them.
    private func apply(_ details: PHFetchResultChangeDetails<PHAsset>) -> [String] {
        let old = identifiers(details.fetchResultBeforeChanges)
        let new = identifiers(details.fetchResultAfterChanges)
        guard details.hasIncrementalChanges else { return new }
        var moves: [(Int, Int)] = []
        details.enumerateMoves { moves.append(($0, $1)) }
        let movedFrom = Set(moves.map(\.0))
        let removed = details.removedIndexes ?? []
        var rest = old.indices.filter { !removed.contains($0) && !movedFrom.contains($0) }.map { old[$0] }[...]
        var placed: [Int: String] = [:]
        for index in details.insertedIndexes ?? [] { placed[index] = new[index] }
        for (from, to) in moves { placed[to] = old[from] }
        var result: [String] = []
        for index in 0..<(old.count - removed.count + (details.insertedIndexes?.count ?? 0)) {
            if let element = placed[index] {
                result.append(element)
            } else if let element = rest.popFirst() {
                result.append(element)
            }
        }
        return result
    }
}
