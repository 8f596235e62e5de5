import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `PHPersistentChangeToken` kept as PhotoKit apps keep it: `NSKeyedArchiver` with secure coding.
@Suite struct ChangeTokenArchivingTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "token-archiving")
    }

    func makeAlbum(_ title: String, in library: PHPhotoLibrary) throws {
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
        }
    }

    @Test func anArchivedTokenWorksWithTheLibraryOpenedAgain() throws {
        let url = directory.path("library.sqlite")
        var archived = Data()
        var token: PHPersistentChangeToken?
        do {
            let library = try PHPhotoLibrary(url: url)
            try makeAlbum("Before", in: library)
            token = library.currentChangeToken
            archived = try NSKeyedArchiver.archivedData(
                withRootObject: try #require(token), requiringSecureCoding: true)
            try makeAlbum("After", in: library)
        }
        // The library instance is gone; another opens the same file, as a later run would.
        let reopened = try PHPhotoLibrary(url: url)
        let unarchived = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
        #expect(unarchived == token)
        #expect(unarchived.hash == token?.hash)
        let changes = Array(try reopened.fetchPersistentChanges(since: unarchived))
        #expect(changes.count == 1)
        let inserted = try #require(changes.first).changeDetails(for: .assetCollection).insertedLocalIdentifiers
        let options = PHFetchOptions()
        options.photoLibrary = reopened
        let after = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: Array(inserted), options: options)
        #expect(after.firstObject?.localizedTitle == "After")
    }

    @Test func aTokenOfAnotherLibraryIsRefusedAsExpired() throws {
        let first = try PHPhotoLibrary(url: directory.path("first.sqlite"))
        let second = try PHPhotoLibrary(url: directory.path("second.sqlite"))
        try makeAlbum("One", in: first)
        let archived = try NSKeyedArchiver.archivedData(
            withRootObject: first.currentChangeToken, requiringSecureCoding: true)
        let token = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
        do {
            _ = try second.fetchPersistentChanges(since: token)
            Issue.record("another library's token was accepted")
        } catch PHPhotosError.persistentChangeTokenExpired {
        }
    }

    @Test func anArchiveOfSomethingElseIsNoToken() throws {
        let archived = try NSKeyedArchiver.archivedData(
            withRootObject: "not a token" as NSString, requiringSecureCoding: true)
        // Foundation throws or answers nil, depending on the platform: never a token.
        let token = try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived)
        #expect(token == nil)
    }

    @Test func codableStillRoundTrips() throws {
        let library = try PHPhotoLibrary(url: directory.path("codable.sqlite"))
        try makeAlbum("A", in: library)
        let token = library.currentChangeToken
        let decoded = try JSONDecoder().decode(PHPersistentChangeToken.self, from: JSONEncoder().encode(token))
        #expect(decoded == token)
        #expect(PHPersistentChangeToken(dataRepresentation: token.dataRepresentation) == token)
    }
}
