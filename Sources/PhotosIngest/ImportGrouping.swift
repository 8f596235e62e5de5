import Foundation
import PhotosCore
import PhotosMetadata

/// The groups an import moves out of one drop folder, made as a scan makes assets (``Grouper``:
/// Live Photo pairs, RAW+JPEG), with the sidecars beside them, and the facts that name and file
/// each group (``ImportPlanner``).
///
/// | sidecar | belongs to |
/// |---|---|
/// | `IMG_1.JPG.xmp` | the group holding `IMG_1.JPG` |
/// | `IMG_1.xmp`, `IMG_1.AAE`, `IMG_1.THM` | the group with a file of stem `IMG_1`; of several, the one with a RAW, else a still, else a movie |
/// | `IMG_1.xmp` beside two groups of one kind (`IMG_1.JPG`, `IMG_1.PNG`) | nobody: it stays where it is |
///
/// ```swift
/// let extractor = MetadataExtractor(timeZone: zone)
/// let media = try paths.map { ($0, try extractor.extract(path: $0)) }
/// let (groups, unowned) = ImportGrouping.groups(of: media, sidecars: sidecarPaths)
/// ```
public enum ImportGrouping {
    /// The extensions of sidecars, lowercased: files that describe another and travel with it.
    public static let sidecarExtensions: Set<String> = ["xmp", "aae", "thm"]

    /// Whether a file name is a sidecar's (`.xmp`, `.aae`, `.THM`, in any case).
    public static func isSidecar(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return sidecarExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The groups of one folder's media files (absolute paths with what they say), each with its
    /// sidecars, in name order; and the sidecars that belong to no group.
    public static func groups(of media: [(path: String, metadata: FileMetadata)], sidecars: [String])
        -> (groups: [ImportGroup], unowned: [String])
    {
        let entries = media.map { path, metadata in
            GroupEntry(
                name: PathName.name(of: path), isImage: metadata.kind == .image, isVideo: metadata.kind == .video,
                isRAW: metadata.isRAW, contentIdentifier: metadata.contentIdentifier, duration: metadata.duration)
        }
        let fileGroups = Grouper.group(entries)
        var owned: [[String]] = Array(repeating: [], count: fileGroups.count)
        var unowned: [String] = []
        let members = fileGroups.map { group in
            [group.primary, group.pairedVideo, group.alternatePhoto].compactMap { $0 }
        }
        for sidecar in sidecars.sorted() {
            let name = PathName.name(of: sidecar).lowercased()
            // `IMG_1.JPG.xmp`: the group of the file it names.
            if let index = members.firstIndex(where: { group in
                group.contains { name.hasPrefix(entries[$0].name.lowercased() + ".") }
            }) {
                owned[index].append(sidecar)
                continue
            }
            // `IMG_1.xmp`: the strongest group of that stem, if one alone is.
            let stem = PairingName.of(name)
            let candidates = members.indices.filter { index in members[index].contains { entries[$0].baseName == stem }
            }
            let strength = { (index: Int) -> Int in
                let kinds = members[index].map {
                    entries[$0].isRAW ? 3 : entries[$0].isImage ? 2 : entries[$0].isVideo ? 1 : 0
                }
                return kinds.max() ?? 0
            }
            let strongest = candidates.map(strength).max()
            let owners = candidates.filter { strength($0) == strongest }
            if owners.count == 1 {
                owned[owners[0]].append(sidecar)
            } else {
                unowned.append(sidecar)
            }
        }
        let groups = zip(fileGroups, owned).map { group, sidecars in
            ImportGroup(
                primary: media[group.primary].path, pairedVideo: group.pairedVideo.map { media[$0].path },
                alternatePhoto: group.alternatePhoto.map { media[$0].path }, sidecars: sidecars)
        }
        return (groups, unowned)
    }

    /// What names and files an asset, from its primary file: its capture date with the offset the
    /// file states (none for a floating EXIF time, which the extractor read in its zone: render it in
    /// the same zone), camera, and modification time (seconds since 1970).
    public static func facts(_ metadata: FileMetadata, modificationTime: Double) -> ImportFacts {
        ImportFacts(
            captureDate: metadata.creationDate,
            captureOffset: metadata.creationDateIsFloating ? nil : metadata.creationDateOffset,
            modificationTime: Date(timeIntervalSince1970: modificationTime), make: metadata.make, model: metadata.model)
    }
}
