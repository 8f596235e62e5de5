/// The names one asset's files take in a directory that already holds files: the rule shared by
/// every place the library puts a group of files (an album's directory, an import's folder).
///
/// A group's files share a stem (`IMG_1.JPG`, `IMG_1.MOV`, `IMG_1.JPG.xmp`). Their names are taken
/// when any name in the directory has the same ``stem(of:)`` as one of them (compared without case,
/// up to the first dot), so that a file never pairs with another asset's (`IMG_1.JPG` beside
/// someone's `IMG_1.CR2`). Then the whole group takes the same suffix (``suffixed(_:_:)``), from 2
/// up, and stays together: `IMG_1 (2).JPG`, `IMG_1 (2).MOV`, `IMG_1 (2).JPG.xmp`.
///
/// ```swift
/// GroupNames.stem(of: "IMG_1.JPG.xmp")      // "img_1"
/// GroupNames.suffixed("IMG_1.JPG.xmp", 2)   // "IMG_1 (2).JPG.xmp"
/// ```
public enum GroupNames {
    /// A name up to its first dot (a leading dot aside), lowercased: what files that may pair share.
    public static func stem(of name: String) -> String {
        let lower = name.lowercased()
        let start = lower.hasPrefix(".") ? lower.index(after: lower.startIndex) : lower.startIndex
        guard let dot = lower[start...].firstIndex(of: ".") else { return lower }
        return String(lower[..<dot])
    }

    /// `name` with ` (n)` before its first dot (a leading dot aside): `IMG_1.JPG.xmp` → `IMG_1 (2).JPG.xmp`.
    public static func suffixed(_ name: String, _ attempt: Int) -> String {
        let start = name.hasPrefix(".") ? name.index(after: name.startIndex) : name.startIndex
        guard let dot = name[start...].firstIndex(of: ".") else { return name + " (\(attempt))" }
        return String(name[..<dot]) + " (\(attempt))" + String(name[dot...])
    }

    /// The names `names` take beside the stems `taken` (``stem(of:)`` of each name there): their
    /// own, or each with the same suffix, from 2 up to `attempts`; nil when every one is taken.
    public static func free(_ names: [String], besides taken: Set<String>, attempts: Int = 1000) -> [String]? {
        for attempt in 1...max(1, attempts) {
            let candidates = attempt == 1 ? names : names.map { suffixed($0, attempt) }
            if !candidates.contains(where: { taken.contains(stem(of: $0)) }) { return candidates }
        }
        return nil
    }
}
