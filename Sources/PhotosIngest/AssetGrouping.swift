import Foundation
import PhotosCore
import PhotosMetadata
import PhotosSidecars
import PhotosStore

/// Makes one directory's assets match its files: groups the files (``Grouper``), then gives each
/// group one asset, reusing the asset that already holds the group's primary file (so identity,
/// favorites and albums stay), absorbing assets whose files joined another group, and creating
/// assets for groups that have none.
struct AssetGrouping {
    /// A file's resource type when no pairing gives it a role: a photo, a movie or a sound.
    static func resourceType(of kind: MediaKind) -> PHAssetResourceType {
        switch kind {
        case .video: .video
        case .audio: .audio
        case .image, .other: .photo
        }
    }

    let directory: String
    /// Files of the directory read in this batch, with what they say.
    let fresh: [(CrawledFile, FileMetadata)]
    let transaction: LibraryTransaction
    /// The zone floating file dates were read in.
    let timeZone: TimeZone
    /// Files an import placed, with where they came from (``FolderScanner``'s `origins`).
    var origins: [String: String] = [:]
    /// Whether the caller knows the store has no file in the directory (a first scan's new
    /// directory): then it is not asked.
    var storedNothing = false
    /// The sidecars' names in the directory, when its listing in this scan gave them all: a new
    /// asset's sidecars are looked for there, not on disk.
    var listedSidecars: Set<String>?

    /// One file of the directory: read now, or known from the store.
    private enum Member {
        case fresh(CrawledFile, FileMetadata)
        case stored(ResourceRecord)

        var path: String {
            switch self {
            case .fresh(let file, _): file.path
            case .stored(let resource): resource.path
            }
        }
    }

    /// What applying a grouping touched beyond its assets.
    struct Applied {
        /// The burst identifiers of the assets it touched.
        var bursts = Set<String>()
        /// Sidecars of new assets that name another asset's identifier (copied with their photo):
        /// to be synced, which writes the new asset's own identifier where the root allows.
        var sidecarsNamingOthers: [String] = []
        /// Primary files of assets that took another in (its files joined their group): their
        /// sidecars are to be synced, to hold the state the asset took.
        var joinedPhotos: [String] = []
    }

    /// Applies the grouping.
    func apply() throws -> Applied {
        let freshPaths = Set(fresh.map(\.0.path))
        // Only files that can pair with these (and their own stored rows) can change group: a file
        // arriving in a directory of thousands reads a handful of rows, not thousands. A directory
        // the store has nothing in (a new one: every directory of a first scan) has none, and is
        // not looked up by name: a name such as IMG_0001 recurs in thousands of other directories.
        let inDirectory =
            try !storedNothing && transaction.hasFiles(under: directory)
            ? transaction.resources(
                at: freshPaths, inDirectory: directory, pairingWith: Set(fresh.map { PairingName.of($0.0.name) }),
                contentIdentifiers: Set(fresh.compactMap(\.1.contentIdentifier)))
            : []
        let stored = inDirectory.filter { !freshPaths.contains($0.path) }
        let members = fresh.map { Member.fresh($0.0, $0.1) } + stored.map { Member.stored($0) }
        let ownerByPath = Dictionary(inDirectory.map { ($0.path, $0.assetId) }, uniquingKeysWith: { first, _ in first })
        let groups = Grouper.group(members.map(entry))
        // Only groups with a file read now can have changed.
        var applied = Applied()
        // The directory's files as sidecar rules see them, by pairing name (a sidecar's owner is among
        // the files of its stem): made once, at the first new asset with a sidecar. Made per asset,
        // they cost a directory of 500 photos with sidecars 250,000 entries.
        var sidecarEntries: [String: [SidecarNames.Entry]]?
        for group in groups {
            let roles: [(Int, PHAssetResourceType?)] =
                [(group.primary, nil)]
                + [
                    group.pairedVideo.map { ($0, .pairedVideo) },
                    group.alternatePhoto.map {
                        ($0, .alternatePhoto)
                    },
                ].compactMap { $0 }
            guard roles.contains(where: { if case .fresh = members[$0.0] { true } else { false } }) else { continue }
            try apply(
                group: roles, members: members, owners: ownerByPath, sidecarEntries: &sidecarEntries, to: &applied)
        }
        return applied
    }

