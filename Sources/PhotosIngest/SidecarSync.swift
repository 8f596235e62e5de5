import Foundation
import PhotosCore
import PhotosLinux
import PhotosMetadata
import PhotosSidecars
import PhotosStore

/// Keeps an asset and its XMP sidecar in step: the one place where the library's user state
/// (favorite, hidden, rating, date, place, identifier) meets the sidecar's.
///
/// A sync reads the sidecar, merges it three ways (``PhotosSidecars/SidecarMerge``) with the
/// library's state against the base the library last wrote or read (``PhotosStore/SidecarBase``),
/// applies to the library what only the sidecar changed (an ordinary change: observers, hooks and
/// the API see it), writes the sidecar when the library changed something and may write there, and
/// stores the merged state as the new base. Run after a change block that edited the asset (the file
/// journal's `sidecar` entries) and when another tool changed the sidecar (photosd's watcher).
///
/// ```swift
/// let sync = SidecarSync(database: library.database)
/// if let outcome = try sync.sync(assetID: id, photo: "/photos/IMG_1.JPG", mayWrite: true) {
///     print(outcome.sidecar)   // /photos/IMG_1.JPG.xmp
/// }
/// ```
public struct SidecarSync: Sendable {
    /// The library.
    public let database: LibraryDatabase
    /// The time zone floating dates (no UTC offset) are read in, as the scanner reads files.
    public var timeZone: TimeZone

    /// The folders a run of syncs keeps listed (``batched()``); nil: each sync lists its folder.
    private let folders: SidecarFolders?

    /// A sync of `database`'s assets.
    public init(database: LibraryDatabase, timeZone: TimeZone = .current) {
        self.database = database
        self.timeZone = timeZone
        self.folders = nil
    }

    private init(_ sync: SidecarSync, folders: SidecarFolders) {
        self.database = sync.database
        self.timeZone = sync.timeZone
        self.folders = folders
    }

    /// The same sync for a run of many (a change block's sidecars, a scan's moved photos or changed
    /// sidecars): each folder's names and the library's files there are listed once a second at most,
    /// however many of its photos the run syncs, and the sidecars it writes are noted in them.
    /// Without it a run over a folder of N photos lists the folder N times.
    public func batched() -> SidecarSync { SidecarSync(self, folders: SidecarFolders()) }

    /// What decides the sidecars in `directory`: kept by a batched run while fresh, else listed now.
    func folder(_ directory: String) throws -> SidecarFolder {
        if let kept = folders?.fresh(directory) { return kept }
        let folder = SidecarFolder(
            names: (try? FileOperations.names(in: directory)) ?? [],
            neighbours: try database.sidecarNeighbours(inDirectory: directory))
        folders?.keep(folder, for: directory)
        return folder
    }

    /// The names in `directory`, as a batched run last listed them (or listed now).
    public func names(inDirectory directory: String) throws -> [String] { try folder(directory).names }

    /// The points a sync passes, for tests that stop it there as a killed process would stop.
    public enum Step: String, Sendable, CaseIterable {
        /// The sidecar is read and merged, and the library took the sidecar's changes; nothing is written.
        case merged
        /// The sidecar is written; its new base is not stored yet.
        case written
    }

    /// What a sync did.
    public struct Outcome: Sendable {
        /// The sidecar's path.
        public var sidecar: String
        /// Whether the sidecar was written.
        public var wrote: Bool
        /// The fields taken from the sidecar into the library.
        public var taken: Set<SidecarField>
        /// Fields both sides changed; the newer write's value was kept.
        public var conflicts: [SidecarMerge.Conflict]
        /// The change-log token of the change that applied the sidecar's fields, if any.
        public var token: Int64?
    }

