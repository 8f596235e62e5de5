import PhotosCore

/// One media file of a directory, as grouping sees it.
struct GroupEntry: Sendable, Hashable {
    var name: String
    var isImage: Bool
    var isVideo: Bool
    var isRAW: Bool
    var contentIdentifier: String?
    /// A video's length in seconds, when known.
    var duration: Double?

    /// The name without its extension, lowercased: `IMG_0001` for `IMG_0001.HEIC` and `img_0001.mov`.
    var baseName: String { PairingName.of(name) }
}

/// Files of one directory that make one asset.
struct FileGroup: Sendable, Hashable {
    /// The photo or video the asset is.
    var primary: Int
    /// A Live Photo's movie.
    var pairedVideo: Int?
    /// The RAW of a RAW+JPEG pair.
    var alternatePhoto: Int?
}

/// Decides which files of a directory belong together, by content first and by name second.
///
/// | files | asset |
/// |---|---|
/// | a still and a movie with the same Apple content identifier | Live Photo: `photo` + `pairedVideo` |
/// | a still and a movie of at most 6 s with the same base name, neither identified otherwise | Live Photo |
/// | a RAW and a JPEG/HEIC (not RAW) with the same base name | `photo` (the JPEG) + `alternatePhoto` (the RAW) |
/// | anything else | one asset per file |
///
/// Pairing stays within a directory: the same name in two folders is two assets.
enum Grouper {
    /// The longest movie that pairs with a still by name alone.
    static let longestNamePairedMovie = 6.0

    static func group(_ entries: [GroupEntry]) -> [FileGroup] {
        var used = Set<Int>()
        var groups: [Int: FileGroup] = [:]  // keyed by primary index
        let order = entries.indices.sorted { entries[$0].name < entries[$1].name }

        // RAW+JPEG by base name.
        let byBase = Dictionary(grouping: order, by: { entries[$0].baseName })
        for index in order where entries[index].isImage && !entries[index].isRAW && !used.contains(index) {
            guard
                let raw = byBase[entries[index].baseName]?.first(where: {
                    entries[$0].isRAW && !used.contains($0)
                })
            else { continue }
            used.formUnion([index, raw])
            groups[index] = FileGroup(primary: index, alternatePhoto: raw)
        }
        // A RAW left alone is its own photo.
        func stillCandidates() -> [Int] {
            order.filter { entries[$0].isImage && (groups[$0] != nil || !used.contains($0)) }
        }

        // Live Photos by content identifier.
        let videos = order.filter { entries[$0].isVideo }
        var videosByIdentifier: [String: Int] = [:]
        for video in videos {
            if let identifier = entries[video].contentIdentifier, videosByIdentifier[identifier] == nil {
                videosByIdentifier[identifier] = video
            }
        }
        for still in stillCandidates() {
            guard let identifier = entries[still].contentIdentifier, let video = videosByIdentifier[identifier],
                !used.contains(video)
            else { continue }
            used.insert(video)
            used.insert(still)
            groups[still, default: FileGroup(primary: still)].pairedVideo = video
        }
        // Live Photos by name: short movies without a conflicting identifier.
        for still in stillCandidates() where groups[still]?.pairedVideo == nil {
            guard
                let video = byBase[entries[still].baseName]?.first(where: { candidate in
                    let movie = entries[candidate]
                    return movie.isVideo && !used.contains(candidate)
                        && (movie.duration ?? 0) <= longestNamePairedMovie
                        && (movie.contentIdentifier == nil || entries[still].contentIdentifier == nil)
                })
            else { continue }
            used.insert(video)
            used.insert(still)
            groups[still, default: FileGroup(primary: still)].pairedVideo = video
        }
        for index in order where !used.contains(index) {
            groups[index] = FileGroup(primary: index)
        }
        return order.compactMap { groups[$0] }
    }
}
