import Foundation
import PhotosCore
import Testing

@testable import PhotosLinux

/// The `.trashinfo` format, the mount table and the names in a trash, as tables.
@Suite struct TrashInfoTests {
    @Test(arguments: [
        ("/home/ana/IMG_0001.JPG", "/home/ana/IMG_0001.JPG"),
        ("/srv/Café Paris/IMG 1.jpg", "/srv/Caf%C3%A9%20Paris/IMG%201.jpg"),
        ("a+b&c=d%e#f?g", "a%2Bb%26c%3Dd%25e%23f%3Fg"),
        ("DCIM/100_FUJI/._x~y-z", "DCIM/100_FUJI/._x~y-z"),
        ("line\nbreak", "line%0Abreak"),
    ])
    func pathsArePercentEncodedByteForByte(path: String, encoded: String) {
        #expect(TrashInfo.percentEncoded(path) == encoded)
        #expect(PathBytes.string(TrashInfo.percentDecoded(Array(encoded.utf8))) == path)
    }

    @Test func aNameThatIsNotUTF8KeepsItsBytes() {
        let latin1 = PathBytes.string([0x63, 0x61, 0x66, 0xE9])
        #expect(TrashInfo.percentEncoded("/card/" + latin1) == "/card/caf%E9")
        #expect(
            PathBytes.bytes(PathBytes.string(TrashInfo.percentDecoded(Array("/card/caf%E9".utf8)))) == Array(
                "/card/caf".utf8) + [0xE9])
    }

    @Test(arguments: [
        ("100%", "100%"),  // A % without two hex digits stays.
        ("%zz%4", "%zz%4"),
        ("%41%62", "Ab"),
        ("a+b", "a+b"),  // URI escaping, not form encoding: + is a plus.
    ])
    func decodingIsTolerant(encoded: String, decoded: String) {
        #expect(String(decoding: TrashInfo.percentDecoded(Array(encoded.utf8)), as: UTF8.self) == decoded)
    }

    /// What other tools write, and what a reader must make of it.
    @Test(
        arguments: [
            ("[Trash Info]\nPath=/a/b.jpg\nDeletionDate=2024-01-02T03:04:05\n", "/a/b.jpg", "2024-01-02T03:04:05"),
            // Carriage returns, comments, blank lines, spaces around '=' and unknown keys.
            (
                "# KDE\r\n\r\n[Trash Info]\r\nPath = /a/b%20c.jpg\r\nX-Other=1\r\nDeletionDate= 2024-01-02T03:04:05 \r\n",
                "/a/b c.jpg", "2024-01-02T03:04:05"
            ),
            // The first Path= and DeletionDate= win; localized keys are other keys.
            (
                "[Trash Info]\nPath[fr]=/x\nPath=/first\nPath=/second\nDeletionDate=2024-01-02T03:04:05\nDeletionDate=x\n",
                "/first", "2024-01-02T03:04:05"
            ),
            // Keys of another group do not count.
            ("[Other]\nPath=/no\n[Trash Info]\nPath=/yes\n[Another]\nDeletionDate=2000-01-01T00:00:00\n", "/yes", nil),
            // A line without '=' is skipped; a relative path stays relative.
            ("[Trash Info]\ngarbage\nPath=DCIM/IMG_1.JPG\n", "DCIM/IMG_1.JPG", nil),
        ] as [(String, String, String?)])
    func otherToolsFilesAreRead(text: String, path: String, date: String?) throws {
        let info = try TrashInfo(parsing: Array(text.utf8))
        #expect(info.path == path)
        #expect(info.deletionDate == date)
        #expect(info.process == nil)
    }

    @Test(arguments: [
        ("Path=/a\nDeletionDate=2024-01-02T03:04:05\n", "no [Trash Info] group"),
        ("[Trash Info]\nDeletionDate=2024-01-02T03:04:05\n", "no Path="),
        ("[Trash Info]\nPath=\n", "no Path="),
        ("", "no [Trash Info] group"),
    ])
    func filesWithoutTheGroupOrAPathAreInvalid(text: String, reason: String) {
        #expect {
            try TrashInfo(parsing: Array(text.utf8))
        } throws: { error in
            (error as? TrashError)?.code == .invalidEntry && (error as? TrashError)?.message.contains(reason) == true
        }
    }

    @Test func whatIsWrittenIsReadBack() throws {
        let info = TrashInfo(path: "/srv/Café/IMG 1.JPG", deletionDate: "2026-11-28T16:05:09", process: 42, boot: "b0")
        let text = String(decoding: info.rendered, as: UTF8.self)
        #expect(
            text == """
                [Trash Info]
                Path=/srv/Caf%C3%A9/IMG%201.JPG
                DeletionDate=2026-11-28T16:05:09
                X-Photosd-Process=42
                X-Photosd-Boot=b0

                """)
        #expect(try TrashInfo(parsing: info.rendered) == info)
    }

    @Test func deletionDatesAreLocalTimeToTheSecond() {
        let now = Date(timeIntervalSince1970: 1_764_345_909.75)
        let text = TrashInfo.deletionDate(now)
        #expect(text == expectedDeletionDate(now))
        #expect(TrashInfo.date(fromDeletionDate: text) == Date(timeIntervalSince1970: 1_764_345_909))
        // Trailing fractions or zones (not in the specification) are ignored; malformed dates are nil.
        #expect(TrashInfo.date(fromDeletionDate: text + ".123+01:00") == Date(timeIntervalSince1970: 1_764_345_909))
        for bad in ["", "2024-13-01T00:00:00", "2024-01-01 00:00:00", "20240101T00:00:00", "2024-01-01T0a:00:00"] {
            #expect(TrashInfo.date(fromDeletionDate: bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        (0, "IMG_1.JPG"), (1, "IMG_1.JPG_1"), (2, "IMG_1.JPG_2"), (99, "IMG_1.JPG_99"),
    ])
    func takenNamesGetTrashCLIsSuffixes(attempt: Int, name: String) {
        #expect(Trash.trashName("IMG_1.JPG", attempt: attempt) == name)
    }

    @Test(arguments: [
        ("/a/b", "/a/b"), ("/a//b", "/a/b"), ("//a/b", "/a/b"), ("/a/./b", "/a/b"), ("/a/b/", "/a/b"),
        ("/a/b/.", "/a/b"), ("/", "/"), ("/.", "/"), ("//", "/"), ("/./a", "/a"), ("/.a/b.", "/.a/b."),
        ("/a/../b", "/a/../b"), ("/a/..", "/a/.."), ("/a/.b/c", "/a/.b/c"), ("/a./b", "/a./b"), ("/é/./ü", "/é/ü"),
    ])
    func pathsAreTidiedWithoutResolvingParents(path: String, tidy: String) {
        #expect(Trash.normalized(path) == tidy)
    }

    /// One `syncfs` for a batch where it syncs: here (ext4 or tmpfs), not on FUSE (by its magic).
    @Test func aBatchIsSyncedByItsFileSystemWhereSyncfsReachesIt() {
        let directory = NSTemporaryDirectory()
        #expect(Trash.syncfsSyncs(directory))
        #expect(!Trash.syncfsSyncs(directory + "/missing-\(UUID())/deeper"), "cannot be told: an fsync each")
        #expect(Trash.fuseMagic == 0x6573_5546)
    }

    @Test(arguments: [("IMG_1.JPG", true), ("", false), (".", false), ("..", false), ("a/b", false), ("...", true)])
    func aNameIsOneComponent(name: String, valid: Bool) {
        #expect(Trash.isValidName(name) == valid)
    }

    @Test func namesAreShortenedSoThatTheirInformationFileFits() {
        let long = String(repeating: "é", count: 200)  // 400 bytes
        for attempt in [0, 5, 150] {
            let name = Trash.trashName(long, attempt: attempt)
            #expect(PathBytes.bytes(name + ".trashinfo").count <= 255)
            #expect(PathBytes.bytes(name).starts(with: PathBytes.bytes(String(repeating: "é", count: 100))))
        }
        #expect(Trash.trashName(long, attempt: 150).range(of: #"_[0-9]+$"#, options: .regularExpression) != nil)
    }

    @Test func theMountTableIsReadWithItsEscapes() {
        let text = """
            22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            30 22 0:45 / /media/My\\040Card rw,nosuid - vfat /dev/sdb1 rw
            31 22 0:46 / /media rw - tmpfs tmpfs rw
            32 31 0:47 / /media/disk rw - autofs systemd-1 rw
            33 31 0:48 / /media/disk rw - xfs /dev/sdc1 rw
            bad line
            """
        let table = MountTable(parsing: Array(text.utf8))
        #expect(table.mounts.map(\.mountPoint) == ["/", "/media/My Card", "/media", "/media/disk", "/media/disk"])
        #expect(table.mounts.map(\.fsType) == ["ext4", "vfat", "tmpfs", "autofs", "xfs"])
        #expect(table.mounts[0].device == Int64(254 << 8))
        #expect(table.mount(containing: "/media/My Card/DCIM/x.jpg")?.id == 30)
        #expect(table.mount(containing: "/media/My Cards")?.id == 31)
        // Of two mounts at one place, the later hides the earlier.
        #expect(table.mount(containing: "/media/disk/a")?.id == 33)
        #expect(table.mount(containing: "/home/ana")?.id == 22)
        // glibc's makedev(8, 300): the minor's low byte, the major above it, the minor's high bits from bit 20.
        #expect(MountTable.device(major: 8, minor: 300) == 0x10_082C)
    }

    /// The kernel's own numbers: the mount holding this test's temporary directory has its device.
    @Test func theMountTableAgreesWithStat() throws {
        let directory = FileOperations.resolved(NSTemporaryDirectory())!
        let mount = try #require(MountTable.current().mount(containing: directory))
        // btrfs gives a subvolume's files a device of their own; the trash then walks up by device.
        guard ["ext2", "ext3", "ext4", "xfs", "tmpfs"].contains(mount.fsType) else { return }
        let status = try #require(try TrashFiles.status(mount.mountPoint))
        #expect(mount.device == status.device)
    }
}
