import PhotosCore
import Testing

/// The centre of places on the globe, not of their numbers.
@Suite struct GeographicCentroidTests {
    @Test func nearbyPlacesCentreBetweenThem() throws {
        let centre = try #require(GeographicCentroid.of([(48.85, 2.29), (48.86, 2.35)]))
        #expect(abs(centre.latitude - 48.855) < 0.001 && abs(centre.longitude - 2.32) < 0.001)
        let one = try #require(GeographicCentroid.of([(-33.86, 151.21)]))
        #expect(abs(one.latitude + 33.86) < 1e-9 && abs(one.longitude - 151.21) < 1e-9, "one place is its own centre")
    }

    @Test func placesAcrossTheAntimeridianCentreOnIt() throws {
        // The mean of the numbers would be 0°, the other side of the Earth.
        let centre = try #require(GeographicCentroid.of([(-17.0, 179.9), (-17.2, -179.9)]))
        #expect(abs(abs(centre.longitude) - 180) < 0.001)
        #expect(abs(centre.latitude + 17.1) < 0.01)
    }

    @Test func placesAroundAPoleCentreAtIt() throws {
        let centre = try #require(GeographicCentroid.of([(80, 0), (80, 90), (80, 180), (80, -90)]))
        #expect(abs(centre.latitude - 90) < 1e-6 && centre.longitude == 0)
    }

    @Test func noPlaceAndBalancedPlacesHaveNoCentre() {
        #expect(GeographicCentroid.of([]) == nil)
        #expect(GeographicCentroid.of([(0, 0), (0, 180)]) == nil, "antipodes balance out")
    }
}
