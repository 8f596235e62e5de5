import Foundation
import Testing

@testable import PhotosIngest

/// Which files of a directory become one asset, as a table.
@Suite struct GrouperTests {
    static func still(_ name: String, id: String? = nil, raw: Bool = false) -> GroupEntry {
        GroupEntry(name: name, isImage: true, isVideo: false, isRAW: raw, contentIdentifier: id, duration: nil)
    }

    static func movie(_ name: String, id: String? = nil, seconds: Double? = 2) -> GroupEntry {
        GroupEntry(name: name, isImage: false, isVideo: true, isRAW: false, contentIdentifier: id, duration: seconds)
    }

    /// Entries, and the groups as "primary+paired+alternate" names.
    static let cases: [([GroupEntry], [String])] = [
        ([still("IMG_1.HEIC", id: "X"), movie("IMG_1.MOV", id: "X")], ["IMG_1.HEIC+IMG_1.MOV"]),
        ([still("A.HEIC", id: "X"), movie("B.MOV", id: "X")], ["A.HEIC+B.MOV"]),
        ([still("IMG_2.JPG"), movie("IMG_2.MOV")], ["IMG_2.JPG+IMG_2.MOV"]),
        ([still("IMG_3.JPG"), movie("img_3.mov", seconds: 30)], ["IMG_3.JPG", "img_3.mov"]),
        ([still("IMG_4.HEIC", id: "X"), movie("IMG_4.MOV", id: "Y")], ["IMG_4.HEIC", "IMG_4.MOV"]),
        ([still("DSC_1.JPG"), still("DSC_1.NEF", raw: true)], ["DSC_1.JPG++DSC_1.NEF"]),
        ([still("DSC_2.NEF", raw: true)], ["DSC_2.NEF"]),
        (
            [still("IMG_5.JPG", id: "Z"), still("IMG_5.DNG", raw: true), movie("IMG_5.MOV", id: "Z")],
            ["IMG_5.JPG+IMG_5.MOV+IMG_5.DNG"]
        ),
        ([movie("clip.mp4"), still("other.jpg")], ["clip.mp4", "other.jpg"]),
        ([still("a.jpg"), still("a.png")], ["a.jpg", "a.png"]),
    ]

    @Test(arguments: 0..<cases.count)
    func filesGroupIntoAssets(index: Int) {
        let (entries, expected) = Self.cases[index]
        let described = Grouper.group(entries).map { group in
            var text = entries[group.primary].name
            if let paired = group.pairedVideo { text += "+" + entries[paired].name }
            if let alternate = group.alternatePhoto {
                text += (group.pairedVideo == nil ? "++" : "+") + entries[alternate].name
            }
            return text
        }
        #expect(described.sorted() == expected.sorted())
    }
}
