import Foundation

/// A small stand-in for UIKit's `UIImage`, which Linux lacks: encoded image data (JPEG, PNG, HEIC...).
///
/// Enough for `PHAssetChangeRequest.creationRequestForAsset(from:)`:
/// ```swift
/// guard let image = UIImage(contentsOfFile: "/tmp/photo.jpg") else { return }
/// PHAssetChangeRequest.creationRequestForAsset(from: image)
/// ```
public final class UIImage: @unchecked Sendable {
    /// The encoded image.
    public let data: Data

    /// An image from encoded data; nil when the data is empty.
    public init?(data: Data) {
        guard !data.isEmpty else { return nil }
        self.data = data
    }

    /// An image from a file; nil when it cannot be read.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }
}
