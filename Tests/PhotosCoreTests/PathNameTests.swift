import Foundation
import PhotosCore
import Testing

/// The name and directory of the paths the daemon holds, as `NSString` splits them.
@Suite struct PathNameTests {
    @Test(arguments: [
        "/", "/a", "/a/b.jpg", "/home/me/Pictures/IMG_0001.HEIC", "/Fotos/café/été.jpg", "/a/.hidden",
        "/a/b c/d\u{EFE9}.jpg", "relative", "a/b", "/a/b/c/d/e/f/g.mov",
    ])
    func splitsAsNSStringDoes(path: String) {
        #expect(PathName.name(of: path) == (path as NSString).lastPathComponent)
        let directory = (path as NSString).deletingLastPathComponent
        #expect(PathName.directory(of: path) == directory)
    }

    @Test func aNameWithoutASlashHasNoDirectory() {
        #expect(PathName.directory(of: "IMG_0001.JPG") == "")
        #expect(PathName.name(of: "IMG_0001.JPG") == "IMG_0001.JPG")
    }
}
