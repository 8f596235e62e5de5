import Foundation

/// The files of a drop folder that make one asset, as the grouper makes them, with the sidecars
/// beside them: what an import moves together.
public struct ImportGroup: Sendable, Hashable {
    /// What a file is to its asset.
    public enum Role: String, Sendable, Hashable, Codable {
        /// The photo or movie the asset is.
        case primary
        /// A Live Photo's movie.
        case pairedVideo
        /// The RAW of a RAW+JPEG pair.
        case alternatePhoto
        /// A file that describes another: `.xmp` (`IMG_1.JPG.xmp` or `IMG_1.xmp`), `.aae`, `.THM`.
        case sidecar
    }

    /// One file of the group.
    public struct Member: Sendable, Hashable {
        /// The file's absolute path.
        public var path: String
        /// What it is to the asset.
        public var role: Role

        /// A member.
        public init(path: String, role: Role) {
            self.path = path
            self.role = role
        }
    }

    /// The files, the primary first.
    public private(set) var members: [Member]

    /// A group: its primary file, its partners and its sidecars (absolute paths).
    public init(primary: String, pairedVideo: String? = nil, alternatePhoto: String? = nil, sidecars: [String] = []) {
        members = [Member(path: primary, role: .primary)]
        if let pairedVideo { members.append(Member(path: pairedVideo, role: .pairedVideo)) }
        if let alternatePhoto { members.append(Member(path: alternatePhoto, role: .alternatePhoto)) }
        members += sidecars.map { Member(path: $0, role: .sidecar) }
    }

    /// The primary file's path.
    public var primary: String { members[0].path }
}

/// Where one group goes: each file's destination, all under one new stem in one folder.
public struct ImportGroupPlan: Sendable, Hashable {
    /// One file's move (or copy).
    public struct Move: Sendable, Hashable {
        /// Where the file is.
        public var source: String
        /// Where it goes: nothing is there, nor planned there in this run.
        public var destination: String
        /// What it is to the asset.
        public var role: ImportGroup.Role
    }

    /// The group's files, in the group's order (the primary first).
    public var moves: [Move]
    /// The folder they go to (the import's `to`, or a folder the layout names under it).
    public var folder: String
    /// The stem they share, with a clash's suffix or the counter's number.
    public var stem: String
    /// The date the asset is filed by.
    public var date: Date
    /// The UTC offset its wall clock was read at, in seconds east.
    public var offset: Int
    /// Where the date came from: the asset keeps it (a date taken from the file's time says so).
    public var dateSource: ImportDateSource
}

