import Foundation
import Hummingbird
import Photos
import PhotosMetadata
import PhotosWire

/// `GET /v1/assets/{id}/metadata`: the camera, lens and exposure of the asset's first resource, read
/// from the file when asked (``MetadataExtractor/exposure(path:)``), never kept in the library.
///
/// A limited client sees only its albums' assets, as at `/v1/assets/{id}`. An asset that is not there
/// is 404, and so is its file when it is gone (the message names the path). A file that can no
/// longer be read as a picture or a movie is 422 with PhotoKit's `invalidResource`, as a thumbnail
/// of it is; a picture whose EXIF is damaged answers what could be read, maybe nothing.
struct AssetMetadataRoutes: Sendable {
    let fetches: FetchRoutes
    let extractor: MetadataExtractor

    /// The asset's identifier when `path` (what follows `/v1/assets/`, decoded) names its metadata.
    static func metadata(in path: String) -> String? {
        path.hasSuffix("/metadata") ? String(path.dropLast("/metadata".count)) : nil
    }

    func serve(identifier: String, context: APIContext) throws -> Response {
        // A limited client's 404 for an asset it does not see, as for one that is not there.
        let asset = try fetches.description(ofAsset: identifier, access: context.access)
        guard let resource = asset.resources.first else {
            throw APIError(.notFound, "asset \(identifier) has no file")
        }
        // As for the original's bytes: a file gone is 404 with its path, one photosd may not read 403.
        _ = try fetches.open(resource.path, of: identifier)
        let exposure: ExposureInfo
        do {
            exposure = try extractor.exposure(path: resource.path)
        } catch {
            throw Self.error(error, identifier: identifier)
        }
        let answer = API.AssetMetadata(
            localIdentifier: identifier, path: resource.path, camera: Self.camera(exposure),
            placeNames: placeNames(of: asset), albumPlaceNames: albumPlaceNames(of: asset))
        return FetchRoutes.json(Array(try WireJSON.makeEncoder().encode(answer)))
    }

    /// Where the photo was taken, by name; nil without a location or a name for it.
    func placeNames(of asset: AssetDescription) -> [String]? {
        guard let location = asset.location else { return nil }
        let names = fetches.library.placeNames(latitude: location.latitude, longitude: location.longitude)
        return names.isEmpty ? nil : names
    }

    /// The place names of the asset's albums (those the client may see: the description names
    /// only those), by identifier; nil when none has any.
    func albumPlaceNames(of asset: AssetDescription) -> [String: [String]]? {
        let identifiers = asset.albums.map(\.localIdentifier)
        guard !identifiers.isEmpty else { return nil }
        let options = PHFetchOptions()
        options.photoLibrary = fetches.library
        var names: [String: [String]] = [:]
        for album in PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: identifiers, options: options) {
            let places = album.localizedLocationNames
            if !places.isEmpty { names[album.localIdentifier] = places }
        }
        return names.isEmpty ? nil : names
    }

    /// The answer's `camera` object.
    static func camera(_ exposure: ExposureInfo) -> API.AssetMetadata.Camera {
        var camera = API.AssetMetadata.Camera()
        camera.make = exposure.make
        camera.model = exposure.model
        camera.lensMake = exposure.lensMake
        camera.lensModel = exposure.lensModel
        camera.software = exposure.software
        camera.exposureTime = exposure.exposureTimeSeconds
        camera.exposureTimeText = exposure.exposureTimeText
        camera.fNumber = exposure.fNumber
        camera.isoSpeed = exposure.isoSpeed
        camera.focalLength = exposure.focalLength
        camera.focalLengthIn35mm = exposure.focalLengthIn35mm
        camera.flash = exposure.flash
        camera.flashFired = exposure.flashFired
        camera.exposureBias = exposure.exposureBias
        return camera
    }

    /// The API's error for a file that is there but could not be read as a picture or a movie:
    /// 422 with `invalidResource`, as the thumbnail route answers for a file it cannot decode; 503
    /// when the library that reads it (libmagic, LibRaw) is missing.
    static func error(_ error: MetadataError, identifier: String) -> APIError {
        if error.code == .libraryUnavailable {
            return APIError(.serviceUnavailable, "cannot read the metadata of \(error.path): \(error.message)")
        }
        return APIError(
            .unprocessableContent, photos: .invalidResource,
            "cannot read the metadata of asset \(identifier) from \(error.path): \(error.message)")
    }
}
