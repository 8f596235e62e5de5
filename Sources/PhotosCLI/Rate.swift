import ArgumentParser
import Foundation
import Photos

extension PhotosCommand {
    /// `photos rate ASSET N`: gives an asset 0 to 5 stars.
    struct Rate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rate",
            abstract: "Give an asset 0 (none) to 5 stars, and say which sidecar was written.",
            discussion: """
                Under a root whose config says write = "sidecars" or "files", the stars also go into the \
                photo's XMP sidecar as xmp:Rating, which digiKam, darktable, Lightroom and exiftool read.
                """)

        @OptionGroup var options: LibraryOptions

        @Argument(
            help: ArgumentHelp(
                "The asset: an identifier, a unique prefix of one, or the path of its file.", valueName: "asset"))
        var asset: String

        @Argument(help: ArgumentHelp("Stars, 0 (none) to 5.", valueName: "stars"))
        var stars: Int

        func validate() throws {
            guard PHAssetRating(rawValue: stars) != nil else {
                throw ValidationError("stars: \(stars) is not a rating; give 0 (none) to 5")
            }
        }

        func run() throws {
            let library = try options.open()
            let found = try options.asset(asset, in: library)
            let rating = PHAssetRating(rawValue: stars) ?? .unset
            let what = stars == 1 ? "1 star" : "\(stars) stars"
            try SidecarReport.change([found], in: library, what: what, json: options.json) { asset in
                PHAssetChangeRequest(for: asset).rating = rating
            }
        }
    }
}
