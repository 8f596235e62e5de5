import Foundation
import Testing

@testable import PhotosCore

/// The keys and names the asset JSON writes, in predicates: media types by name, subtypes by name,
/// the file name, and the distance to a place.
@Suite("Predicate names and places")
struct PredicateNamesAndPlacesTests {
    func sql(_ format: String) throws -> SQLFragment {
        try PhotoKitPredicate(format: format, arguments: []).sql(for: .asset) { $0 }
    }

    /// Each spelling of a media type: the number, the name quoted, the bare name, the name as an argument.
    @Test(arguments: [
        ("mediaType == 2", SQLValue.int(2)), ("mediaType == \"video\"", .int(2)), ("mediaType == video", .int(2)),
        ("mediaType == 'image'", .int(1)), ("mediaType == audio", .int(3)), ("mediaType == unknown", .int(0)),
        ("video == mediaType", .int(2)),
    ])
    func aMediaTypeIsItsNameOrItsNumber(format: String, bound: SQLValue) throws {
        let fragment = try sql(format)
        #expect(fragment.sql == "mediaType = ?")
        #expect(fragment.arguments == [bound])
    }

    @Test func aSetOfMediaTypesTakesNamesAndNumbers() throws {
        let fragment = try sql("mediaType IN {'image', 2}")
        #expect(fragment.sql == "mediaType IN (?, ?)")
        #expect(fragment.arguments == [.int(1), .int(2)])
        let argument = try PhotoKitPredicate(format: "mediaType == %@", arguments: [.string("audio")]).sql(for: .asset)
        { $0 }
        #expect(argument.arguments == [.int(3)])
    }

    @Test func subtypesContainTheirNamesAsTheJSONListDoes() throws {
        let one = try sql("mediaSubtypes CONTAINS 'photoLive'")
        #expect(one.sql == "(mediaSubtypes & ?) = ?")
        #expect(one.arguments == [.int(8), .int(8)])
        let both = try sql("mediaSubtypes CONTAINS {'photoScreenshot', 'photoHDR'}")
        #expect(both.arguments == [.int(6), .int(6)])
        let bare = try sql("NOT mediaSubtypes CONTAINS photoLive")
        #expect(bare.sql == "NOT ((mediaSubtypes & ?) = ?)")
    }

    /// A misspelt name says where, what the names are, and which was meant.
    @Test(arguments: [
        ("mediaType == 'vidoe'", 13, "(did you mean 'video'?)"),
        ("mediaType == \"photo\"", 13, "the names are unknown, image, video, audio"),
        ("mediaSubtypes CONTAINS 'photoLiv'", 23, "(did you mean 'photoLive'?)"),
    ])
    func anUnknownNameIsAnErrorWithItsPlaceAndTheNames(format: String, offset: Int, message: String) throws {
        let error = #expect(throws: PredicateFormatError.self) { try sql(format) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.offset == offset)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "none")")
    }

    /// A bare word that is no name stays an unknown key, with its suggestion.
    @Test func aBareWordThatIsNoNameIsAnUnknownKey() throws {
        let error = #expect(throws: PredicateFormatError.self) { try sql("mediaType == vido") }
        #expect(error?.code == .unsupportedKey && error?.offset == 13, "\(String(describing: error))")
    }

    @Test func theFileNameIsAStringKey() throws {
        let fragment = try sql("filename LIKE[c] 'img_*.heic'")
        #expect(fragment.sql == "(filename IS NOT NULL AND photos_like(filename, ?, 1))")
        #expect(try sql("originalFilename == 'a.jpg'").sql == "filename IS ?")
    }

    @Test func theDistanceToAPlaceIsANumberOfKilometres() throws {
        let fragment = try sql("distanceToLocation(location, 48.8566, -2.5) < 5")
        #expect(
            fragment.sql
                == "(latitude IS NOT NULL AND longitude IS NOT NULL AND photos_distance(latitude, longitude, ?, ?) < ?)"
        )
        #expect(fragment.arguments == [.double(48.8566), .double(-2.5), .double(5)])
        #expect(try sql("location == nil").sql == "location IS NULL")
        #expect(try sql("location != nil").sql == "location IS NOT NULL")
        let parsed = try PhotoKitPredicate(format: "distanceToLocation(location, 1, 2) <= 0.5", arguments: [])
        #expect(parsed.predicateFormat == "distanceToLocation(location, 1.0, 2.0) <= 0.5")
    }

    @Test(arguments: [
        ("distanceToLocation(location, 91, 0) < 1", PredicateFormatError.Code.typeMismatch, 29, "between -90 and 90"),
        ("distanceToLocation(location, 0) < 1", .syntax, 30, "expected ',' and a longitude"),
        ("distanceToLocation(location, 'x', 0) < 1", .typeMismatch, 29, "must be a number of degrees"),
        ("distanceToLocation(pixelWidth, 1, 2) < 1", .typeMismatch, 19, "not integer key 'pixelWidth'"),
        ("distanceToLocation(locaton, 1, 2) < 1", .unsupportedKey, 19, "(did you mean 'location'?)"),
        ("distanceToLocation(location, 1, 2) == 'far'", .typeMismatch, 38, "cannot be compared with string"),
        ("location > 1", .typeMismatch, 9, "> cannot compare location key 'location'"),
        ("distance(location, 1, 2) < 1", .unsupportedFeature, 0, "the one function is distanceToLocation"),
    ])
    func aWrongDistanceSaysWhereAndWhy(format: String, code: PredicateFormatError.Code, offset: Int, message: String)
        throws
    {
        let error = #expect(throws: PredicateFormatError.self) { try sql(format) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.offset == offset, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "none")")
    }

    /// Known distances: Paris to London is 344 km; a point to itself is 0; antipodes are half the circumference.
    @Test func theDistanceFunctionMeasuresOnTheSphere() {
        let parisLondon = PredicateFunctions.distance(48.8566, 2.3522, 51.5074, -0.1278)
        #expect(abs(parisLondon - 343.5) < 1.5, "\(parisLondon)")
        #expect(PredicateFunctions.distance(10, 20, 10, 20) == 0)
        let antipodes = PredicateFunctions.distance(0, 0, 0, 180)
        #expect(abs(antipodes - .pi * PredicateFunctions.earthRadius) < 0.001)
    }

    @Test func sortingByAPlaceIsRefused() {
        #expect(throws: PredicateFormatError.self) { try PredicateSchema.asset.sortKey("location", ascending: true) }
        #expect(throws: Never.self) { try PredicateSchema.asset.sortKey("filename", ascending: true) }
    }
}