    /// Brings the sidecar of `assetID`, whose photo is `photo`, and the asset up to date with each
    /// other. Writes only when `mayWrite` (the root's policy allows it; the sidecar is read anyway).
    /// Returns nil when the asset is gone. `checkpoint` is called at each ``Step``.
    @discardableResult
    public func sync(
        assetID: Int64, photo: String, mayWrite: Bool, checkpoint: (Step) throws -> Void = { _ in }
    ) throws -> Outcome? {
        var attempts = 0
        while true {
            do {
                return try syncOnce(assetID: assetID, photo: photo, mayWrite: mayWrite, checkpoint: checkpoint)
            } catch let error as SidecarError where error.code == .changedWhileWriting && attempts < 3 {
                // Another program wrote the sidecar between the read and the write: merge again.
                attempts += 1
            }
        }
    }

    private func syncOnce(
        assetID: Int64, photo: String, mayWrite: Bool, checkpoint: (Step) throws -> Void
    ) throws -> Outcome? {
        guard let asset = try database.assets(ids: [assetID])[assetID] else { return nil }
        let sidecar = try sidecarPath(forPhoto: photo)
        let contents = try SidecarFile.read(sidecar)
        let stored = try database.sidecarBase(ofAsset: assetID)
        // What the sidecar says; a field it does not state (no file, or a tool that dropped the
        // library's properties when it rewrote the file) is no edit: it counts as the base.
        let said = contents?.state ?? SidecarState()
        // A sidecar that names another asset was that asset's (a photo moved over another's name
        // left that one's sidecar there): nothing in it is an edit of this photo, and the library's
        // state is written over the library's fields; other tools' bytes stay.
        let namesAnother = said.localIdentifier.map { $0 != asset.localIdentifier } ?? false
        let base =
            namesAnother
            ? said
            : stored.flatMap { $0.path == sidecar ? SidecarBaseCoding.decode($0.state) : nil }
                ?? Self.firstBase(ours: state(of: asset, passingThrough: said), theirs: said)
        let theirs = Self.filled(said, from: base)
        let ours = state(of: asset, passingThrough: theirs)
        let merge = SidecarMerge(
            base: base, ours: ours, theirs: theirs, oursTime: asset.modificationDate ?? 0,
            theirsTime: contents?.identity.modificationTime ?? 0)
        let conflicts = merge.conflicts.map { conflict in
            SidecarConflict(
                localIdentifier: asset.localIdentifier, sidecar: sidecar, field: conflict.field.rawValue,
                libraryValue: conflict.ours.map { "\($0)" }, sidecarValue: conflict.theirs.map { "\($0)" },
                kept: conflict.winner == .ours ? .library : .sidecar)
        }
        let token = try apply(merge.takenFromTheirs, from: merge.result, to: asset, conflicts: conflicts)
        try checkpoint(.merged)
        var identity = contents?.identity
        // Written when the library changed a field, and when the file lacks one the merge holds
        // (never written yet, or a tool rewrote it without the library's properties).
        let lacking = SidecarField.allCases.contains { merge.result.value(of: $0) != said.value(of: $0) }
        let wrote = mayWrite && (merge.needsWrite || lacking)
        if wrote {
            identity = try SidecarFile.write(merge.result, to: sidecar, expecting: .some(contents?.identity)).identity
            if contents == nil { folders?.noteWritten(sidecar) }
            try checkpoint(.written)
        }
        // The base is what the sidecar now says: the merge when written, else what was read
        // (a field the library won stays to be written where it may be).
        try database.setSidecarBase(
            SidecarBase(
                assetId: assetID, path: sidecar, state: SidecarBaseCoding.encode(wrote ? merge.result : theirs),
                modificationTime: identity?.modificationTime))
        return Outcome(
            sidecar: sidecar, wrote: wrote, taken: merge.takenFromTheirs, conflicts: merge.conflicts, token: token)
    }