    private func entry(_ member: Member) -> GroupEntry {
        switch member {
        case .fresh(let file, let metadata):
            let isRAW = metadata.isRAW
            return GroupEntry(
                name: file.name, isImage: metadata.kind == .image, isVideo: metadata.kind == .video, isRAW: isRAW,
                contentIdentifier: metadata.contentIdentifier, duration: metadata.duration)
        case .stored(let resource):
            return Self.entry(resource)
        }
    }

    /// A stored file as the grouping sees it (its movie's length unknown).
    private static func entry(_ resource: ResourceRecord) -> GroupEntry {
        let type = PHAssetResourceType(rawValue: resource.type) ?? .photo
        let isVideo = type == .video || type == .pairedVideo
        return GroupEntry(
            name: resource.originalFilename, isImage: !isVideo, isVideo: isVideo,
            isRAW: resource.uniformTypeIdentifier.map(RAWTypes.contains) ?? false,
            contentIdentifier: resource.contentIdentifier, duration: nil)
    }

    /// The paths of the files among a directory's `stored` ones that would group with files of
    /// another asset: after files moved into the directory (a JPEG put beside its RAW, a Live
    /// Photo's movie brought back to its still), what to read again so that the grouping joins them
    /// as a scan of the folder would. A movie's length is not stored, so a long movie named as a
    /// still is named here too; its reading then leaves the two apart.
    static func filesJoiningOtherAssets(_ stored: [ResourceRecord]) -> [String] {
        let groups = Grouper.group(stored.map(entry))
        var paths: [String] = []
        for group in groups {
            let members = [group.primary, group.pairedVideo, group.alternatePhoto].compactMap { $0 }
            guard Set(members.map { stored[$0].assetId }).count > 1 else { continue }
            paths += members.map { stored[$0].path }
        }
        return paths
    }

    /// The sidecars that can belong to a new file: from the directory's listing, or a few lstat
    /// calls, not a listing of its directory per file that arrives. An imported file's sidecars are
    /// the ones its import placed beside it: an import gives a group a name no file of its folder
    /// starts with, so nothing else can be there.
    private func sidecars(of file: CrawledFile) -> [String] {
        if origins[file.path] != nil {
            return SidecarSync.sidecarNames(of: file.path).filter { origins[directory + "/" + $0] != nil }
        }
        guard let listedSidecars else { return SidecarSync.sidecarsBeside(file.path) }
        return listedSidecars.isEmpty ? [] : SidecarSync.sidecarNames(of: file.path).filter(listedSidecars.contains)
    }

    /// What a member is, for owning a sidecar (``PhotosSidecars/SidecarNames``).
    private func sidecarEntry(_ member: Member) -> SidecarNames.Entry {
        let entry = entry(member)
        let name = PathName.name(of: member.path)
        let kind: SidecarNames.Kind = entry.isRAW ? .raw : entry.isVideo ? .video : entry.isImage ? .image : .other
        return SidecarNames.Entry(name, kind)
    }

