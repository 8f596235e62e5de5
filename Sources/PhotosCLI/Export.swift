import ArgumentParser
import Foundation
import Glibc
import Photos

extension PhotosCommand {
    /// `photos export`: copies of an asset's files, under their own names, into a directory.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy an asset's files (a Live Photo's still and movie, a RAW and its JPEG) into a directory.",
            discussion: """
                Each file keeps its name. Nothing is written over: when a name is taken in the directory, \
                nothing is copied and the command says which. The asset's own files are only read. \
                With --current, an edited asset's render takes its photo's (or video's) place, named \
                after it (IMG_0001.HEIC edited gives IMG_0001.jpg), and its adjustment data comes as \
                IMG_0001.AAE, the sidecar iOS writes.
                  photos export 6A1F.../L0/001 -o ~/Desktop/out
                """)

        /// Which version of the asset to export.
        enum Version: String, EnumerableFlag {
            case original, current

            static func help(for value: Self) -> ArgumentHelp? {
                switch value {
                case .original: "The original files, without edits (the default)."
                case .current: "The asset as it looks now: an edit's render and adjustment data instead of its original."
                }
            }
        }

        @OptionGroup var options: LibraryOptions

        @Argument(help: ArgumentHelp("The asset's local identifier.", valueName: "id"))
        var identifier: String

        @Flag var version: Version = .original

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The directory to copy into (made if missing).", valueName: "dir"))
        var output: String

        func run() throws {
            let library = try options.open()
            let asset = try options.asset(identifier, in: library)
            let resources = PHAssetResource.assetResources(for: asset)
            try options.requireAvailable(library)
            guard !resources.isEmpty else { throw CLIError("asset \(identifier) has no files") }

            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot make \(output): \(error.localizedDescription)")
            }
            let directory = URL(fileURLWithPath: output)
            let copies = Self.files(of: resources, version: version).map {
                (resource: $0.resource, to: directory.appendingPathComponent($0.name).path)
            }
            let names = copies.map { ($0.to as NSString).lastPathComponent }
            if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw CLIError("two of the asset's files are named \(Output.escaped(twice)): export them one by one")
            }
            // Every name is checked before anything is copied, so a refusal leaves the directory as it was.
            for copy in copies where Self.exists(copy.to) {
                throw CLIError("\(Output.escaped(copy.to)) exists: nothing was copied (nothing is written over)")
            }
            var written: [String] = []
            do {
                for copy in copies {
                    try ResourceFileCopy.copy(copy.resource.fileURL.path, to: copy.to)
                    written.append(copy.to)
                }
            } catch {
                // Only the copies this run made are removed: they are the command's, not the user's.
                for path in written { try? ResourceFileCopy.removeCopy(path) }
                let reason = (error as? PHPhotosError)?.message ?? "\(error)"
                throw CLIError("\(reason)\(written.isEmpty ? "" : "; the \(written.count) copied before it were removed")")
            }
            for copy in copies {
                if options.json {
                    struct Written: Encodable {
                        let localIdentifier: String, type: String, source: String, path: String, version: String
                    }
                    try Output.jsonLine(
                        Written(
                            localIdentifier: identifier, type: copy.resource.type.name, source: copy.resource.fileURL.path,
                            path: copy.to, version: version.rawValue))
                } else {
                    print("wrote \(Output.escaped(copy.to)) (\(copy.resource.type.name))")
                }
            }
        }

        /// The files of a version and their names: the originals; or, as the asset looks now, an
        /// edit's render in its original's place under the original's name with the render's
        /// extension, and its adjustment data under the same name with `.AAE`.
        static func files(of resources: [PHAssetResource], version: Version) -> [(resource: PHAssetResource, name: String)] {
            let originals = resources.filter { !PHAssetResourceType.editTypes.contains($0.type) }
            guard version == .current else { return originals.map { ($0, $0.originalFilename) } }
            var files: [(resource: PHAssetResource, name: String)] = []
            var stem: String?
            for resource in originals {
                let renderType: PHAssetResourceType? =
                    resource.type == .photo ? .fullSizePhoto : resource.type == .video ? .fullSizeVideo : nil
                if let renderType, let render = resources.first(where: { $0.type == renderType }) {
                    let name = (resource.originalFilename as NSString).deletingPathExtension
                    stem = name
                    files.append((render, name + "." + render.fileURL.pathExtension))
                } else {
                    files.append((resource, resource.originalFilename))
                }
            }
            if let stem, let adjustment = resources.first(where: { $0.type == .adjustmentData }) {
                files.append((adjustment, stem + ".AAE"))
            }
            return files
        }

        static func exists(_ path: String) -> Bool {
            var status = stat()
            return PathBytes.withCString(path) { lstat($0, &status) } == 0
        }
    }
}
