/// The names systems give the screen recordings they save: a recording states no camera, and
/// its container says nothing of how it was made. As for screenshots, a name is not trusted for a
/// movie that states a camera (make or model).
///
/// ```swift
/// ScreenRecordingNames.matches("Screen Recording 2024-01-05 at 10.11.12.mov")   // true (macOS)
/// ScreenRecordingNames.matches("RPReplay_Final1609459200.MP4")                  // true (iOS)
/// ScreenRecordingNames.matches("IMG_0001.MOV")                                  // false
/// ```
public enum ScreenRecordingNames {
    /// Whether `name` (a file name, without its folder) is one a system gives a screen recording.
    public static func matches(_ name: String) -> Bool {
        let lower = name.lowercased()
        // iOS and iPadOS (ReplayKit): "RPReplay_Final1609459200".
        if lower.hasPrefix("rpreplay_final") {
            return lower.dropFirst("rpreplay_final".count).prefix { $0.isASCII && $0.isNumber }.count >= 8
        }
        // macOS ("Screen Recording 2024-01-05 at 10.11.12"), Windows' Snipping Tool ("Screen
        // Recording 2024-01-05 101112"), GNOME ("Screencast from 2024-01-05 10-11-12", older
        // "Screencast 2019-01-01 10:11:12"), Samsung ("Screen_Recording_20240105-101112"), Pixel
        // ("screen-20240105-101112"), Xiaomi ("Screenrecorder-2024-01-05-10-11-12").
        for prefix in [
            "screen recording ", "screencast from ", "screencast ", "screen_recording_", "screen-", "screenrecorder-",
        ]
        where lower.hasPrefix(prefix) {
            return ScreenshotNames.startsWithDate(lower.dropFirst(prefix.count))
        }
        return false
    }
}
