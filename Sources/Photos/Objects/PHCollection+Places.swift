import Foundation
import Logging
import PhotosPlaces

/// Where albums' and folders' `localizedLocationNames` are looked up.
enum PlaceLookup {
    /// The defaults, for transient collections of objects that belong to no library.
    private static let defaultConfiguration = PHPhotoLibrary.Configuration()

    /// The gazetteer of a library's configuration (read on first use, once per process); nil when
    /// it names none or the file cannot be read, so that no member position is read for nothing.
    static func gazetteer(for library: PHPhotoLibrary?) -> Gazetteer? {
        let configuration = library?.configuration ?? defaultConfiguration
        guard let path = configuration.gazetteerPath else { return nil }
        return Gazetteer.shared(path: path, countryNamesPath: configuration.countryNamesPath) { report in
            switch report.result {
            case .success(let gazetteer):
                configuration.logger.info(
                    "Read the gazetteer for place names",
                    metadata: [
                        "file.path": "\(path)", "places.count": "\(gazetteer.count)",
                        "places.skippedLines": "\(gazetteer.skippedLines)",
                        "places.seconds": "\(String(format: "%.3f", report.seconds))",
                    ])
            case .failure(let error):
                configuration.logger.info(
                    "No place names: the gazetteer cannot be read",
                    metadata: ["file.path": "\(path)", "error.message": "\(error.message)"])
            }
        }
    }
}

extension PHAssetCollection {
    /// Where the members were taken, those with a position: a transient album's assets, a stored
    /// album's members; none for a smart album, whose members are a query.
    var memberPositions: [(latitude: Double, longitude: Double)] {
        if let transientAssets {
            return transientAssets.compactMap { asset in
                asset.location.map { (latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
            }
        }
        guard assetCollectionType != .smartAlbum, let rowID, let database = library?.database else { return [] }
        return (try? database.memberPositions(ofCollection: rowID)) ?? []
    }

    /// The library whose configuration names the gazetteer: a transient album's is its assets'.
    var placesLibrary: PHPhotoLibrary? {
        library ?? transientAssets?.lazy.compactMap(\.library).first
    }
}

extension PHCollectionList {
    /// Where the assets of the folder's albums were taken, through its folders at every depth
    /// (each asset once); a transient folder's, through the collections it was made of.
    var memberPositions: [(latitude: Double, longitude: Double)] {
        if let transientCollections {
            return transientCollections.flatMap { collection in
                (collection as? PHAssetCollection)?.memberPositions
                    ?? (collection as? PHCollectionList)?.memberPositions ?? []
            }
        }
        guard let rowID, let database = library?.database else { return [] }
        return (try? database.memberPositions(ofFolder: rowID)) ?? []
    }

    /// The library whose configuration names the gazetteer: a transient folder's is its
    /// collections'.
    var placesLibrary: PHPhotoLibrary? {
        if let library { return library }
        for collection in transientCollections ?? [] {
            if let library = (collection as? PHAssetCollection)?.placesLibrary
                ?? (collection as? PHCollectionList)?.placesLibrary
            {
                return library
            }
        }
        return nil
    }
}

extension PHPhotoLibrary {
    /// The names of the place at a position (degrees), by the rule of an album's
    /// `localizedLocationNames` for one photo: its nearest place of the library's gazetteer within
    /// the radius. Empty without a gazetteer or a place near enough. Not in PhotoKit's API.
    package func placeNames(latitude: Double, longitude: Double) -> [String] {
        guard let gazetteer = PlaceLookup.gazetteer(for: self) else { return [] }
        return PlaceNames.names(of: [(latitude: latitude, longitude: longitude)], in: gazetteer)
    }
}
