// `import Photos` brings PhotoKit's value types (PHAssetMediaType, PHPhotosError, ...) with it.
@_exported import Foundation
@_exported import PhotosCore