    /// Takes into the library what another tool changed in the sidecar at `path` (a `.xmp` file
    /// that appeared or changed): every asset whose sidecar it is is synced, the sidecar written
    /// back only where `mayWrite` says the photo's root allows it. Returns what each sync did.
    public func syncChangedSidecar(at path: String, mayWrite: (String) -> Bool) throws -> [Outcome] {
        // A sidecar removed is no edit: the library keeps its state (and does not make the file again).
        guard try FileOperations.identity(path, followingLinks: true) != nil else { return [] }
        let directory = PathName.directory(of: path)
        let name = PathName.name(of: path).lowercased()
        guard name.hasSuffix(".xmp") else { return [] }
        // The assets whose photo is named so or has that stem, or with any file of that name.
        let folder = try folder(directory)
        let named = String(name.dropLast(4))
        var candidates: [Int64: String] = [:]
        for assetID in folder.assetsByName[named] ?? [] {
            if let photo = folder.photoNames[assetID] { candidates[assetID] = directory + "/" + photo }
        }
        var outcomes: [Outcome] = []
        for (assetID, photo) in candidates.sorted(by: { $0.key < $1.key }) {
            guard try sidecarPath(forPhoto: photo) == path else { continue }
            if let outcome = try sync(assetID: assetID, photo: photo, mayWrite: mayWrite(photo)) {
                outcomes.append(outcome)
            }
        }
        return outcomes
    }

    /// Writes the sidecars beside photos a scan found moved to `paths`, where their assets' state
    /// never reached one: an edit made while a photo was away from the path the library knew (moved by
    /// another program, not yet seen) had no photo to write beside. A sidecar there that names
    /// another asset (that photo's, left behind when this one was moved over it) is made this
    /// one's, the library's state winning. Nothing for a path `mayWrite` refuses, one with its own
    /// sidecar there already (its own sync takes it), one that is not an asset's photo, or one
    /// whose asset has nothing a sidecar keeps (no favorite, hidden flag or stars, and never synced
    /// before). Each folder's files are listed once, however many photos moved into it.
    /// Returns what each sync did, or why it failed, in the order of `paths`.
    public func syncMovedPhotos(
        at paths: [String], mayWrite: (String) -> Bool
    ) -> [(photo: String, outcome: Result<Outcome?, any Error>)] {
        let run = folders == nil ? batched() : self
        return paths.map { path in
            let outcome = Result { () throws -> Outcome? in
                let name = PathName.name(of: path)
                guard mayWrite(path), !Reconciliation.isSidecar(name),
                    let assetID = try run.folder(PathName.directory(of: path)).photos[name],
                    let asset = try database.assets(ids: [assetID])[assetID]
                else { return nil }
                let sidecar = try run.sidecarPath(forPhoto: path)
                if try FileOperations.identity(sidecar, followingLinks: true) != nil {
                    // Another photo's sidecar at this name (`mv a.jpg b.jpg` left b.xmp): made this
                    // one's, or a rebuild would give this photo that one's identifier and state.
                    guard let named = try SidecarFile.read(sidecar)?.state.localIdentifier,
                        named != asset.localIdentifier
                    else { return nil }
                    return try run.sync(assetID: assetID, photo: path, mayWrite: true)
                }
                let kept = asset.isFavorite || asset.isHidden || asset.rating != 0
                guard try kept || database.sidecarBase(ofAsset: assetID) != nil else { return nil }
                return try run.sync(assetID: assetID, photo: path, mayWrite: true)
            }
            return (path, outcome)
        }
    }

    /// Writes to the sidecars of photos whose assets took another in (a file moved beside its
    /// partner: ``ScanReport/joinedPhotos``) the state they took, where `mayWrite` allows: a sidecar
    /// there is synced (the other asset's favorite, stars and albums reach it, and a rebuild finds
    /// them), and where there is none one is written as for a moved photo
    /// (``syncMovedPhotos(at:mayWrite:)``: only when the asset has something a sidecar keeps).
    /// Returns what each sync did, or why it failed, in the order of `paths`.
    public func syncJoinedPhotos(
        at paths: [String], mayWrite: (String) -> Bool
    ) -> [(photo: String, outcome: Result<Outcome?, any Error>)] {
        let run = folders == nil ? batched() : self
        return paths.map { path in
            let outcome = Result { () throws -> Outcome? in
                guard mayWrite(path),
                    let assetID = try run.folder(PathName.directory(of: path)).photos[PathName.name(of: path)]
                else { return nil }
                guard try FileOperations.identity(try run.sidecarPath(forPhoto: path), followingLinks: true) != nil
                else { return try run.syncMovedPhotos(at: [path], mayWrite: mayWrite).first?.outcome.get() }
                return try run.sync(assetID: assetID, photo: path, mayWrite: true)
            }
            return (path, outcome)
        }
    }

