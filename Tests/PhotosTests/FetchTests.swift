import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite struct FetchTests {
    let fixture: LibraryFixture

    init() throws {
        fixture = try LibraryFixture()
    }

    @Test func defaultFetchExcludesHiddenAssetsAndCollapsesBursts() {
        let names = fixture.names(PHAsset.fetchAssets(with: fixture.options()))
        #expect(!names.contains("secret.jpg"))
        #expect(names.contains("burst1.jpg"), "the representative stands for its burst")
        #expect(!names.contains("burst2.jpg"), "other members are collapsed")
        #expect(names.contains("burst3.jpg"), "a user pick stays visible")
        #expect(names.count == 10)
    }

    @Test func defaultOrderIsDateTakenWithUndatedFirst() {
        let names = fixture.names(PHAsset.fetchAssets(with: fixture.options()))
        #expect(
            names == [
                "anim.gif", "pano.jpg", "beach.jpg", "sunset.heic", "screen.png", "burst1.jpg", "burst3.jpg",
                "live.heic", "movie.mov", "slomo.mov",
            ])
    }

    @Test func fetchOptionsHavePhotoKitDefaults() {
        let options = PHFetchOptions()
        #expect(options.fetchLimit == 0)
        #expect(options.includeHiddenAssets == false)
        #expect(options.includeAllBurstAssets == false)
        #expect(options.wantsIncrementalChangeDetails == true)
        #expect(options.includeAssetSourceTypes == .typeUserLibrary)
        #expect(options.predicate == nil && options.sortDescriptors == nil)
    }

    /// `copy()` (NSCopying) gives options that fetch the same, and change alone.
    @Test func copiedOptionsFetchTheSameAndChangeAlone() throws {
        let original = fixture.options {
            $0.predicate = NSPredicate(format: "mediaType == %d", PHAssetMediaType.image.rawValue)
            $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            $0.fetchLimit = 4
            $0.includeHiddenAssets = true
            $0.includeAllBurstAssets = true
            $0.wantsIncrementalChangeDetails = false
        }
        let copy = try #require(original.copy() as? PHFetchOptions)
        #expect(copy !== original)
        #expect(fixture.names(PHAsset.fetchAssets(with: copy)) == fixture.names(PHAsset.fetchAssets(with: original)))
        #expect(copy.fetchLimit == 4 && copy.includeHiddenAssets && copy.includeAllBurstAssets)
        #expect(!copy.wantsIncrementalChangeDetails && copy.photoLibrary === original.photoLibrary)
        copy.fetchLimit = 1
        copy.includeHiddenAssets = false
        #expect(original.fetchLimit == 4 && original.includeHiddenAssets, "the original is as it was")
        #expect(PHAsset.fetchAssets(with: copy).count == 1)
        #expect(try #require(PHFetchOptions().copy(with: nil) as? PHFetchOptions).fetchLimit == 0)
    }

    @Test func includeOptionsBringBackHiddenAndBurstMembers() {
        let all = PHAsset.fetchAssets(
            with: fixture.options {
                $0.includeHiddenAssets = true
                $0.includeAllBurstAssets = true
            })
        #expect(all.count == 12)
    }

    @Test func fetchByMediaType() {
        #expect(
            fixture.names(PHAsset.fetchAssets(with: .video, options: fixture.options())) == ["movie.mov", "slomo.mov"])
        #expect(PHAsset.fetchAssets(with: .image, options: fixture.options()).count == 8)
        #expect(PHAsset.fetchAssets(with: .audio, options: fixture.options()).isEmpty)
    }

    @Test func sortAndLimit() {
        let result = PHAsset.fetchAssets(
            with: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                $0.fetchLimit = 3
            })
        #expect(fixture.names(result) == ["slomo.mov", "movie.mov", "live.heic"])
        let bySize = PHAsset.fetchAssets(
            with: fixture.options {
                $0.sortDescriptors = [
                    NSSortDescriptor(key: "mediaType", ascending: false),
                    NSSortDescriptor(key: "pixelWidth", ascending: true),
                ]
            })
        #expect(fixture.names(bySize).prefix(3) == ["slomo.mov", "movie.mov", "anim.gif"])
    }

    @Test func fetchByLocalIdentifiersSkipsUnknownOnes() {
        let ids = [fixture.assets["beach.jpg"]!, "nope/L0/001", fixture.assets["movie.mov"]!]
        let result = PHAsset.fetchAssets(withLocalIdentifiers: ids, options: fixture.options())
        #expect(Set(fixture.names(result)) == ["beach.jpg", "movie.mov"])
    }

    @Test func fetchByBurstIdentifierReturnsEveryMember() {
        let result = PHAsset.fetchAssets(withBurstIdentifier: "B1", options: fixture.options())
        #expect(fixture.names(result) == ["burst1.jpg", "burst2.jpg", "burst3.jpg"])
        #expect(result.firstObject?.representsBurst == true)
        #expect(result[2].burstSelectionTypes == .userPick)
    }

    @Test func assetPropertiesComeFromTheRecord() throws {
        let beach = fixture.asset("beach.jpg")
        #expect(beach.mediaType == .image)
        #expect(beach.pixelWidth == 4000 && beach.pixelHeight == 3000)
        #expect(beach.isFavorite && !beach.isHidden)
        #expect(beach.creationDate == ISO8601DateFormatter().date(from: "2020-01-01T10:00:00Z"))
        let location = try #require(beach.location)
        #expect(location.coordinate.latitude == 43.55 && location.coordinate.longitude == 7.01)
        #expect(beach.playbackStyle == .image)
        #expect(fixture.asset("live.heic").playbackStyle == .livePhoto)
        #expect(fixture.asset("anim.gif").playbackStyle == .imageAnimated)
        #expect(fixture.asset("movie.mov").playbackStyle == .video)
        #expect(fixture.asset("movie.mov").duration == 12.5)
        #expect(beach.canPerform(.properties) && beach.canPerform(.delete) && beach.canPerform(.content))
        #expect(PHAssetResource.assetResources(for: beach).map(\.originalFilename) == ["beach.jpg"])
    }

    @Test func fetchResultIsARandomAccessCollection() {
        let result = PHAsset.fetchAssets(with: fixture.options())
        #expect(result.count == 10)
        #expect(result.firstObject == result[0])
        #expect(result.lastObject == result[9])
        let pano = fixture.asset("pano.jpg")
        #expect(result.contains(pano))
        #expect(result.index(of: pano) == 1)
        #expect(result.index(of: fixture.asset("secret.jpg")) == NSNotFound)
        #expect(
            result.objects(at: IndexSet([0, 2])).map(\.localIdentifier)
                == [result[0], result[2]].map(\.localIdentifier))
        var seen: [Int] = []
        result.enumerateObjects { _, index, stop in
            seen.append(index)
            if index == 3 { stop.pointee = true }
        }
        #expect(seen == [0, 1, 2, 3])
        var reversed: [Int] = []
        result.enumerateObjects(options: .reverse) { _, index, _ in reversed.append(index) }
        #expect(reversed == Array((0..<10).reversed()))
        #expect(result.countOfAssets(with: .video) == 2)
        #expect(Array(result.reversed()).count == 10)
    }

    @Test func fetchResultIsASnapshot() throws {
        let before = PHAsset.fetchAssets(with: fixture.options())
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([fixture.asset("beach.jpg")] as NSArray)
        }
        #expect(before.count == 10)
        #expect(fixture.names(before).contains("beach.jpg"), "the deleted asset is still served by the old result")
        #expect(before[2].isFavorite && before[2].pixelWidth == 4000)
        #expect(PHAsset.fetchAssets(with: fixture.options()).count == 9)
    }

    // MARK: Collections

    @Test func userAlbumsInTheirOwnOrder() throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        #expect(trip.assetCollectionType == .album && trip.assetCollectionSubtype == .albumRegular)
        #expect(trip.estimatedAssetCount == 3)
        #expect(trip.startDate == fixture.asset("pano.jpg").creationDate)
        #expect(trip.endDate == fixture.asset("movie.mov").creationDate)
        #expect(trip.canContainAssets && !trip.canContainCollections)
        #expect(
            fixture.names(PHAsset.fetchAssets(in: trip, options: fixture.options())) == [
                "beach.jpg", "pano.jpg", "movie.mov",
            ])
        let sorted = PHAsset.fetchAssets(
            in: trip,
            options: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            })
        #expect(fixture.names(sorted) == ["pano.jpg", "beach.jpg", "movie.mov"])
    }

    @Test(arguments: [
        (PHAssetCollectionSubtype.smartAlbumFavorites, ["pano.jpg", "beach.jpg", "slomo.mov"]),
        (.smartAlbumVideos, ["movie.mov", "slomo.mov"]),
        (.smartAlbumScreenshots, ["screen.png"]),
        (.smartAlbumSelfPortraits, []),
        (.smartAlbumScreenRecordings, []),
        (.smartAlbumPanoramas, ["pano.jpg"]),
        (.smartAlbumLivePhotos, ["live.heic"]),
        (.smartAlbumBursts, ["burst1.jpg", "burst3.jpg"]),
        (.smartAlbumSlomoVideos, ["slomo.mov"]),
        (.smartAlbumTimelapses, []),
        (.smartAlbumAnimated, ["anim.gif"]),
        (.smartAlbumRAW, []),
        (.smartAlbumAllHidden, ["secret.jpg"]),
    ])
    func smartAlbumsSelectByRule(subtype: PHAssetCollectionSubtype, expected: [String]) throws {
        let album = try #require(
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: fixture.options())
                .firstObject)
        #expect(album.assetCollectionSubtype == subtype)
        #expect(album.estimatedAssetCount == NSNotFound, "PhotoKit does not count smart albums up front")
        #expect(!album.canPerform(.addContent) && !album.canPerform(.rename) && !album.canPerform(.delete))
        #expect(fixture.names(PHAsset.fetchAssets(in: album, options: fixture.options())) == expected)
    }

    @Test func recentsAndRecentlyAddedHoldTheVisibleLibrary() throws {
        let recents = try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: fixture.options()
            ).firstObject)
        #expect(recents.localizedTitle == "Recents")
        #expect(PHAsset.fetchAssets(in: recents, options: fixture.options()).count == 10)
        let smart = PHAssetCollection.fetchAssetCollections(
            with: .smartAlbum, subtype: .any, options: fixture.options())
        #expect(smart.count == 18)
    }

    @Test func collectionFetches() throws {
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: fixture.options())
        #expect(Set(albums.map { $0.localizedTitle ?? "" }) == ["Trip", "Winter"])
        let regular = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .albumRegular, options: fixture.options())
        #expect(regular.count == 2)
        let containing = PHAssetCollection.fetchAssetCollectionsContaining(
            fixture.asset("beach.jpg"), with: .album, options: fixture.options())
        #expect(containing.map(\.localizedTitle) == ["Trip"])
        let smartContaining = PHAssetCollection.fetchAssetCollectionsContaining(
            fixture.asset("beach.jpg"), with: .smartAlbum, options: fixture.options())
        // The fixture's assets were added in 2023, so they are not recently added.
        #expect(Set(smartContaining.map(\.assetCollectionSubtype)) == [.smartAlbumUserLibrary, .smartAlbumFavorites])
        // The options apply to the smart albums too: predicate, sort, limit.
        let favoritesOnly = PHAssetCollection.fetchAssetCollectionsContaining(
            fixture.asset("beach.jpg"), with: .smartAlbum,
            options: fixture.options { $0.predicate = NSPredicate(format: "localizedTitle == %@", "Favorites") })
        #expect(favoritesOnly.map(\.assetCollectionSubtype) == [.smartAlbumFavorites])
        let firstByTitle = PHAssetCollection.fetchAssetCollectionsContaining(
            fixture.asset("beach.jpg"), with: .smartAlbum,
            options: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)]
                $0.fetchLimit = 1
            })
        #expect(firstByTitle.map(\.localizedTitle) == ["Favorites"])
        let byIdentifier = PHAssetCollection.fetchAssetCollections(
            withLocalIdentifiers: [fixture.collections["Winter"]!, fixture.collections["2020"]!],
            options: fixture.options())
        #expect(byIdentifier.map(\.localizedTitle) == ["Winter"], "a folder is not an asset collection")
    }

    @Test func foldersAndTopLevelCollections() throws {
        let folders = PHCollectionList.fetchCollectionLists(
            with: .folder, subtype: .regularFolder, options: fixture.options())
        let folder = try #require(folders.firstObject)
        #expect(folder.localizedTitle == "2020" && folder.canContainCollections && !folder.canContainAssets)
        #expect(folder.startDate == fixture.asset("sunset.heic").creationDate)
        let children = PHCollection.fetchCollections(in: folder, options: fixture.options())
        #expect(children.map(\.localizedTitle) == ["Winter"])
        #expect(children.firstObject is PHAssetCollection)
        let top = PHCollection.fetchTopLevelUserCollections(with: fixture.options())
        #expect(top.map(\.localizedTitle) == ["Trip", "2020"])
        let winter: PHAssetCollection = fixture.collection("Winter")
        #expect(
            PHCollectionList.fetchCollectionListsContaining(winter, options: fixture.options()).map(\.localizedTitle)
                == ["2020"])
        let sortedTop = PHCollection.fetchTopLevelUserCollections(
            with: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)]
            })
        #expect(sortedTop.map(\.localizedTitle) == ["2020", "Trip"])
    }

    @Test func collectionPredicates() {
        let trips = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any,
            options: fixture.options {
                $0.predicate = NSPredicate(format: "title == %@", "Trip")
            })
        #expect(trips.map(\.localizedTitle) == ["Trip"])
        let big = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any,
            options: fixture.options {
                $0.predicate = NSPredicate(format: "estimatedAssetCount > 1")
            })
        #expect(big.map(\.localizedTitle) == ["Trip"])
        // Sorted and filtered by the figures the library keeps: Winter (sunset, 2020-06-01) starts
        // after Trip (pano 2019, beach 2020-01-01, movie).
        let byStart = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any,
            options: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "startDate", ascending: false)]
            })
        #expect(byStart.map(\.localizedTitle) == ["Winter", "Trip"])
        let byCount = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any,
            options: fixture.options {
                $0.sortDescriptors = [NSSortDescriptor(key: "estimatedAssetCount", ascending: true)]
            })
        #expect(byCount.map(\.localizedTitle) == ["Winter", "Trip"])
        // Trip ends in 2022 (movie), Winter on 2020-06-01.
        let endedBy2021 = PHAssetCollection.fetchAssetCollections(
            with: .album, subtype: .any,
            options: fixture.options {
                $0.predicate = NSPredicate(format: "endDate < %@", Date(timeIntervalSince1970: 1_609_459_200) as NSDate)
            })
        #expect(endedBy2021.map(\.localizedTitle) == ["Winter"])
        let started = PHCollectionList.fetchCollectionLists(
            with: .folder, subtype: .any,
            options: fixture.options {
                $0.predicate = NSPredicate(format: "localizedTitle BEGINSWITH '20'")
            })
        #expect(started.count == 1)
    }

    @Test func keyAssetsAndTransientCollections() throws {
        let trip: PHAssetCollection = fixture.collection("Trip")
        #expect(
            fixture.names(try #require(PHAsset.fetchKeyAssets(in: trip, options: fixture.options()))) == ["beach.jpg"])
        let transient = PHAssetCollection.transientAssetCollection(
            with: [fixture.asset("movie.mov"), fixture.asset("pano.jpg")], title: "Picked")
        #expect(transient.localizedTitle == "Picked" && transient.estimatedAssetCount == 2)
        #expect(
            fixture.names(PHAsset.fetchAssets(in: transient, options: fixture.options())) == ["movie.mov", "pano.jpg"])
        #expect(!transient.canPerform(.addContent) && !transient.canPerform(.rename))
    }

    /// A transient album's assets are fetched with the options, as any album's: predicate, sort,
    /// limit and hidden assets; in the order given unless sorted.
    @Test func transientAlbumsHonourTheOptions() {
        let picked = ["slomo.mov", "secret.jpg", "beach.jpg", "movie.mov", "pano.jpg"]
        let transient = PHAssetCollection.transientAssetCollection(
            with: picked.map { fixture.asset($0) }, title: "Picked")
        // By default the hidden one is left out, and the order is the one given.
        #expect(
            fixture.names(PHAsset.fetchAssets(in: transient, options: nil)) == [
                "slomo.mov", "beach.jpg", "movie.mov", "pano.jpg",
            ])
        let all = fixture.options { $0.includeHiddenAssets = true }
        #expect(fixture.names(PHAsset.fetchAssets(in: transient, options: all)) == picked)
        let videos = fixture.options {
            $0.predicate = NSPredicate(format: "mediaType == %d", PHAssetMediaType.video.rawValue)
        }
        #expect(fixture.names(PHAsset.fetchAssets(in: transient, options: videos)) == ["slomo.mov", "movie.mov"])
        let newest = fixture.options {
            $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
            $0.fetchLimit = 2
        }
        #expect(fixture.names(PHAsset.fetchAssets(in: transient, options: newest)) == ["slomo.mov", "movie.mov"])
        let favorites = fixture.options { $0.predicate = NSPredicate(format: "favorite == YES") }
        #expect(
            fixture.names(try! #require(PHAsset.fetchKeyAssets(in: transient, options: favorites))) == ["slomo.mov"])
    }

    /// A transient folder holds the collections it was made with, fetched with the options.
    @Test func transientFoldersKeepTheirCollections() {
        let trip: PHAssetCollection = fixture.collection("Trip")
        let winter: PHAssetCollection = fixture.collection("Winter")
        let folder: PHCollectionList = fixture.collection("2020")
        let transient = PHCollectionList.transientCollectionList(with: [winter, folder, trip], title: "Mine")
        #expect(transient.localizedTitle == "Mine")
        let children = PHCollection.fetchCollections(in: transient, options: nil)
        #expect(children.map(\.localIdentifier) == [winter, folder, trip].map(\.localIdentifier))
        let titled = fixture.options { $0.sortDescriptors = [NSSortDescriptor(key: "localizedTitle", ascending: true)] }
        #expect(
            PHCollection.fetchCollections(in: transient, options: titled).map(\.localizedTitle) == [
                "2020", "Trip", "Winter",
            ])
        let one = fixture.options { $0.predicate = NSPredicate(format: "localizedTitle == %@", "Trip") }
        #expect(PHCollection.fetchCollections(in: transient, options: one).map(\.localizedTitle) == ["Trip"])

        // The same from a fetch result, in its order.
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: titled)
        let fromResult = PHCollectionList.transientCollectionList(withCollectionsFetchResult: albums, title: "Albums")
        #expect(fromResult.localizedTitle == "Albums")
        #expect(
            PHCollection.fetchCollections(in: fromResult, options: nil).map(\.localIdentifier)
                == albums.map(\.localIdentifier))
        #expect(!albums.isEmpty)
    }
}
