import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// `localizedLocationNames` on albums and folders: the places where their photos were taken, from
/// the gazetteer the library's configuration names.
@Suite struct LocationNamesTests {
    let directory: TemporaryDirectory
    let library: PHPhotoLibrary
    /// Collection local identifiers by title.
    private(set) var collections: [String: String] = [:]
    /// Asset local identifiers by name.
    private(set) var assets: [String: String] = [:]

    static let lyon = (45.75, 4.85)
    static let annecy = (45.90, 6.12)
    static let geneva = (46.20, 6.15)
    static let rome = (41.89, 12.51)
    static let florence = (43.78, 11.25)
    static let paris = (48.85, 2.35)
    static let atlantic = (45.0, -30.0)

    /// A library with:
    /// - `Travel` (folder) > `Lyon weekend` (album: Lyon 3, Annecy 1, one in the Atlantic, one
    ///   with no position) and `Alps` (folder) > `Lakes` (album: Annecy 2, Geneva 1);
    /// - `Europe` (album: Lyon, Annecy, Rome 2, Florence, Paris);
    /// - `Unplaced` (album: no position).
    init() throws {
        try self.init(gazetteer: .fixture)
    }

    /// Which gazetteer the library is configured with.
    enum Source {
        /// `GazetteerFixture`'s, with its country table.
        case fixture
        /// None.
        case none
        /// A file the test wrote (or did not).
        case file(String)
    }

    init(gazetteer: Source) throws {
        directory = try TemporaryDirectory(prefix: "photos-places")
        var configuration = PHPhotoLibrary.Configuration()
        switch gazetteer {
        case .fixture:
            let files = try GazetteerFixture.write(in: directory)
            configuration.gazetteerPath = files.gazetteer
            configuration.countryNamesPath = files.countries
        case .none:
            configuration.gazetteerPath = nil
        case .file(let path):
            configuration.gazetteerPath = path
        }
        configuration.thumbnailCacheDirectory = nil
        library = try PHPhotoLibrary(url: directory.path("library.sqlite"), configuration: configuration)

        let albums: [(title: String, parent: String?, members: [(String, (Double, Double)?)])] = [
            (
                "Lyon weekend", "Travel",
                [
                    ("l1", Self.lyon), ("l2", Self.lyon), ("l3", Self.lyon),
                    ("a1", Self.annecy), ("sea", Self.atlantic), ("indoors", nil),
                ]
            ),
            ("Lakes", "Alps", [("a2", Self.annecy), ("a3", Self.annecy), ("g1", Self.geneva)]),
            (
                "Europe", nil,
                [
                    ("e1", Self.lyon), ("e2", Self.annecy), ("e3", Self.rome), ("e4", Self.rome), ("e5", Self.florence),
                    ("e6", Self.paris),
                ]
            ),
            ("Unplaced", nil, [("u1", nil)]),
        ]
        var assets: [String: String] = [:]
        var collections: [String: String] = [:]
        try library.database.write { transaction in
            func folder(_ title: String, parent: Int64?) throws -> Int64 {
                let record = CollectionRecord(
                    localIdentifier: LocalIdentifier.make(.collectionList), isList: true,
                    type: PHCollectionListType.folder.rawValue,
                    subtype: PHCollectionListSubtype.regularFolder.rawValue, title: title, parentId: parent,
                    position: 0, createdDate: 0)
                collections[title] = record.localIdentifier
                return try transaction.insertCollection(record)
            }
            let travel = try folder("Travel", parent: nil)
            let alps = try folder("Alps", parent: travel)
            var added = Date(timeIntervalSince1970: 1_700_000_000)
            for (position, album) in albums.enumerated() {
                var ids: [Int64] = []
                for (name, location) in album.members {
                    let identifier = LocalIdentifier.make(.asset)
                    var record = AssetRecord(localIdentifier: identifier, mediaType: .image, addedDate: added)
                    added += 60
                    record.creationDate = added.timeIntervalSince1970
                    record.latitude = location?.0
                    record.longitude = location?.1
                    let resource = ResourceRecord(
                        assetId: 0, type: PHAssetResourceType.photo.rawValue, path: "/places/\(name).jpg",
                        uniformTypeIdentifier: nil, mimeType: nil, fileSize: 1000, originalFilename: "\(name).jpg")
                    ids.append(try transaction.insertAsset(record, resources: [resource]))
                    assets[name] = identifier
                }
                let parent = album.parent.map { $0 == "Travel" ? travel : alps }
                let record = CollectionRecord(
                    localIdentifier: LocalIdentifier.make(.assetCollection), isList: false,
                    type: PHAssetCollectionType.album.rawValue,
                    subtype: PHAssetCollectionSubtype.albumRegular.rawValue, title: album.title, parentId: parent,
                    position: position, createdDate: 0)
                let id = try transaction.insertCollection(record)
                try transaction.setMembers(ofCollection: try transaction.collection(id: id)!, to: ids)
                collections[album.title] = record.localIdentifier
            }
        }
        self.assets = assets
        self.collections = collections
    }