    // MARK: The library's side

    /// The library's state of `asset` as a sidecar holds it. Fields the library does not keep per
    /// asset here (albums, pair, adjustment) are the sidecar's, so a merge never drops them; a reject
    /// (`xmp:Rating` -1, which `PHAssetRating` cannot hold) stays while the library has no stars.
    /// A creation date that is only the photo's modification time (``AssetRecord/creationDateIsFileTime``:
    /// the scanner's last resort for a file that states none) is no date taken, and is not written.
    func state(of asset: AssetRecord, passingThrough theirs: SidecarState) -> SidecarState {
        var state = SidecarState(
            localIdentifier: asset.localIdentifier, rating: Int(asset.rating), isFavorite: asset.isFavorite,
            isHidden: asset.isHidden, albums: theirs.albums, pair: theirs.pair, adjustment: theirs.adjustment)
        if asset.rating == 0, theirs.rating == -1 { state.rating = -1 }
        if let date = asset.creationDate, !asset.creationDateIsFileTime {
            if asset.creationDateIsFloating {
                // The zone it was read in (the scanner keeps its offset), else this sync's.
                let offset =
                    asset.creationDateOffset ?? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: date))
                var local = SidecarDate(secondsSince1970: date, utcOffsetSeconds: offset)
                local.utcOffsetSeconds = nil
                state.creationDate = local
            } else {
                state.creationDate = SidecarDate(
                    secondsSince1970: date, utcOffsetSeconds: asset.creationDateOffset ?? 0)
            }
        }
        if let latitude = asset.latitude, let longitude = asset.longitude {
            state.location = SidecarLocation(latitude: latitude, longitude: longitude, altitude: asset.altitude)
        }
        return state
    }

    /// `said` with the fields it does not state taken from `base`.
    static func filled(_ said: SidecarState, from base: SidecarState) -> SidecarState {
        var state = said
        for field in SidecarField.allCases where said.value(of: field) == nil { state.take(field, from: base) }
        return state
    }

    /// The base of a first sync, when the library never wrote or read this sidecar: a field the
    /// library holds at its default (no stars, no date) is the sidecar's to give; one the library
    /// set is the library's to write (no conflict is reported for either).
    static func firstBase(ours: SidecarState, theirs: SidecarState) -> SidecarState {
        var base = SidecarState()
        for field in SidecarField.allCases {
            let isDefault: Bool
            switch field {
            case .rating: isDefault = (ours.rating ?? 0) == 0
            case .isFavorite: isDefault = ours.isFavorite != true
            case .isHidden: isDefault = ours.isHidden != true
            case .creationDate, .location, .albums, .pair, .adjustment: isDefault = true
            case .localIdentifier: isDefault = false
            }
            base.take(field, from: isDefault ? ours : theirs)
        }
        return base
    }

    /// Applies the fields taken from the sidecar to the asset, as one ordinary change; returns its token.
    /// Takes `fields` of `state` into the asset in one change, carrying the merge's `conflicts`;
    /// nil when nothing differs (the conflicts then only reach the log).
    func apply(
        _ fields: Set<SidecarField>, from state: SidecarState, to asset: AssetRecord, conflicts: [SidecarConflict] = []
    ) throws -> Int64? {
        let (columns, properties) = Self.columns(for: fields, from: state, asset: asset, timeZone: timeZone)
        guard !columns.isEmpty else { return nil }
        let now = Date().timeIntervalSince1970
        return try database.write { transaction in
            try transaction.updateAsset(
                localIdentifier: asset.localIdentifier, setting: columns + [("modificationDate", .double(now))],
                properties: properties)
            transaction.noteSidecarConflicts(conflicts)
        }.token
    }

    /// The asset columns and PhotoKit properties that `fields` of `state` set, leaving out values the
    /// asset already has and values it cannot hold (a reject, a date out of range).
    static func columns(
        for fields: Set<SidecarField>, from state: SidecarState, asset: AssetRecord, timeZone: TimeZone
    ) -> (columns: [(column: String, value: SQLValue)], properties: [String]) {
        var columns: [(column: String, value: SQLValue)] = []
        var properties: [String] = []
        if fields.contains(.rating), let rating = state.rating, (0...5).contains(rating), rating != asset.rating {
            columns.append(("rating", .int(Int64(rating))))
            properties.append("rating")
        }
        if fields.contains(.isFavorite), let favorite = state.isFavorite, favorite != asset.isFavorite {
            columns.append(("isFavorite", .int(favorite ? 1 : 0)))
            properties.append("isFavorite")
        }
        if fields.contains(.isHidden), let hidden = state.isHidden, hidden != asset.isHidden {
            columns.append(("isHidden", .int(hidden ? 1 : 0)))
            properties.append("isHidden")
        }
        if fields.contains(.creationDate), let date = state.creationDate {
            let seconds = date.secondsSince1970(
                floatingOffsetSeconds: timeZone.secondsFromGMT(
                    for: Date(timeIntervalSince1970: date.secondsSince1970())))
            columns += [
                ("creationDate", .double(seconds)),
                ("creationDateOffset", date.utcOffsetSeconds.map { .int(Int64($0)) } ?? .null),
                ("creationDateIsFloating", .int(date.utcOffsetSeconds == nil ? 1 : 0)),
                ("creationDateIsFileTime", .int(0)),
            ]
            properties.append("creationDate")
        }
        if fields.contains(.location), !samePlace(state.location, asset) {
            let place = state.location
            columns += [
                ("latitude", place.map { .double($0.latitude) } ?? .null),
                ("longitude", place.map { .double($0.longitude) } ?? .null),
                ("altitude", place?.altitude.map { .double($0) } ?? .null),
                // A sidecar states no speed nor course: the file's belong to the file's place.
                ("speed", .null), ("course", .null),
            ]
            properties.append("location")
        }
        return (columns, properties)
    }

    /// Whether the sidecar's place is the asset's, to what a sidecar can say: degrees and minutes
    /// with six decimals (a few millimetres) and the altitude in centimetres. The asset's own,
    /// more precise, value is then kept: a sidecar the library wrote gives back what it was given.
    static func samePlace(_ place: SidecarLocation?, _ asset: AssetRecord) -> Bool {
        guard let place, let latitude = asset.latitude, let longitude = asset.longitude else {
            return place == nil && asset.latitude == nil && asset.longitude == nil
        }
        guard abs(place.latitude - latitude) < 1e-6, abs(place.longitude - longitude) < 1e-6 else { return false }
        switch (place.altitude, asset.altitude) {
        case (nil, nil): return true
        case (let written?, let kept?): return abs(written - kept) <= 0.005 + 1e-9
        default: return false
        }
    }

    // MARK: Which sidecar

    /// The sidecar of the photo at `photo` (``PhotosSidecars/SidecarNames``): `IMG_1.JPG.xmp`, or an
    /// `IMG_1.xmp` that belongs to it, among the directory's sidecars and the library's files there.
    public func sidecarPath(forPhoto photo: String) throws -> String {
        let directory = PathName.directory(of: photo)
        let name = PathName.name(of: photo)
        let folder = try folder(directory)
        let entries = folder.entries(near: name)
        let stem = PairingName.of(name) + ".xmp"
        // A stem sidecar that cannot be read says nothing about whose it is.
        let stemSidecarFor = entries.first { $0.name.lowercased() == stem }.flatMap {
            (try? SidecarFile.read(directory + "/" + $0.name))?.sidecarForExtension
        }
        let choice = SidecarNames.sidecar(
            for: name, kind: folder.kinds[name] ?? .other, among: entries, stemSidecarFor: stemSidecarFor)
        return directory + "/" + choice.name
    }

    /// What a library file is, for owning a stem sidecar.
    static func kind(of file: SidecarNeighbour) -> SidecarNames.Kind {
        if file.uniformTypeIdentifier.map(RAWTypes.contains) == true { return .raw }
        switch PHAssetResourceType(rawValue: file.type) {
        case .alternatePhoto: return .raw
        case .photo, .fullSizePhoto: return .image
        case .video, .pairedVideo, .fullSizeVideo, .fullSizePairedVideo: return .video
        default: return .other
        }
    }

    /// The photo whose sidecar a change writes: the asset's first original in type order (the
    /// photo, else the video).
    public static func primaryFile(of resources: [(type: Int, path: String)]) -> String? {
        let originals: [PHAssetResourceType] = [.photo, .video, .audio, .alternatePhoto]
        return
            resources
            .filter { PHAssetResourceType(rawValue: $0.type).map(originals.contains) ?? false }
            .min { $0.type < $1.type }?.path
    }
}

