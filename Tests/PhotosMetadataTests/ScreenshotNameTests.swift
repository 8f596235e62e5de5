import PhotosMetadata
import Testing

/// Screenshots known only by the names systems give them.
struct ScreenshotNameTests {
    @Test(arguments: [
        "Screenshot 2019-05-21 at 10.45.52.png", "Screen Shot 2017-03-02 at 09.01.13.png",
        "Screenshot from 2023-01-01 10-10-10.png", "Screenshot From 2023-01-01 10-10-10.png",
        "Screenshot 2023-01-01 101010.png", "Screenshot_20230101-101010_Chrome.jpg",
        "Screenshot_2023-01-01-10-10-10-123_com.android.png",
    ])
    func systemNamesAreScreenshots(name: String) {
        #expect(ScreenshotNames.matches(name))
    }

    @Test(arguments: [
        "IMG_0999.PNG", "screenshot.png", "Screenshot of the beach.png", "Screenshots 2023-01-01.png",
        "My Screenshot 2019-05-21 at 10.45.52.png", "Screenshot_beach.jpg", "Screenshot 2023-1-1.png",
    ])
    func otherNamesAreNot(name: String) {
        #expect(!ScreenshotNames.matches(name))
    }
}

/// Screen recordings known only by the names systems give them.
struct ScreenRecordingNameTests {
    @Test(arguments: [
        "Screen Recording 2024-01-05 at 10.11.12.mov", "RPReplay_Final1609459200.MP4",
        "Screen Recording 2024-01-05 101112.mp4", "Screencast from 2024-01-05 10-11-12.webm",
        "Screencast From 2024-01-05 10-11-12.webm", "Screencast 2019-01-01 10:11:12.webm",
        "Screen_Recording_20240105-101112_Chrome.mp4", "screen-20240105-101112.mp4",
        "Screenrecorder-2024-01-05-10-11-12-123.mp4",
    ])
    func systemNamesAreScreenRecordings(name: String) {
        #expect(ScreenRecordingNames.matches(name))
    }

    @Test(arguments: [
        "IMG_0420.MOV", "Screen Recording.mov", "RPReplay_Final.MP4", "RPReplay_Final12.mp4",
        "screencast of the demo.webm",
        "Screen Recording of 2024-01-05.mov", "screen-door.mp4", "Screenshot 2024-01-05 at 10.11.12.png",
    ])
    func otherNamesAreNot(name: String) {
        #expect(!ScreenRecordingNames.matches(name))
    }
}
