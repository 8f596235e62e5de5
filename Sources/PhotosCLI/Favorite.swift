import ArgumentParser
import Foundation
import Photos
import PhotosIngest
import PhotosLinux

extension PhotosCommand {
    /// `photos favorite ASSET... [--off]`: marks assets as favorites, or not.
    struct Favorite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "favorite",
            abstract: "Mark assets as favorites (or not, with --off), and say which sidecars were written.",
            discussion: """
                Under a root whose config says write = "sidecars" or "files", the favorite also goes into the \
                photo's XMP sidecar (photosd:Favorite, and fstop:favorite, which PhotoPrism reads), merged \
                with what other tools keep there. Elsewhere it stays in the library. A root that cannot be \
                written (a read-only mount, permissions) fails the change and changes nothing.
                """)

        @OptionGroup var options: LibraryOptions

        @Argument(
            help: ArgumentHelp(
                "Assets: identifiers, unique prefixes of them, or paths of their files.", valueName: "asset"))
        var assets: [String]

        @Flag(name: .long, help: "Remove the favorite mark instead of setting it.")
        var off = false

        func run() throws {
            let library = try options.open()
            let found = try assets.map { try options.asset($0, in: library) }
            try SidecarReport.change(found, in: library, what: off ? "not a favorite" : "favorite", json: options.json)
            {
                asset in
                PHAssetChangeRequest(for: asset).isFavorite = !off
            }
        }
    }
}

/// Runs a change of user state and prints, per asset, where it went: its sidecar, or the library only.
enum SidecarReport {
    /// One asset's line with `--json`.
    struct Line: Encodable {
        var localIdentifier: String
        var change: String
        /// The sidecar written, or nil when the state stays in the library.
        var sidecar: String?
    }

    static func change(
        _ assets: [PHAsset], in library: PHPhotoLibrary, what: String, json: Bool, _ edit: (PHAsset) -> Void
    ) throws {
        do {
            try library.performChangesAndWait { for asset in assets { edit(asset) } }
        } catch {
            throw CLIError("\(error)")
        }
        let sync = SidecarSync(database: library.database).batched()
        for asset in assets {
            let resources = PHAssetResource.assetResources(for: asset)
            let photo = SidecarSync.primaryFile(of: resources.map { ($0.type.rawValue, $0.fileURL.path) })
            var sidecar: String?
            var away = false
            if let photo, library.writePolicy(at: photo) != .none {
                // Said written only when it was: a photo away from its path (moved by another program,
                // not yet seen) has no sidecar beside it until the move is seen.
                if (try? FileOperations.identity(photo)) ?? nil == nil {
                    away = true
                } else {
                    sidecar = (try? sync.sidecarPath(forPhoto: photo)) ?? photo + ".xmp"
                }
            }
            if json {
                try Output.jsonLine(Line(localIdentifier: asset.localIdentifier, change: what, sidecar: sidecar))
            } else if let sidecar {
                print("\(asset.localIdentifier): \(what), written to \(Output.escaped(sidecar))")
            } else if away, let photo {
                print(
                    "\(asset.localIdentifier): \(what), in the library; \(Output.escaped(photo)) is not there now, so its "
                        + "sidecar is written once the photo is found again")
            } else {
                print("\(asset.localIdentifier): \(what), in the library only (its root's write policy is \"none\")")
            }
        }
    }
}
