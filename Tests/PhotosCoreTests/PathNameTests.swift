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

    @Test func aPathIsWithinItsDirectoriesAndNotBesideThem() {
        #expect(PathName.isWithin("/p/a/b.jpg", "/p/a"))
        #expect(PathName.isWithin("/p/a", "/p/a"))
        #expect(PathName.isWithin("/p/a/b.jpg", "/p/a/"))
        #expect(PathName.isWithin("/p/a", "/"))
        #expect(!PathName.isWithin("/p/ab/c.jpg", "/p/a"))
        #expect(!PathName.isWithin("/p", "/p/a"))
        // Byte by byte: the same name in another Unicode normalization is another directory.
        #expect(!PathName.isWithin("/p/e\u{301}t\u{E9}/x.jpg", "/p/\u{E9}t\u{E9}"))
    }
}
