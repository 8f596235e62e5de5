import Foundation
import PhotosStore
import Testing

/// The `import` entries a batch journals in one statement read back as the records they were.
@Suite struct ImportJournalTests {
    @Test func aJournaledBatchReadsBackFieldForField() throws {
        let database = try LibraryDatabase()
        let written = [
            FileJournalEntry(
                operation: .importFile, destination: "/root/2024/IMG_1.JPG", source: "/drop/IMG_1.JPG",
                removeSource: true, device: 2049, inode: 1_234_567, fileSize: 3_145_728,
                modificationTime: 1_700_000_000.25, owner: 4242),
            FileJournalEntry(
                operation: .importFile, destination: "/root/2024/IMG_1.MOV", staged: "/root/2024/.IMG_1.MOV.part",
                source: "/drop/IMG_1.MOV", removeSource: false, owner: 4242, assetId: 7),
        ]
        let journaled = try database.journalAhead(written)
        #expect(journaled.compactMap(\.id).count == 2)
        #expect(Set(journaled.compactMap(\.id)).count == 2)
        var expected = written
        for index in expected.indices { expected[index].id = journaled[index].id }
        #expect(journaled == expected)
        #expect(try database.fileJournal() == expected)
    }
}
