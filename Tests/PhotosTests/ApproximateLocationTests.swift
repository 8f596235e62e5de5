import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `PHAssetCollection.approximateLocation`: the centre of where the album's photos were taken.
@Suite struct ApproximateLocationTests {
    @Test func anAlbumIsWhereItsPhotosWereTaken() throws {
        let fixture = try LibraryFixture()
        var trip: PHAssetCollection = fixture.collection("Trip")
        // Of its three members only the beach has a position.
        var location = try #require(trip.approximateLocation)
        #expect(abs(location.coordinate.latitude - 43.55) < 1e-9 && abs(location.coordinate.longitude - 7.01) < 1e-9)

        let pano = fixture.asset("pano.jpg")
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: pano).location = CLLocation(latitude: 43.71, longitude: 7.26)
        }
        trip = fixture.collection("Trip")
        location = try #require(trip.approximateLocation)
        #expect(abs(location.coordinate.latitude - 43.63) < 0.01 && abs(location.coordinate.longitude - 7.135) < 0.01)

        let favorites = try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumFavorites, options: fixture.options()
            ).firstObject)
        #expect(favorites.approximateLocation == nil, "a smart album's members are a query: no place")

        let transient = PHAssetCollection.transientAssetCollection(
            with: [fixture.asset("beach.jpg"), fixture.asset("movie.mov")], title: "Some")
        #expect(transient.approximateLocation?.coordinate.latitude == 43.55)
        let nowhere = PHAssetCollection.transientAssetCollection(with: [fixture.asset("movie.mov")], title: "None")
        #expect(nowhere.approximateLocation == nil, "no member with a position: no place")
    }
}
