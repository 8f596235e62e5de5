/// The names one asset's files take in a directory that already holds files: the rule shared by
/// every place the library puts a group of files (an album's directory, an import's folder).
///
/// A group's files share a stem, each name being the stem and a rest (`IMG_1` and `.JPG`, `.MOV`,
/// `.JPG.xmp`; `2024.05.01-IMG_7` and `.HEIC`). The stem is taken when a name in the directory is
/// the stem, or starts with it and a dot (compared without case): such a file would pair with the
/// group's (`IMG_1.CR2` beside `IMG_1.JPG`) or be taken for its sidecar (`IMG_1.xmp`), so that a
/// file never pairs with another asset's. A name's ``prefixes(of:)`` are the stems it takes. Then
/// the whole group takes the same suffix after its stem (``suffixed(_:_:)``), from 2 up, and stays
/// together: `IMG_1 (2).JPG`, `IMG_1 (2).MOV`, `IMG_1 (2).JPG.xmp`. A dot inside a stem is the
/// stem's: `2024.05.01-IMG_8.JPG` is free beside `2024.05.01-IMG_7.JPG`.
///
/// ```swift
/// GroupNames.prefixes(of: "IMG_1.JPG.xmp")    // ["img_1", "img_1.jpg", "img_1.jpg.xmp"]
/// GroupNames.free(GroupNames.split(["IMG_1.JPG", "IMG_1.JPG.xmp"]), besides: ["img_1"])
/// // ["IMG_1 (2).JPG", "IMG_1 (2).JPG.xmp"]
/// ```
public enum GroupNames {
    /// The stems `name` takes, lowercased: the name up to each of its dots, and the whole name (a
    /// leading dot aside, which is the name's).
    public static func prefixes(of name: String) -> [String] {
        let lower = name.lowercased()
        let start = lower.hasPrefix(".") ? lower.index(after: lower.startIndex) : lower.startIndex
        var found = lower[start...].indices.filter { lower[$0] == "." }.map { String(lower[..<$0]) }
        found.append(lower)
        return found
    }

    /// The names of one group's files (an asset's: its photos and movies, and their sidecars) as
    /// their stems and rests: a photo's or movie's stem is its name without its last extension
    /// (`IMG_1.JPG` → `IMG_1`, `2024.05.01-IMG_7.HEIC` → `2024.05.01-IMG_7`), as a scan pairs files;
    /// a sidecar (`.xmp`, `.aae`, `.thm`) has the stem of the file it is named after
    /// (`IMG_1.JPG.xmp`, `IMG_1.xmp` → `IMG_1`).
    public static func split(_ names: [String]) -> [(stem: String, rest: String)] {
        func withoutExtension(_ name: String) -> String {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
            return String(name[..<dot])
        }
        func isSidecar(_ name: String) -> Bool {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
            return ["xmp", "aae", "thm"].contains(name[name.index(after: dot)...].lowercased())
        }
        let media = names.filter { !isSidecar($0) }
        return names.map { name in
            var stem = withoutExtension(name)
            if isSidecar(name) {
                let lower = name.lowercased()
                let owner =
                    media.filter { lower.hasPrefix($0.lowercased() + ".") }.max { $0.utf8.count < $1.utf8.count }
                    ?? media.first { withoutExtension($0).lowercased() == stem.lowercased() }
                stem = owner.map(withoutExtension) ?? withoutExtension(stem)
            }
            return (stem, String(name.dropFirst(stem.count)))
        }
    }

    /// `stem` with a clash's suffix: `IMG_1` → `IMG_1 (2)`.
    public static func suffixed(_ stem: String, _ attempt: Int) -> String { stem + " (\(attempt))" }

    /// The names the files `(stem, rest)` take beside the stems `taken` (``prefixes(of:)`` of each
    /// name there): their own, or each with the same suffix after its stem, from 2 up to
    /// `attempts`; nil when every one is taken.
    public static func free(
        _ files: [(stem: String, rest: String)], besides taken: Set<String>, attempts: Int = 1000
    ) -> [String]? {
        for attempt in 1...max(1, attempts) {
            let stems = files.map { attempt == 1 ? $0.stem : suffixed($0.stem, attempt) }
            if !stems.contains(where: { taken.contains($0.lowercased()) }) {
                return zip(stems, files).map { $0 + $1.rest }
            }
        }
        return nil
    }
}
