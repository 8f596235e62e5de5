import ArgumentParser
import Foundation
import Glibc
import Photos

extension PhotosCommand {
    /// `photos export`: copies of assets' files, under their own names, into a directory, as `cp -p`
    /// makes them (mode and times kept).
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Copy assets' files (a Live Photo's still and movie, a RAW and its JPEG) into a directory.",
            discussion: """
                Name the assets (an identifier, a unique prefix of one, or a file of the asset), or select \
                them with --predicate and/or --album (and --sort, --limit, --include-hidden and \
                --include-all-bursts, as photos assets takes them). Each file keeps its name, its permissions and its \
                access and modification times (as cp -p). Nothing is written over: when one of an asset's \
                names is taken in the directory, none of its files is copied and the command says which \
                (with --rename, they are copied as NAME-1.EXT, NAME-2.EXT..., all of an asset's files with \
                the same number). The asset's own files are only read. What is written goes to standard \
                output; progress, each failure and a summary to standard error; the exit status is 1 when \
                an asset failed. With --current, an edited asset's render takes its photo's (or video's) \
                place, named after it (IMG_0001.HEIC edited gives IMG_0001.jpg), and its adjustment data \
                comes as IMG_0001.AAE, the sidecar iOS writes.
                  photos export 6A1F -o ~/Desktop/out
                  photos export ~/Pictures/IMG_0001.HEIC ~/Pictures/IMG_0002.HEIC -o out
                  photos export --album ~/Pictures/2024/Rome --predicate 'favorite == YES' -o out
                """)

        /// Which version of the asset to export.
        enum Version: String, EnumerableFlag {
            case original, current

            static func help(for value: Self) -> ArgumentHelp? {
                switch value {
                case .original: "The original files, without edits (the default)."
                case .current:
                    "The asset as it looks now: an edit's render and adjustment data instead of its original."
                }
            }
        }

        @OptionGroup var options: LibraryOptions

        @Argument(
            help: ArgumentHelp(
                "The assets: identifiers, unique prefixes of them, or paths of their files.", valueName: "asset"))
        var identifiers: [String] = []

        @OptionGroup var query: QueryOptions

        @Flag var version: Version = .original

        @Flag(help: "Copy under a free name (NAME-1.EXT) when a name is taken, instead of leaving the asset out.")
        var rename = false

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The directory to copy into (made if missing).", valueName: "dir"))
        var output: String

        func validate() throws {
            try PathArguments.requireNonEmpty([output], "--output")
            let selecting = query.predicate != nil || query.album != nil
            if identifiers.isEmpty, !selecting {
                throw ValidationError("name the assets to export, or select them with --predicate or --album")
            }
            if !identifiers.isEmpty, selecting {
                throw ValidationError("name assets or select them with --predicate/--album, not both")
            }
            let shaping = query.shapingOptions
            if !shaping.isEmpty, !selecting {
                let named =
                    shaping.count == 1
                    ? "\(shaping[0]) goes" : shaping.dropLast().joined(separator: ", ") + " and \(shaping.last!) go"
                throw ValidationError("\(named) with --predicate or --album")
            }
        }

        func run() throws {
            let library = try options.open()
            // Every argument is resolved before anything is copied: a typo exports nothing.
            let assets = try selection(in: library)
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot make \(output): \(error.localizedDescription)")
            }
            let directory = URL(fileURLWithPath: output)
            let interactive = isatty(STDERR_FILENO) == 1
            var failed: [(identifier: String, reason: String)] = []
            var exported = 0
            var files = 0
            var renamed = 0
            for (index, asset) in assets.enumerated() {
                if interactive {
                    let progress = "\r[\(index + 1)/\(assets.count)] \(asset.localIdentifier)\u{1B}[K"
                    FileHandle.standardError.write(Data(progress.utf8))
                }
                do {
                    let written = try export(asset, into: directory, library: library)
                    if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                    exported += 1
                    files += written.count
                    if written.contains(where: \.renamed) { renamed += 1 }
                    for copy in written { try report(copy, of: asset) }
                } catch let error as CLIError {
                    if interactive { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                    failed.append((asset.localIdentifier, error.description))
                    FileHandle.standardError.write(Data("error: \(asset.localIdentifier): \(error.description)\n".utf8))
                }
            }
            var summary = "exported \(exported) of \(assets.count) asset\(assets.count == 1 ? "" : "s")"
            summary += " (\(files) file\(files == 1 ? "" : "s"))"
            if renamed > 0 { summary += "; \(renamed) under a new name" }
            if !failed.isEmpty {
                summary += "; \(failed.count) failed: " + failed.map(\.identifier).joined(separator: ", ")
            }
            FileHandle.standardError.write(Data((summary + "\n").utf8))
            if !failed.isEmpty { throw ExitCode(1) }
        }

        /// The assets named, or selected by --predicate and --album, each once, in the order named
        /// (or the fetch's: --sort's).
        func selection(in library: PHPhotoLibrary) throws -> [PHAsset] {
            if !identifiers.isEmpty {
                var seen: Set<String> = []
                var assets: [PHAsset] = []
                for text in identifiers {
                    let asset = try options.asset(text, in: library)
                    if seen.insert(asset.localIdentifier).inserted { assets.append(asset) }
                }
                return assets
            }
            let result = try query.fetchAssets(in: library, options: options)
            var assets: [PHAsset] = []
            result.enumerateObjects { asset, _, _ in assets.append(asset) }
            if assets.isEmpty { FileHandle.standardError.write(Data("no asset matches: nothing to export\n".utf8)) }
            return assets
        }

        /// One file written: what it is a copy of, and where it went.
        struct Copy {
            let resource: PHAssetResource
            let path: String
            let renamed: Bool
        }

        /// Copies one asset's files, all or none: a taken name leaves the asset out (or, with
        /// --rename, moves all its names to the first free number), and a failure halfway removes the
        /// copies this asset made.
        func export(_ asset: PHAsset, into directory: URL, library: PHPhotoLibrary) throws -> [Copy] {
            let resources = PHAssetResource.assetResources(for: asset)
            try options.requireAvailable(library)
            guard !resources.isEmpty else { throw CLIError("the asset has no files") }
            let files = Self.files(of: resources, version: version)
            let names = files.map(\.name)
            if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
                throw CLIError("two of the asset's files are named \(Output.escaped(twice)): export them one by one")
            }
            var number = 0
            var targets = names.map { directory.appendingPathComponent($0).path }
            // Every name is checked before anything is copied, so a refusal leaves the directory as it was.
            while let taken = targets.first(where: Self.exists) {
                guard rename else {
                    throw CLIError(
                        "\(Output.escaped(taken)) exists: nothing was copied for this asset "
                            + "(nothing is written over; --rename copies under a free name)")
                }
                number += 1
                targets = names.map { directory.appendingPathComponent(Self.numbered($0, number)).path }
            }
            var written: [Copy] = []
            do {
                for (file, target) in zip(files, targets) {
                    if let host = file.resource.host {
                        throw CLIError(
                            "\(Output.escaped(file.resource.fileURL.relativePath)) is on \(host)'s disk: export it there"
                        )
                    }
                    try ResourceFileCopy.copy(file.resource.fileURL.path, to: target, preservingAttributes: true)
                    written.append(Copy(resource: file.resource, path: target, renamed: number > 0))
                }
            } catch {
                // Only the copies this run made are removed: they are the command's, not the user's.
                for copy in written { try? ResourceFileCopy.removeCopy(copy.path) }
                let reason = (error as? PHPhotosError)?.message ?? "\(error)"
                throw CLIError(
                    "\(reason)\(written.isEmpty ? "" : "; the \(written.count) copied before it were removed")")
            }
            return written
        }

        /// `IMG_0001.HEIC` numbered 2: `IMG_0001-2.HEIC`.
        static func numbered(_ name: String, _ number: Int) -> String {
            let stem = (name as NSString).deletingPathExtension
            let ext = (name as NSString).pathExtension
            return ext.isEmpty ? "\(name)-\(number)" : "\(stem)-\(number).\(ext)"
        }

        /// A line on standard output for a file written.
        func report(_ copy: Copy, of asset: PHAsset) throws {
            if options.json {
                struct Written: Encodable {
                    let localIdentifier: String, type: String, source: String, path: String, version: String
                }
                try Output.jsonLine(
                    Written(
                        localIdentifier: asset.localIdentifier, type: copy.resource.type.name,
                        source: copy.resource.fileURL.path, path: copy.path, version: version.rawValue))
            } else {
                print("wrote \(Output.escaped(copy.path)) (\(copy.resource.type.name))")
            }
        }

        /// The files of a version and their names: the originals; or, as the asset looks now, an
        /// edit's render in its original's place under the original's name with the render's
        /// extension, and its adjustment data under the same name with `.AAE`.
        static func files(of resources: [PHAssetResource], version: Version) -> [(
            resource: PHAssetResource, name: String
        )] {
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
