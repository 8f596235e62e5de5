import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite struct PersistentChangeTests {
    @Test func changesSinceATokenListInsertedUpdatedDeleted() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let token = library.currentChangeToken
        let beach = fixture.asset("beach.jpg")
        let movie = fixture.asset("movie.mov")
        var album = ""
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: beach).isHidden = true
            album =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "New")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([movie] as NSArray) }

        let changes = Array(try library.fetchPersistentChanges(since: token))
        #expect(changes.count == 2)
        let first = try changes[0].changeDetails(for: .asset)
        #expect(first.updatedLocalIdentifiers == [beach.localIdentifier], "hiding is an update, not a deletion")
        #expect(first.changedProperties[beach.localIdentifier] == ["isHidden"])
        #expect(try changes[0].changeDetails(for: .assetCollection).insertedLocalIdentifiers == [album])
        let second = try changes[1].changeDetails(for: .asset)
        #expect(second.deletedLocalIdentifiers == [movie.localIdentifier])
        #expect(
            try changes[1].changeDetails(for: .assetCollection).updatedLocalIdentifiers
                == [fixture.collections["Trip"]!], "the album that held the movie changed")
        // The last change's token is the current one: nothing after it.
        #expect(changes[1].changeToken == library.currentChangeToken)
        #expect(Array(try library.fetchPersistentChanges(since: library.currentChangeToken)).isEmpty)
    }

    @Test func performChangesReturningTokenGivesTheTokenOfItsOwnCommit() async throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let before = library.currentChangeToken
        let beach = fixture.asset("beach.jpg")
        var album = ""
        let token = try await library.performChangesReturningToken {
            PHAssetChangeRequest(for: beach).isHidden = true
            album =
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "New")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        #expect(token.token == before.token + 1)
        #expect(token == library.currentChangeToken)
        let changes = Array(try library.fetchPersistentChanges(since: before))
        #expect(changes.map(\.changeToken) == [token])
        #expect(try changes[0].changeDetails(for: .assetCollection).insertedLocalIdentifiers == [album])
        // A block that changes nothing commits nothing: the current token.
        let unchanged = try await library.performChangesReturningToken {}
        #expect(unchanged == token)
    }

    @Test func aThrowingChangeBlockCommitsNothingAndRethrowsItsError() async throws {
        struct Refused: Error {}
        let fixture = try LibraryFixture()
        let library = fixture.library
        let before = library.currentChangeToken
        let beach = fixture.asset("beach.jpg")
        await #expect(throws: Refused.self) {
            _ = try await library.performChangesReturningToken {
                PHAssetChangeRequest(for: beach).isFavorite = false
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Never")
                throw Refused()
            }
        }
        #expect(library.currentChangeToken == before)
        #expect(fixture.asset("beach.jpg").isFavorite)
        // A request the library refuses at commit is a PHPhotosError, and nothing of the block lands.
        await #expect(throws: PHPhotosError.self) {
            _ = try await library.performChangesReturningToken {
                PHAssetChangeRequest(for: beach).isFavorite = false
                let folder: PHCollectionList = fixture.collection("2020")
                PHCollectionListChangeRequest(for: folder)?.addChildCollections([folder] as NSArray)
            }
        }
        #expect(library.currentChangeToken == before)
        #expect(fixture.asset("beach.jpg").isFavorite)
    }

    @Test func theHistoryKeepsItsConfiguredNumberOfChanges() throws {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.changeHistoryLimit = 3
        let library = try PHPhotoLibrary(inMemoryWith: configuration)
        let first = library.currentChangeToken
        var tokens: [PHPersistentChangeToken] = []
        for index in 0..<6 {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "album \(index)")
            }
            tokens.append(library.currentChangeToken)
        }
        #expect(throws: PHPhotosError.self) { try library.fetchPersistentChanges(since: first) }
        #expect(Array(try library.fetchPersistentChanges(since: tokens[3])).count == 2)
    }

    @Test func tokensSurviveRestartsAndSerialization() throws {
        let fixture = try LibraryFixture()
        let saved = fixture.library.currentChangeToken.dataRepresentation
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset("pano.jpg")).isFavorite = false
        }
        let reopened = try PHPhotoLibrary(url: fixture.libraryURL)
        let token = try #require(PHPersistentChangeToken(dataRepresentation: saved))
        let changes = Array(try reopened.fetchPersistentChanges(since: token))
        #expect(changes.count == 1)
        #expect(try changes[0].changeDetails(for: .asset).updatedLocalIdentifiers == [fixture.assets["pano.jpg"]!])
        #expect(PHPersistentChangeToken(dataRepresentation: Data("junk".utf8)) == nil)
    }

    @Test func aTokenOlderThanTheHistoryExpires() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let old = library.currentChangeToken
        for favorite in [true, false, true] {
            try library.performChangesAndWait {
                PHAssetChangeRequest(for: fixture.asset("live.heic")).isFavorite = favorite
            }
        }
        let recent = library.currentChangeToken
        try library.performChangesAndWait { PHAssetChangeRequest(for: fixture.asset("live.heic")).isFavorite = false }
        #expect(try library.database.pruneHistory(keeping: 1) == 4)
        do {
            _ = try library.fetchPersistentChanges(since: old)
            Issue.record("an expired token must not give a partial answer")
        } catch PHPhotosError.persistentChangeTokenExpired {
            // As PhotoKit: fetch everything again.
        }
        #expect(Array(try library.fetchPersistentChanges(since: recent)).count == 1)
        let other = try LibraryFixture()
        #expect(throws: PHPhotosError.self) {
            try library.fetchPersistentChanges(since: other.library.currentChangeToken)
        }
    }
}
