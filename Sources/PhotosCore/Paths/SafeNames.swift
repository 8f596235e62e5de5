import Foundation

/// Names made safe as one path component: the one rule for every name the library makes from
/// something it was given (a resource's file name, a camera's make, an import's rendered name).
///
/// | given | safe |
/// |---|---|
/// | `a/b.jpg` | `a_b.jpg` (no `/`, NUL or control character) |
/// | `.hidden.jpg`, `..` | `hidden.jpg`, the fallback (never hidden, never `.` or `..`) |
/// | `  IMG_1.JPG ` | `IMG_1.JPG` (no surrounding spaces) |
/// | `` (empty) | the fallback |
/// | a 300-byte name | cut to ``safeLength`` bytes on a character boundary, a short extension kept |
///
/// ```swift
/// SafeNames.sanitized("../etc/passwd", fallback: "photo")  // "_etc_passwd"
/// SafeNames.sanitized("...", fallback: "photo")            // "photo"
/// ```
public enum SafeNames {
    /// The longest file name Linux file systems take, in bytes (NAME_MAX).
    public static let maximumLength = 255

    /// The longest name ``sanitized(_:fallback:)`` gives, in bytes: room is left under NAME_MAX for
    /// a collision prefix or suffix (`12-`, ` (2)`) and a staging prefix (process id and UUID).
    public static let safeLength = maximumLength - 60

    /// `name` as one path component: no `/` or NUL, not `.` or `..`, not hidden (a leading `.` is
    /// dropped), at most ``safeLength`` bytes with its extension kept. Empty results become `fallback`.
    public static func sanitized(_ name: String, fallback: String) -> String {
        var component = replacingUnsafeCharacters(in: name)
        while component.hasPrefix(".") { component.removeFirst() }
        // White space can only be at an end that is a space, a tab or not ASCII.
        let plain = { (byte: UInt8) in byte > 0x20 && byte < 0x80 }
        if !plain(component.utf8.first ?? 0) || !plain(component.utf8.last ?? 0) {
            component = component.trimmingCharacters(in: .whitespaces)
        }
        if component.isEmpty { component = fallback }
        return truncated(component, toBytes: safeLength)
    }

    /// `name` with each `/`, NUL and control character replaced by `_`; nothing else changes.
    public static func replacingUnsafeCharacters(in name: String) -> String {
        // Most names are printable ASCII without a slash: nothing to replace.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) { return name }
        return String(
            name.unicodeScalars.map { scalar -> Character in
                scalar == "/" || scalar == "\0" || scalar.properties.generalCategory == .control
                    ? "_" : Character(scalar)
            })
    }

    /// Cuts a name to at most `limit` UTF-8 bytes on a character boundary, keeping a short extension.
    public static func truncated(_ name: String, toBytes limit: Int) -> String {
        guard name.utf8.count > limit else { return name }
        let ext = (name as NSString).pathExtension
        let keep = ext.isEmpty || ext.utf8.count > 16 ? "" : "." + ext
        var stem = keep.isEmpty ? name : String(name.dropLast(keep.count))
        while stem.utf8.count + keep.utf8.count > limit { stem.removeLast() }
        return stem + keep
    }
}