/// A group that cannot be planned: the reason, and the group's primary file.
public struct ImportPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// A sidecar whose name starts as none of the group's files does.
        case sidecarWithoutOwner
        /// Two files of the group would take the same name (two sidecars `A.xmp`, `B.xmp` of a pair
        /// named `A.HEIC`, `B.MOV`).
        case membersCollide
        /// Every name tried is taken.
        case noFreeName
        /// The new name is longer than a file system takes (an extension of hundreds of bytes).
        case nameTooLong
    }

    /// The kind of problem.
    public let code: Code
    /// The group's primary file.
    public let path: String
    /// What is wrong.
    public let message: String

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Plans an import run: for each group, where its files go under the import's `to`, renamed
/// together, never over anything. Pure: it writes nothing and reads a folder only through
/// `existingNames`.
///
/// It lives in PhotosCore, not PhotosIngest: it needs no metadata reader, store or file system, so
/// the daemon's watched imports, `photos import` (and its `--dry-run`) and tests share it as it is.
///
/// | the group | becomes (name = `"{yyyyMMdd}-{counter:3}"`) |
/// |---|---|
/// | `IMG_1.HEIC`, `IMG_1.MOV` | `20210411-001.HEIC`, `20210411-001.MOV` |
/// | `IMG_1.JPG`, `IMG_1.CR2`, `IMG_1.xmp` | `…-002.JPG`, `…-002.CR2`, `…-002.xmp` |
/// | `IMG_1.JPG`, `IMG_1.JPG.xmp`, `IMG_1.AAE` | `…-003.JPG`, `…-003.JPG.xmp`, `…-003.AAE` |
///
/// Each file keeps its own extension (and a sidecar the part after its owner's stem), so a group's
/// files still pair after the move. A clash follows the rule of album moves (``GroupNames``): the
/// group's names are taken when a name in the folder, on disk or planned earlier in this run, is
/// its new stem or starts with it and a dot (without case, ``GroupNames``); then the whole group
/// takes one suffix, `IMG_1 (2).HEIC`, `IMG_1 (2).MOV`. With `{counter:N}` the number is what changes
/// instead: it counts per folder within the run, starting after the highest number the folder
/// holds for that name.
///
/// ```swift
/// var planner = ImportPlanner(
///     destination: "/home/me/Pictures", layout: try ImportLayout(), timeZone: .current,
///     existingNames: { (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? [] })
/// let plan = try planner.plan(
///     ImportGroup(primary: "/drop/IMG_1.HEIC", pairedVideo: "/drop/IMG_1.MOV"), facts: facts)
/// plan.moves.map(\.destination)  // ["/home/me/Pictures/2021/2021-04-11/IMG_1.HEIC", "…/IMG_1.MOV"]
/// ```
public struct ImportPlanner: Sendable {
    /// The import's `to`: every destination is under it.
    public let destination: String
    /// The templates.
    public let layout: ImportLayout
    /// The zone for dates without their own offset.
    public let timeZone: TimeZone
    /// The names a folder holds now; called once per folder per planner, a missing folder holds none.
    private let existingNames: @Sendable (String) -> [String]
    /// Per folder: the names it holds now (listed at its first group).
    private var listed: [String: [String]] = [:]
    /// Per folder: the stems taken, on disk and planned in this run.
    private var taken: [String: Set<String>] = [:]
    /// Per folder: the next `{counter:N}` value of this run.
    private var nextCounter: [String: Int] = [:]

    /// The most suffixes or counter values tried for one group.
    public static let attempts = 100_000
    /// Bytes kept free in each name for a clash's suffix (` (12345)`).
    static let suffixRoom = 8

    /// A planner for one run of the import into `destination` (an absolute directory).
    public init(
        destination: String, layout: ImportLayout, timeZone: TimeZone,
        existingNames: @escaping @Sendable (String) -> [String]
    ) {
        var directory = destination
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        self.destination = directory
        self.layout = layout
        self.timeZone = timeZone
        self.existingNames = existingNames
    }

    /// Plans one group, and reserves its names for the rest of the run.
    public mutating func plan(_ group: ImportGroup, facts: ImportFacts) throws(ImportPlanError) -> ImportGroupPlan {
        func fail(_ code: ImportPlanError.Code, _ message: String) -> ImportPlanError {
            ImportPlanError(code: code, path: group.primary, message: message)
        }
        let rests = try Self.rests(of: group, fail)
        var seen = Set<String>()
        for rest in rests where !seen.insert(rest.lowercased()).inserted {
            throw fail(.membersCollide, "two of the group's files would both be named NAME\(rest)")
        }
        let longestRest = rests.map(\.utf8.count).max() ?? 0
        let rendering = layout.render(
            original: PathName.name(of: group.primary), facts: facts, timeZone: timeZone, counter: nil,
            stemLimit: SafeNames.safeLength - longestRest - Self.suffixRoom)
        let folder = ([destination == "/" ? "" : destination] + rendering.folders).joined(separator: "/")
        let folderPath = folder.isEmpty ? "/" : folder
        let takenHere = takenStems(in: folderPath)

        let names: [String]
        var stem = rendering.stem
        if let placeholder = stem.firstIndex(of: ImportLayout.counterPlaceholder) {
            let width = stem[placeholder...].prefix { $0 == ImportLayout.counterPlaceholder }.count
            let before = String(stem[..<placeholder])
            let after = String(stem[placeholder...].dropFirst(width))
            let start = max(
                nextCounter[folderPath] ?? 1, highestCounter(in: folderPath, before: before, after: after) + 1)
            var found: (Int, [String])?
            for number in start..<(start + Self.attempts) {
                let numbered = before + ImportLayout.Context.padded(number, width) + after
                let candidates = rests.map { numbered + $0 }
                if !takenHere.contains(numbered.lowercased()) {
                    found = (number, candidates)
                    stem = numbered
                    break
                }
            }
            guard let (number, candidates) = found else {
                throw fail(.noFreeName, "no free number for \(before)…\(after) in \(folderPath)")
            }
            nextCounter[folderPath] = number + 1
            names = candidates
        } else {
            guard
                let free = GroupNames.free(rests.map { (stem, $0) }, besides: takenHere, attempts: Self.attempts)
            else { throw fail(.noFreeName, "no free name for \(stem) in \(folderPath)") }
            names = free
            stem = String(free[0].dropLast(rests[0].count))
        }
        if let long = names.first(where: { $0.utf8.count > SafeNames.maximumLength }) {
            throw fail(.nameTooLong, "the name \(long) is longer than \(SafeNames.maximumLength) bytes")
        }
        taken[folderPath, default: []].formUnion(names.flatMap(GroupNames.prefixes(of:)))
        let moves = zip(group.members, names).map { member, name in
            ImportGroupPlan.Move(
                source: member.path, destination: (folder.isEmpty ? "" : folder) + "/" + name, role: member.role)
        }
        return ImportGroupPlan(
            moves: moves, folder: folderPath, stem: stem, date: rendering.date, offset: rendering.offset,
            dateSource: rendering.dateSource)
    }

