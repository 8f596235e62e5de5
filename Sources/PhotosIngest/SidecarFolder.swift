import PhotosCore
import PhotosLinux
import PhotosSidecars
import PhotosStore
import Synchronization

/// What decides the sidecars of the photos in one directory: the names in it and the library's
/// originals there, indexed so that one photo's sidecar is found without going over the others.
/// A sync of thousands of photos in one folder (a change block favoriting them, a folder renamed
/// under them) would otherwise list the folder once per photo.
struct SidecarFolder {
    /// Every name in the directory, as listed (nothing when it cannot be listed).
    let names: [String]
    /// The directory's sidecars and library originals (``SidecarNames/Entry``), by ``PhotosCore/PairingName``:
    /// a file's sidecar is among the entries of its stem (`IMG_1.xmp`, `IMG_1.CR2`) and of its
    /// whole name (`IMG_1.JPG.xmp`).
    private(set) var entriesByStem: [String: [SidecarNames.Entry]] = [:]
    /// The strongest kind each library file has, by name.
    private(set) var kinds: [String: SidecarNames.Kind] = [:]
    /// Each asset's photo (its primary file), by the photo's name.
    private(set) var photos: [String: Int64] = [:]
    /// The name of each asset's photo.
    private(set) var photoNames: [Int64: String] = [:]
    /// The assets with a file of each name, lowercased, and with a photo of each stem: those a
    /// sidecar of that name can belong to.
    private(set) var assetsByName: [String: Set<Int64>] = [:]

    init(names: [String], neighbours: [SidecarNeighbour]) {
        self.names = names
        for name in names where name.lowercased().hasSuffix(".xmp") { add(SidecarNames.Entry(name, .other)) }
        for neighbour in neighbours {
            let kind = SidecarSync.kind(of: neighbour)
            kinds[neighbour.name] = max(kinds[neighbour.name] ?? .other, kind)
            add(SidecarNames.Entry(neighbour.name, kind))
            assetsByName[neighbour.name.lowercased(), default: []].insert(neighbour.assetId)
        }
        for (assetID, files) in Dictionary(grouping: neighbours, by: \.assetId) {
            guard let photo = SidecarSync.primaryFile(of: files.map { ($0.type, $0.name) }) else { continue }
            photos[photo] = assetID
            photoNames[assetID] = photo
            assetsByName[PairingName.of(photo), default: []].insert(assetID)
        }
    }

    /// The entries a sidecar choice for `file` looks at: those sharing its stem, and its named sidecars.
    func entries(near file: String) -> [SidecarNames.Entry] {
        let stem = PairingName.of(file)
        let whole = file.lowercased()
        let near = entriesByStem[stem] ?? []
        return whole == stem ? near : near + (entriesByStem[whole] ?? [])
    }

    /// Notes a sidecar this process wrote: later choices in the folder see it as another program would.
    mutating func noteWritten(_ sidecarName: String) {
        let entry = SidecarNames.Entry(sidecarName, .other)
        if entriesByStem[PairingName.of(sidecarName)]?.contains(entry) != true { add(entry) }
    }

    private mutating func add(_ entry: SidecarNames.Entry) {
        entriesByStem[PairingName.of(entry.name), default: []].append(entry)
    }
}

/// The folders a run of syncs listed (``SidecarSync/batched()``), each kept for a second at most:
/// long enough that a folder of thousands of photos is listed a few times rather than once each,
/// short enough that another program's new sidecar is seen about as soon as before.
final class SidecarFolders: Sendable {
    private static let lifetime = Duration.seconds(1)
    private let listed = Mutex<[String: (folder: SidecarFolder, time: ContinuousClock.Instant)]>([:])

    /// The listing of `directory` made less than a second ago, if any.
    func fresh(_ directory: String) -> SidecarFolder? {
        listed.withLock { listed in
            guard let kept = listed[directory], ContinuousClock.now - kept.time < Self.lifetime else { return nil }
            return kept.folder
        }
    }

    /// Keeps `folder`, just listed, for `directory`.
    func keep(_ folder: SidecarFolder, for directory: String) {
        listed.withLock { $0[directory] = (folder, ContinuousClock.now) }
    }

    /// Notes a sidecar written at `path` in the listing of its directory, if one is kept.
    func noteWritten(_ path: String) {
        let directory = PathName.directory(of: path)
        let name = PathName.name(of: path)
        listed.withLock { listed in listed[directory]?.folder.noteWritten(name) }
    }
}