    /// Gives one group one asset; adds to `applied` the bursts whose representative may have
    /// changed: its burst, and the one it was in before when its file now says another or none (a
    /// frame replaced by another photo under its name). A new asset takes the user state of the
    /// sidecar beside its primary file, and that sidecar's state becomes the base of later merges;
    /// its other files' own sidecars fill what that one does not say.
    private func apply(
        group roles: [(Int, PHAssetResourceType?)], members: [Member], owners: [String: Int64],
        sidecarEntries: inout [String: [SidecarNames.Entry]]?, to applied: inout Applied
    ) throws {
        let primary = members[roles[0].0]
        let ownerIDs = roles.compactMap { owners[members[$0.0].path] }
        let target = owners[primary.path] ?? ownerIDs.first

        var resources: [ResourceRecord] = []
        for (index, role) in roles {
            switch members[index] {
            case .fresh(let file, let metadata):
                let type = role ?? Self.resourceType(of: metadata.kind)
                resources.append(AssetFactory.resource(for: file, metadata: metadata, type: type))
            case .stored(var resource):
                // A file keeps its row but takes the role this grouping gives it: a movie that was
                // its own asset becomes a paired video, a RAW left alone becomes a photo.
                let wasVideo =
                    resource.type == PHAssetResourceType.video.rawValue
                    || resource.type == PHAssetResourceType.pairedVideo.rawValue
                let wasAudio = resource.type == PHAssetResourceType.audio.rawValue
                resource.id = nil
                resource.type = (role ?? (wasVideo ? .video : wasAudio ? .audio : .photo)).rawValue
                resources.append(resource)
            }
        }

        var record: AssetRecord
        if let target, let existing = try transaction.asset(id: target) {
            record = existing
        } else {
            record = AssetRecord(localIdentifier: LocalIdentifier.make(.asset), mediaType: .image)
        }
        let formerBurst = record.burstIdentifier
        if case .fresh(let file, let metadata) = primary {
            AssetFactory.apply(metadata, file: file, timeZone: timeZone, to: &record)
        }
        // Out of every burst, it represents none: its former burst picks another representative.
        if record.burstIdentifier == nil { record.representsBurst = false }
        let live = roles.contains { $0.1 == .pairedVideo }
        let liveBit = Int64(PHAssetMediaSubtype.photoLive.rawValue)
        record.mediaSubtypes = live ? record.mediaSubtypes | liveBit : record.mediaSubtypes & ~liveBit
        if roles.contains(where: { $0.1 == .alternatePhoto }) { record.isRAW = true }

        if let target, record.id != nil {
            try transaction.updateAsset(record, properties: ["content"])
            try transaction.replaceResources(ofAsset: target, with: resources)
        } else {
            // The sidecar of each new file of the group, the primary's first (the asset's).
            var read: [SidecarSync.Ingested] = []
            var ingested: SidecarSync.Ingested?
            for (index, _) in roles {
                guard case .fresh(let file, _) = members[index], case let sidecars = sidecars(of: file),
                    !sidecars.isEmpty
                else { continue }
                let entries =
                    sidecarEntries ?? Dictionary(grouping: members.map(sidecarEntry)) { PairingName.of($0.name) }
                sidecarEntries = entries
                if let found = SidecarSync.read(
                    for: file.name, kind: sidecarEntry(members[index]).kind, in: directory, sidecars: sidecars,
                    files: entries[PairingName.of(file.name)] ?? []), !read.contains(where: { $0.path == found.path })
                {
                    read.append(found)
                    if index == roles[0].0 { ingested = found }
                }
            }
            // The primary's sidecar is the asset's; a partner's own (a RAW's `IMG_1.CR2.xmp`, written
            // while it was an asset of its own) fills what that one does not say, so a pair made of
            // two assets' files (a rebuild, a JPEG put beside a lone RAW) keeps the state of both.
            if var state = read.first?.state {
                for partner in read.dropFirst() { state = SidecarSync.filled(state, from: partner.state) }
                let namesAnother = try SidecarSync.take(state, into: &record, timeZone: timeZone) {
                    try transaction.asset(withLocalIdentifier: $0) == nil
                }
                if namesAnother, let ingested { applied.sidecarsNamingOthers.append(ingested.path) }
            }
            let id = try transaction.insertAsset(record, resources: resources)
            if let ingested { try transaction.setSidecarBase(SidecarSync.base(assetID: id, ingested: ingested)) }
            if let source = origins[primary.path] {
                transaction.noteImport(
                    ImportOrigin(localIdentifier: record.localIdentifier, source: source, path: primary.path))
            }
        }
        // Assets whose files joined this group are absorbed, with what the user set on them.
        let paths = Set(roles.map { members[$0.0].path })
        var joined = false
        for other in Set(ownerIDs).sorted() where other != target {
            joined = try transaction.removeResources(ofAsset: other, atPaths: paths, absorbedInto: target) || joined
        }
        if joined { applied.joinedPhotos.append(primary.path) }
        for burst in [record.burstIdentifier, formerBurst == record.burstIdentifier ? nil : formerBurst] {
            if let burst { applied.bursts.insert(burst) }
        }
    }
}
