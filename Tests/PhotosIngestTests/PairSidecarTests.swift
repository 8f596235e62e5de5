import Foundation
import Photos
import PhotosIngest
import PhotosTestSupport
import Testing

/// A RAW+JPEG pair read as one new asset takes the state of the RAW's own sidecar too: the files
/// of two assets made one (a rebuild, a JPEG put beside a lone RAW that was favorited) lose
/// neither's state.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct PairSidecarTests {
    private func writeSidecar(_ relative: String, in tree: Tree, rating: Int? = nil, favorite: Bool = false) throws {
        let rating = rating.map { " xmp:Rating=\"\($0)\"" } ?? ""
        let favorite = favorite ? " fstop:favorite=\"1\"" : ""
        try Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
              xmlns:fstop="http://www.fstopapp.com/xmp/"\(rating)\(favorite)/>
            </rdf:RDF></x:xmpmeta>
            """.utf8
        ).write(to: tree.root.appendingPathComponent(relative))
    }

    private func putPair(in directory: String, of tree: Tree) throws {
        try tree.copy("Camera/RAW/IMG_0350.CR2", to: "\(directory)/IMG_0350.CR2")
        try tree.copy("Camera/2008/Misc/Canon_40D.jpg", to: "\(directory)/IMG_0350.JPG")
    }

    @Test func theRAWsOwnSidecarGivesThePairItsState() throws {
        let tree = try Tree()
        try putPair(in: "a", of: tree)
        try writeSidecar("a/IMG_0350.CR2.xmp", in: tree, rating: 4, favorite: true)
        let report = try tree.scan()
        #expect(report.ingested == 2, "\(report)")
        let pair = try #require(tree.asset(at: "a/IMG_0350.JPG"))
        #expect(PHAssetResource.assetResources(for: pair).map(\.type) == [.photo, .alternatePhoto])
        #expect(pair.isFavorite && pair.rating == .four)
    }

    @Test func thePhotosSidecarWinsWhereBothSaySomething() throws {
        let tree = try Tree()
        try putPair(in: "b", of: tree)
        try writeSidecar("b/IMG_0350.JPG.xmp", in: tree, rating: 2)
        try writeSidecar("b/IMG_0350.CR2.xmp", in: tree, rating: 4, favorite: true)
        try tree.scan()
        let pair = try #require(tree.asset(at: "b/IMG_0350.JPG"))
        #expect(pair.rating == .two, "the photo's sidecar is the asset's")
        #expect(pair.isFavorite, "what it does not say, the RAW's does")
    }
}
