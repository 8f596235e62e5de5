/// The part of a file name that pairs files of one directory into one asset: the name without its
/// last extension, lowercased (`img_0001` for `IMG_0001.HEIC` and `img_0001.mov`).
///
/// One definition for the grouper, which pairs by it, and for the store, which selects by it the
/// few files of a large directory a new file can pair with.
public enum PairingName {
    /// `IMG_0001.HEIC` → `img_0001`; a name without a dot is its whole lowercased self.
    public static func of(_ name: String) -> String {
        let lower = name.lowercased()
        guard let dot = lower.lastIndex(of: ".") else { return lower }
        return String(lower[..<dot])
    }
}