    func options() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    func album(_ title: String) throws -> PHAssetCollection {
        try #require(
            PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [collections[title]!], options: options())
                .firstObject)
    }

    func folder(_ title: String) throws -> PHCollectionList {
        try #require(
            PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [collections[title]!], options: options())
                .firstObject)
    }

    func assets(_ names: String...) -> [PHAsset] {
        let result = PHAsset.fetchAssets(withLocalIdentifiers: names.map { assets[$0]! }, options: options())
        return Array(result)
    }

    @Test func anAlbumIsNamedAfterItsPlacesMostFrequentFirst() throws {
        #expect(try album("Lyon weekend").localizedLocationNames == ["Lyon", "Annecy"])
        #expect(try album("Lakes").localizedLocationNames == ["Annecy", "Geneva"])
        #expect(try album("Unplaced").localizedLocationNames == [])
    }

    @Test func anAlbumAcrossCountriesAndManyPlacesIsNamedAfterTheCountries() throws {
        // Six places in two countries (France 3, Italy 3; ties in name order).
        #expect(try album("Europe").localizedLocationNames == ["France", "Italy"])
    }

    @Test func aFolderNamesTheMembersOfItsAlbumsAtEveryDepth() throws {
        // Lyon 3, Annecy 1 + 2 (in Alps > Lakes), Geneva 1.
        #expect(try folder("Travel").localizedLocationNames == ["Annecy", "Lyon", "Geneva"])
        #expect(try folder("Alps").localizedLocationNames == ["Annecy", "Geneva"])
    }

    @Test func aNameFollowsAnEditedLocation() throws {
        let geneva = try #require(assets("g1").first)
        try library.performChangesAndWait {
            PHAssetChangeRequest(for: geneva).location = CLLocation(latitude: 41.9, longitude: 12.5)
        }
        #expect(try album("Lakes").localizedLocationNames == ["Annecy", "Rome"])
    }

    @Test func transientCollectionsUseTheirAssetsPlaces() throws {
        let transient = PHAssetCollection.transientAssetCollection(
            with: assets("e3", "e4", "e6", "indoors"), title: "Picked")
        #expect(transient.localizedLocationNames == ["Rome", "Paris"])
        let list = PHCollectionList.transientCollectionList(with: [transient, try album("Lakes")], title: "Mixed")
        // Rome 2, Paris 1, Annecy 2, Geneva 1: four places in three countries.
        #expect(list.localizedLocationNames == ["France", "Italy", "Switzerland"])
    }

    @Test func smartAlbumsNameNothing() throws {
        let recents = try #require(
            PHAssetCollection.fetchAssetCollections(
                with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: options()
            ).firstObject)
        #expect(recents.localizedLocationNames == [])
    }

    @Test func withoutAGazetteerNothingIsNamed() throws {
        let bare = try LocationNamesTests(gazetteer: .none)
        #expect(try bare.album("Lyon weekend").localizedLocationNames == [])
        #expect(try bare.folder("Travel").localizedLocationNames == [])
        #expect(try bare.album("Lyon weekend").approximateLocation != nil, "the positions are there")
        let transient = PHAssetCollection.transientAssetCollection(with: bare.assets("l1"), title: "One")
        #expect(transient.localizedLocationNames == [], "a transient album's gazetteer is its assets' library's")
    }

    @Test func anUnreadableOrGarbledGazetteerNamesNothing() throws {
        let absent = try LocationNamesTests(gazetteer: .file("/nonexistent/photos-places/cities1000.txt"))
        #expect(try absent.album("Lyon weekend").localizedLocationNames == [])
        let garbled = directory.path("garbled.txt")
        let noise = (0..<100_000).map { UInt8(truncatingIfNeeded: ($0 &* 7919) >> 3) }
        try Data(noise + Array("\n1\tLyon\tLyon\t\t45.7".utf8)).write(to: garbled)
        let damaged = try LocationNamesTests(gazetteer: .file(garbled.path))
        #expect(try damaged.album("Lyon weekend").localizedLocationNames == [])
        #expect(try damaged.folder("Travel").localizedLocationNames == [])
    }
}