/// The stored form of a merge base (JSON): every field of a ``PhotosSidecars/SidecarState``.
enum SidecarBaseCoding {
    private struct Stored: Codable {
        var localIdentifier: String?
        var rating: Int?
        var isFavorite: Bool?
        var isHidden: Bool?
        var date: [Int]?
        var offset: Int?
        var place: [Double]?
        var albums: [[String]]?
        var pair: [String]?
        var adjustment: [String]?
    }

    static func encode(_ state: SidecarState) -> String {
        var stored = Stored(
            localIdentifier: state.localIdentifier, rating: state.rating, isFavorite: state.isFavorite,
            isHidden: state.isHidden)
        if let date = state.creationDate {
            stored.date = [date.year, date.month, date.day, date.hour, date.minute, date.second, date.nanosecond]
            stored.offset = date.utcOffsetSeconds
        }
        if let place = state.location {
            stored.place = [place.latitude, place.longitude] + (place.altitude.map { [$0] } ?? [])
        }
        if !state.albums.isEmpty {
            stored.albums = state.albums.sorted().map { [$0.identifier] + ($0.title.map { [$0] } ?? []) }
        }
        stored.pair = state.pair.map { [$0.kind.rawValue, $0.file] }
        stored.adjustment = state.adjustment.map { [$0.formatIdentifier, $0.formatVersion, $0.data] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(stored)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    static func decode(_ text: String) -> SidecarState? {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        var state = SidecarState(
            localIdentifier: stored.localIdentifier, rating: stored.rating, isFavorite: stored.isFavorite,
            isHidden: stored.isHidden)
        if let date = stored.date, date.count == 7 {
            state.creationDate = SidecarDate(
                year: date[0], month: date[1], day: date[2], hour: date[3], minute: date[4], second: date[5],
                nanosecond: date[6], utcOffsetSeconds: stored.offset)
        }
        if let place = stored.place, place.count >= 2 {
            state.location = SidecarLocation(
                latitude: place[0], longitude: place[1], altitude: place.count > 2 ? place[2] : nil)
        }
        state.albums = Set(
            (stored.albums ?? []).compactMap { album in
                album.first.map { SidecarAlbum(identifier: $0, title: album.count > 1 ? album[1] : nil) }
            })
        if let pair = stored.pair, pair.count == 2 {
            state.pair = SidecarPair(kind: SidecarPair.Kind(rawValue: pair[0]), file: pair[1])
        }
        if let adjustment = stored.adjustment, adjustment.count == 3 {
            state.adjustment = SidecarAdjustment(
                formatIdentifier: adjustment[0], formatVersion: adjustment[1], data: adjustment[2])
        }
        return state
    }
}

// MARK: Reading at ingest

extension SidecarSync {
    /// A sidecar read beside a new photo at ingest: its path and what it says.
    struct Ingested {
        var path: String
        var state: SidecarState
    }

    /// The names of the sidecars that can belong to the file at `path`: `IMG_1.JPG.xmp` and `IMG_1.xmp`
    /// as they are there, `.xmp` or `.XMP` (other spellings are found by a sync, which lists the directory).
    static func sidecarsBeside(_ path: String) -> [String] {
        let directory = PathName.directory(of: path)
        return sidecarNames(of: path).filter {
            (try? FileOperations.identity(directory + "/" + $0, followingLinks: true)) != nil
        }
    }

    /// The names ``sidecarsBeside(_:)`` looks for, whether or not they are there.
    static func sidecarNames(of path: String) -> [String] {
        let name = PathName.name(of: path)
        let stem = (name as NSString).deletingPathExtension
        var candidates = [name + ".xmp", name + ".XMP"]
        if stem != name { candidates += [stem + ".xmp", stem + ".XMP"] }
        return candidates
    }

    /// The sidecar of `name` in `directory`, read, when one is there: `sidecars` are the directory's
    /// `.xmp` names, `files` the media the photo's sidecar could belong to (its pair among them).
    /// A sidecar that cannot be read is passed over: the photo is ingested without it.
    static func read(
        for name: String, kind: SidecarNames.Kind, in directory: String, sidecars: [String],
        files: [SidecarNames.Entry]
    ) -> Ingested? {
        guard !sidecars.isEmpty else { return nil }
        let entries = sidecars.map { SidecarNames.Entry($0, .other) } + files
        let stem = PairingName.of(name) + ".xmp"
        let stemSidecarFor = sidecars.first { $0.lowercased() == stem }.flatMap {
            (try? SidecarFile.read(directory + "/" + $0))?.sidecarForExtension
        }
        let choice = SidecarNames.sidecar(for: name, kind: kind, among: entries, stemSidecarFor: stemSidecarFor)
        guard choice.exists, let contents = try? SidecarFile.read(directory + "/" + choice.name) else { return nil }
        return Ingested(path: directory + "/" + choice.name, state: contents.state)
    }

    /// Gives a new asset the user state its sidecar holds (rating, favorite, hidden, date, place),
    /// and its identifier when no other asset has it (the same asset after a rebuild). Returns
    /// whether the sidecar names an identifier the asset could not take (another asset's: the photo
    /// and its sidecar were copied), so that the sidecar is synced to name the asset's own.
    @discardableResult
    static func take(
        _ state: SidecarState, into record: inout AssetRecord, timeZone: TimeZone,
        identifierIsFree: (String) throws -> Bool
    ) rethrows -> Bool {
        let fields = Set(SidecarField.allCases).subtracting([.localIdentifier])
        let (columns, _) = Self.columns(for: fields, from: state, asset: record, timeZone: timeZone)
        for (column, value) in columns {
            switch (column, value) {
            case ("rating", .int(let stars)): record.rating = stars
            case ("isFavorite", .int(let flag)): record.isFavorite = flag != 0
            case ("isHidden", .int(let flag)): record.isHidden = flag != 0
            case ("creationDate", .double(let seconds)):
                record.creationDate = seconds
                record.creationDateIsFileTime = false
            case ("creationDateOffset", .int(let offset)): record.creationDateOffset = Int(offset)
            case ("creationDateIsFloating", .int(let flag)):
                record.creationDateIsFloating = flag != 0
                // A floating time keeps the offset of the zone it was read in (as the scanner's).
                if flag != 0, let seconds = record.creationDate {
                    record.creationDateOffset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
                }
            case ("latitude", .double(let degrees)):
                record.latitude = degrees
                // The sidecar's place replaces the file's, whose speed and course go with it.
                (record.speed, record.course) = (nil, nil)
            case ("longitude", .double(let degrees)): record.longitude = degrees
            case ("altitude", .double(let metres)): record.altitude = metres
            default: break
            }
        }
        let suffix = LocalIdentifier.suffix(.asset)
        if let identifier = state.localIdentifier, identifier.hasSuffix(suffix),
            UUID(uuidString: String(identifier.dropLast(suffix.count))) != nil
        {
            guard try identifierIsFree(identifier) else { return true }
            record.localIdentifier = identifier
        }
        return false
    }

    /// The base stored for a sidecar read at ingest: what it said.
    static func base(assetID: Int64, ingested: Ingested) -> SidecarBase {
        SidecarBase(
            assetId: assetID, path: ingested.path, state: SidecarBaseCoding.encode(ingested.state),
            modificationTime: try? FileOperations.identity(ingested.path, followingLinks: true)?.modificationTime)
    }
}