    /// What follows the new stem in each member's name, in the group's order: a file's own extension
    /// (`.HEIC`), a sidecar's part after its owner's stem (`.JPG.xmp` of `IMG_1.JPG.xmp`, `.xmp` of
    /// `IMG_1.xmp`, `.AAE` of `IMG_1.AAE`).
    static func rests(
        of group: ImportGroup, _ fail: (ImportPlanError.Code, String) -> ImportPlanError
    ) throws(ImportPlanError) -> [String] {
        let media = group.members.filter { $0.role != .sidecar }.map { PathName.name(of: $0.path) }
        var rests: [String] = []
        for member in group.members {
            let name = PathName.name(of: member.path)
            guard member.role == .sidecar else {
                rests.append(String(name.dropFirst(ImportLayout.split(name).stem.count)))
                continue
            }
            let lower = name.lowercased()
            // `IMG_1.JPG.xmp`: named after a file of the group, which keeps its part.
            if let owner = media.filter({ lower.hasPrefix($0.lowercased() + ".") }).max(by: { $0.count < $1.count }) {
                rests.append(String(name.dropFirst(ImportLayout.split(owner).stem.count)))
                continue
            }
            // `IMG_1.xmp`, `IMG_1.AAE`: named after a file's stem.
            let stem = ImportLayout.split(name).stem.lowercased()
            if let owner = media.first(where: { ImportLayout.split($0).stem.lowercased() == stem }) {
                rests.append(String(name.dropFirst(ImportLayout.split(owner).stem.count)))
                continue
            }
            throw fail(
                .sidecarWithoutOwner, "the sidecar \(name) is named after none of \(media.joined(separator: ", "))")
        }
        return rests
    }

    /// The stems taken in `folder`: its names on disk (listed once), and those planned in this run.
    private mutating func takenStems(in folder: String) -> Set<String> {
        if listed[folder] == nil {
            let names = existingNames(folder)
            listed[folder] = names
            taken[folder, default: []].formUnion(names.flatMap(GroupNames.prefixes(of:)))
        }
        return taken[folder] ?? []
    }

    /// The highest number a name in `folder` has between `before` and `after` (without case), else 0.
    private func highestCounter(in folder: String, before: String, after: String) -> Int {
        let (before, after) = (before.lowercased(), after.lowercased())
        var highest = 0
        for name in listed[folder] ?? [] {
            let lower = name.lowercased()
            guard lower.hasPrefix(before) else { continue }
            let rest = lower.dropFirst(before.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 18, let number = Int(digits) else { continue }
            let tail = rest.dropFirst(digits.count)
            guard tail.hasPrefix(after) else { continue }
            let end = tail.dropFirst(after.count)
            guard end.isEmpty || end.hasPrefix(".") || end.hasPrefix(" (") else { continue }
            highest = max(highest, number)
        }
        return highest
    }
}
