import Foundation
import PhotosIngest
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// "Recently Deleted" as a smart album (a Linux subtype): fetched like the others, its members are
/// the trashed assets with their kept properties, the latest deletion first, and fetch options work
/// on them as on live assets. No other fetch, count or smart album sees them.
extension RecentlyDeletedTests {
    func recentlyDeleted(_ library: PHPhotoLibrary) throws -> PHAssetCollection {
        try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: options(library)
            ).firstObject)
    }

    func identifiers(_ result: PHFetchResult<PHAsset>) -> [String] { result.map(\.localIdentifier) }

    /// The library of ``makeLibrary(write:)`` with both photos deleted: first the favorite in
    /// "Trip" (`IMG_0001`), then the other (`IMG_0002`), hidden and dated 2001 before its deletion.
    func libraryWithTwoDeleted() throws -> (PHPhotoLibrary, first: String, second: String) {
        let (library, first) = try makeLibrary()
        let other = try #require(assetAt(otherPath, in: library))
        try library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: other)
            request.isHidden = true
            request.creationDate = Date(timeIntervalSince1970: 978_307_200)
        }
        let photo = try #require(assetAt(photoPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([photo] as NSArray) }
        let hidden = try #require(assetAt(otherPath, in: library))
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([hidden] as NSArray) }
        return (library, first, other.localIdentifier)
    }

    @Test func recentlyDeletedIsASmartAlbumOfItsOwnFetchedByItsSubtypeOrIdentifierOnly() throws {
        let (library, _) = try makeLibrary()
        let album = try recentlyDeleted(library)
        #expect(album.assetCollectionSubtype.rawValue == 1_000_100)
        #expect(album.assetCollectionType == .smartAlbum)
        #expect(album.localizedTitle == "Recently Deleted")
        #expect(album.localIdentifier == SmartAlbum.album(for: .smartAlbumRecentlyDeleted)?.localIdentifier)
        #expect(album.estimatedAssetCount == 0)
        #expect(!album.canPerform(.addContent) && !album.canPerform(.rename) && !album.canPerform(.delete))
        let byIdentifier = PHAssetCollection.fetchAssetCollections(
            withLocalIdentifiers: [album.localIdentifier], options: options(library))
        #expect(byIdentifier.firstObject?.assetCollectionSubtype == .smartAlbumRecentlyDeleted)
        // Not among every smart album, nor every album: code listing them shows no deleted photo unasked.
        for type in [PHAssetCollectionType.smartAlbum, .album] {
            let all = PHAssetCollection.fetchAssetCollections(with: type, subtype: .any, options: options(library))
            #expect(!all.contains { $0.localIdentifier == album.localIdentifier }, "\(type)")
        }
        let hidden = PHAssetCollection.fetchAssetCollections(
            with: .smartAlbum, subtype: .any, options: options(library)
        ).first { $0.assetCollectionSubtype == .smartAlbumAllHidden }
        #expect(hidden != nil, "Hidden is listed, as PhotoKit lists it")
    }

    @Test func itsMembersAreTheTrashedAssetsWithTheirPropertiesLatestDeletionFirst() throws {
        let (library, first, second) = try libraryWithTwoDeleted()
        let album = try recentlyDeleted(library)
        #expect(album.estimatedAssetCount == 2)
        // Hidden or not, every deleted asset is there; the latest deletion first.
        let members = PHAsset.fetchAssets(in: album, options: nil)
        #expect(identifiers(members) == [second, first])
        #expect(members.count == 2)
        let photo = try #require(members.object(at: 1) as PHAsset?)
        #expect(photo.isFavorite && !photo.isHidden)
        #expect(photo.mediaType == .image && photo.pixelWidth > 0)
        let other = members.object(at: 0)
        #expect(other.isHidden && other.creationDate == Date(timeIntervalSince1970: 978_307_200))
        #expect(try library.trashedAssets().map(\.localIdentifier) == [first, second])
        // A deleted asset is not edited: the change names an asset the library does not have.
        let refused = #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: photo).isFavorite = false }
        }
        #expect(refused?.code == .identifierNotFound)

        // Fetch options apply as to live assets: predicates, sort descriptors, limits, media types.
        func fetch(_ configure: (PHFetchOptions) -> Void) -> [String] {
            let options = options(library)
            configure(options)
            return identifiers(PHAsset.fetchAssets(in: album, options: options))
        }
        #expect(fetch { $0.predicate = NSPredicate(format: "favorite == YES") } == [first])
        #expect(fetch { $0.predicate = NSPredicate(format: "filename == %@", "IMG_0002.JPG") } == [second])
        #expect(fetch { $0.predicate = NSPredicate(format: "filename BEGINSWITH %@", "IMG_") } == [second, first])
        // The files' ownership too: these are the scanner's finds, not placed by the library.
        #expect(fetch { $0.predicate = NSPredicate(format: "isLibraryOwned == NO") } == [second, first])
        #expect(fetch { $0.predicate = NSPredicate(format: "isLibraryOwned == YES") } == [])
        #expect(
            fetch { $0.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)] } == [first, second])
        #expect(fetch { $0.sortDescriptors = [NSSortDescriptor(key: "filename", ascending: true)] } == [first, second])
        #expect(fetch { $0.fetchLimit = 1 } == [second])
        #expect(fetch { $0.predicate = NSPredicate(format: "mediaType == %d", PHAssetMediaType.video.rawValue) } == [])
        #expect(PHAsset.fetchKeyAssets(in: album, options: nil)?.firstObject?.localIdentifier == second)
    }

    @Test func trashedAssetsStayOutOfEveryOtherFetchCountAndSmartAlbum() throws {
        let (library, first, second) = try libraryWithTwoDeleted()
        #expect(PHAsset.fetchAssets(with: options(library)).count == 0)
        #expect(PHAsset.fetchAssets(with: .image, options: options(library)).count == 0)
        #expect(PHAsset.fetchAssets(withLocalIdentifiers: [first, second], options: options(library)).count == 0)
        #expect(PHAsset.fetchAssets(in: try album(library), options: options(library)).count == 0)
        #expect(try album(library).estimatedAssetCount == 0)
        let smart = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: options(library))
        #expect(smart.count > 10)
        for album in smart {
            #expect(PHAsset.fetchAssets(in: album, options: options(library)).count == 0, "\(album.localizedTitle!)")
        }
    }

    @Test func aRestoredAssetLeavesRecentlyDeletedAndComesBackToTheLibrary() throws {
        let (library, first, second) = try libraryWithTwoDeleted()
        let album = try recentlyDeleted(library)
        let before = PHAsset.fetchAssets(in: album, options: nil)
        let token = try library.database.currentToken()
        try library.restoreTrashedAssets([first])
        #expect(identifiers(PHAsset.fetchAssets(in: album, options: nil)) == [second])
        #expect(try recentlyDeleted(library).estimatedAssetCount == 1)
        #expect(identifiers(PHAsset.fetchAssets(with: options(library))) == [first])
        // A result fetched before is a snapshot; its change details say the asset left.
        let entry = try #require(try library.database.changes(after: token).last)
        let details = try #require(PHChange(entry: entry, library: library).changeDetails(for: before))
        #expect(identifiers(details.fetchResultAfterChanges) == [second])
        #expect(details.removedIndexes == IndexSet(integer: 1))
        // And erased for good, it leaves Recently Deleted too.
        try library.eraseTrashedAssets(try library.trashedAssets())
        #expect(PHAsset.fetchAssets(in: album, options: nil).count == 0)
        #expect(try recentlyDeleted(library).estimatedAssetCount == 0)
    }
}
