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
