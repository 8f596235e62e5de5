/// The names systems give the screenshots they save, for pictures whose content says nothing of
/// it: macOS writes a PNG with no EXIF and an XMP packet holding only its size, as do GNOME,
/// Windows and many Android phones. A name alone is not trusted for a picture that states a
/// camera (make or model): a photo renamed `Screenshot…` stays a photo.
///
/// ```swift
/// ScreenshotNames.matches("Screenshot 2019-05-21 at 10.45.52.png")   // true (macOS)
/// ScreenshotNames.matches("Screenshot_20230101-101010_Chrome.jpg")   // true (Android)
/// ScreenshotNames.matches("IMG_0001.PNG")                             // false
/// ```
public enum ScreenshotNames {
    /// Whether `name` (a file name, without its folder) is one a system gives a screenshot.
    public static func matches(_ name: String) -> Bool {
        let lower = name.lowercased()
        // macOS ("Screenshot 2019-05-21 at 10.45.52", before 10.14 "Screen Shot …"), GNOME
        // ("Screenshot from 2023-01-01 10-10-10"), Windows ("Screenshot 2023-01-01 101010"),
        // Android ("Screenshot_20230101-101010…", "Screenshot_2023-01-01-10-10-10…").
        for prefix in ["screenshot ", "screen shot ", "screenshot from ", "screenshot_"] where lower.hasPrefix(prefix) {
            var rest = lower.dropFirst(prefix.count)
            if prefix == "screenshot ", rest.hasPrefix("from ") { rest = rest.dropFirst(5) }
            return startsWithDate(rest)
        }
        return false
    }

    /// Whether the text starts with a date: eight digits, or `YYYY-MM-DD`.
    static func startsWithDate(_ text: Substring) -> Bool {
        let characters = Array(text.prefix(10))
        let digits = characters.prefix { $0.isASCII && $0.isNumber }.count
        if digits >= 8 { return true }
        guard characters.count == 10, digits == 4, characters[4] == "-", characters[7] == "-" else { return false }
        return characters[5].isNumber && characters[6].isNumber && characters[8].isNumber && characters[9].isNumber
    }
}
