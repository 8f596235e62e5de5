import ArgumentParser
import Foundation
import Glibc
import Photos

extension PhotosCommand {
    /// `photos thumbnail`: an asset's image at a size, through PHImageManager.
    struct Thumbnail: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "thumbnail",
            abstract: "Write an asset's image, upright and scaled, as JPEG, PNG or WebP.",
            discussion: """
                The image fits inside --size (proportions kept), or with --fill covers it (one side may be \
                longer). It is never enlarged. Nothing is written over: -o must name a new file.
                  photos thumbnail 6A1F.../L0/001 --size 512x512 -o thumb.jpg
                """)

        @OptionGroup var options: LibraryOptions

        @Argument(
            help: ArgumentHelp(
                "The asset: its local identifier, a unique prefix of it, or the path of one of its files.",
                valueName: "asset"))
        var identifier: String

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The box to fit or fill, WIDTHxHEIGHT (or one number for a square).", valueName: "size"))
        var size: String = "256x256"

        @Flag(help: "Fill the box rather than fit inside it.")
        var fill = false

        @Option(
            help: ArgumentHelp(
                "jpeg, png or webp (default: from the output's extension, else jpeg).", valueName: "format"))
        var format: String?

        @Option(name: .shortAndLong, help: ArgumentHelp("The file to write; - for standard output.", valueName: "file"))
        var output: String

        func validate() throws {
            try PathArguments.requireNonEmpty([output], "--output")
            guard Self.parse(size: size) != nil else {
                throw ValidationError("--size must be WIDTHxHEIGHT or one number, each 1 to 100000: '\(size)'")
            }
            if let format, UIImage.Format(rawValue: format.lowercased()) == nil {
                throw ValidationError("--format must be jpeg, png or webp: '\(format)'")
            }
        }

        /// `256x192` or `256`.
        static func parse(size: String) -> CGSize? {
            let parts = size.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 1 || parts.count == 2, parts.allSatisfy({ $0 != nil && (1...100_000).contains($0!) })
            else { return nil }
            return CGSize(width: parts[0]!, height: parts.last!!)
        }

        /// The format asked for, else the output's extension's, else JPEG.
        var encoding: UIImage.Format {
            if let format, let chosen = UIImage.Format(rawValue: format.lowercased()) { return chosen }
            switch URL(fileURLWithPath: output).pathExtension.lowercased() {
            case "png": return .png
            case "webp": return .webp
            default: return .jpeg
            }
        }

        func run() throws {
            let library = try options.open()
            let asset = try options.asset(identifier, in: library)
            // Nothing is written over (an asset's own file least of all): a taken name stops the
            // command before anything is decoded.
            if output != "-", Export.exists(output) {
                throw CLIError("\(Output.escaped(output)) exists: nothing is written over")
            }

            let requestOptions = PHImageRequestOptions()
            requestOptions.isSynchronous = true
            requestOptions.deliveryMode = .highQualityFormat
            requestOptions.resizeMode = .exact
            requestOptions.encoding = encoding
            nonisolated(unsafe) var result: (image: UIImage?, error: (any Error)?) = (nil, nil)
            PHImageManager.default().requestImage(
                for: asset, targetSize: Self.parse(size: size)!, contentMode: fill ? .aspectFill : .aspectFit,
                options: requestOptions
            ) { image, info in
                result = (image, info?[PHImageErrorKey] as? any Error)
            }
            guard let image = result.image else {
                let reason = (result.error as? PHPhotosError)?.message ?? result.error.map { "\($0)" } ?? "no image"
                throw CLIError("cannot make a thumbnail of \(identifier): \(reason)")
            }
            if output == "-" {
                FileHandle.standardOutput.write(image.data)
                return
            }
            do {
                try ResourceFileCopy.create(output, bytes: image.data)
            } catch {
                throw CLIError((error as? PHPhotosError)?.message ?? "cannot write \(output): \(error)")
            }
            let summary = "\(Int(image.size.width))x\(Int(image.size.height)) \(encoding.rawValue)"
            if options.json {
                struct Written: Encodable {
                    let localIdentifier: String, path: String, pixelWidth: Int, pixelHeight: Int, format: String
                }
                try Output.jsonLine(
                    Written(
                        localIdentifier: asset.localIdentifier, path: URL(fileURLWithPath: output).path,
                        pixelWidth: Int(image.size.width), pixelHeight: Int(image.size.height),
                        format: encoding.rawValue))
            } else {
                print("wrote \(Output.escaped(output)) (\(summary))")
            }
        }
    }
}
