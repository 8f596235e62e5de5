/// The three-way merge of a sidecar changed on disk (by digiKam, darktable, exiftool, a sync tool)
/// with the library's state, field by field (pure; the times are given).
///
/// - `base`: what the library last wrote to (or read from) this sidecar, which the library stores;
///   `nil` when it never did (every field then counts as changed on both sides where they differ).
/// - `ours`: the library's state now. `theirs`: the sidecar on disk now.
///
/// | base → ours | base → theirs | result | reported |
/// |---|---|---|---|
/// | same | same | base | |
/// | changed | same | ours (written to the sidecar) | |
/// | same | changed | theirs (taken into the library) | |
/// | changed to X | changed to X | X | |
/// | changed to X | changed to Y | the newer write's | a conflict with X and Y |
///
/// "Newer" compares `oursTime` (when the library's change was made) with `theirsTime` (when the
/// sidecar was written: its modification time); on a tie the sidecar wins, as the last thing the
/// user saw on disk. Albums merge as one value (the set), as the other fields do.
///
/// ```swift
/// let merge = SidecarMerge(base: stored, ours: library, theirs: onDisk, oursTime: t1, theirsTime: mtime)
/// if !merge.takenFromTheirs.isEmpty { apply(merge.result) }   // an ordinary change, observers see it
/// if merge.needsWrite { try SidecarFile.write(merge.result, to: path, expecting: identity) }
/// for conflict in merge.conflicts { log(conflict) }
/// ```
public struct SidecarMerge: Sendable {
    /// A field both sides changed to different values.
    public struct Conflict: Hashable, Sendable, CustomStringConvertible {
        /// The field.
        public var field: SidecarField
        /// The library's value (`nil`: absent).
        public var ours: SidecarValue?
        /// The sidecar's value.
        public var theirs: SidecarValue?
        /// Which one was kept.
        public var winner: Side

        /// `"rating: ours 3, theirs 5, kept theirs"`.
        public var description: String {
            "\(field): ours \(ours.map { "\($0)" } ?? "absent"), theirs \(theirs.map { "\($0)" } ?? "absent"), kept \(winner)"
        }
    }

    /// One side of the merge.
    public enum Side: String, Hashable, Sendable, CustomStringConvertible {
        case ours, theirs
        public var description: String { rawValue }
    }

    /// The merged state: what the library should hold and the sidecar should say.
    public let result: SidecarState
    /// Fields whose value came from the sidecar and differs from the library's (to apply as a change).
    public let takenFromTheirs: Set<SidecarField>
    /// Fields whose value came from the library and differs from the sidecar's (to write).
    public let writtenFromOurs: Set<SidecarField>
    /// Fields both sides changed to different values, with both values.
    public let conflicts: [Conflict]

    /// Whether the sidecar must be written for it to say ``result``.
    public var needsWrite: Bool { !writtenFromOurs.isEmpty }

    /// Merges `ours` and `theirs` against `base`.
    public init(base: SidecarState?, ours: SidecarState, theirs: SidecarState, oursTime: Double, theirsTime: Double) {
        let base = base ?? SidecarState()
        var result = base
        var taken = Set<SidecarField>()
        var written = Set<SidecarField>()
        var conflicts: [Conflict] = []
        for field in SidecarField.allCases {
            let baseValue = base.value(of: field)
            let ourValue = ours.value(of: field)
            let theirValue = theirs.value(of: field)
            let side: Side
            if ourValue == theirValue || theirValue == baseValue {
                side = .ours
            } else if ourValue == baseValue {
                side = .theirs
            } else {
                side = oursTime > theirsTime ? .ours : .theirs
                conflicts.append(Conflict(field: field, ours: ourValue, theirs: theirValue, winner: side))
            }
            result.take(field, from: side == .ours ? ours : theirs)
            if side == .theirs, theirValue != ourValue { taken.insert(field) }
            if side == .ours, ourValue != theirValue { written.insert(field) }
        }
        self.result = result
        self.takenFromTheirs = taken
        self.writtenFromOurs = written
        self.conflicts = conflicts
    }
}
