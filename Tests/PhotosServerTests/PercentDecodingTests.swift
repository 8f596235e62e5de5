import Foundation
import Testing

@testable import PhotosServer

/// The request target's one percent-decoder, against Foundation's `removingPercentEncoding` (what
/// it replaced) on every kind of piece a target holds, and the query's own rules.
@Suite struct PercentDecodingTests {
    @Test func decodesAsFoundationDoes() {
        // Escapes of ASCII and of whole UTF-8 sequences, and plain text: Foundation agrees on these.
        let pieces = [
            "a", "Z", "0", " ", "/", "+", "%2F", "%2f", "%20", "%C3%A9", "é", "日本", "%E6%97%A5", "%00", "=", "&",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            #expect(PercentDecoding.decode(text) == text.removingPercentEncoding, "\(text)")
        }
    }

    @Test func aMalformedEscapeOrBytesThatAreNotUTF8DecodeToNothing() {
        for text in ["%", "%2", "a%", "%zz", "%g1", "%%41", "%C3", "%A9", "%FF", "caf%C3", "%C3%28", "%E6%97"] {
            #expect(PercentDecoding.decode(text) == nil, "\(text)")
        }
        #expect(PercentDecoding.decode("a+b") == "a+b")
        #expect(PercentDecoding.decode("a+b", plusIsSpace: true) == "a b")
        #expect(PercentDecoding.decode("%41%62c") == "Abc")
    }

    @Test func aQueryTakesPlusForASpaceAndKeepsAMalformedEscapeAsItCame() {
        let query = Query("predicate=favorite+%3D%3D+YES&sort=-creationDate&sort=pixelWidth&title=50%+off&flag")
        #expect(query["predicate"] == "favorite == YES")
        #expect(query.all("sort") == ["-creationDate", "pixelWidth"])
        #expect(query["title"] == "50% off")
        #expect(query["flag"] == "")
        #expect(Query("name=caf%C3%A9%2Bcr%C3%A8me")["name"] == "café+crème")
    }

    @Test func aPathSegmentIsDecodedOnlyToBeJudged() {
        #expect(AccessMiddleware.nonCanonical("/v1/assets/UUID%2FL0%2F001") == nil)
        #expect(AccessMiddleware.nonCanonical("/v1/%2e%2E/secret") != nil)
        #expect(AccessMiddleware.nonCanonical("/v1/%zz") == nil)
    }
}
