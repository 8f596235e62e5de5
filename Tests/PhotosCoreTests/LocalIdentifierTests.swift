import Foundation
import PhotosCore
import Testing

/// Identifiers keep PhotoKit's shape and sort in the order they were made (time-ordered UUIDs),
/// so that the library's index on them grows at its end.
struct LocalIdentifierTests {
    @Test func identifiersHavePhotoKitsShapeAndAVersion7UUID() throws {
        for (type, suffix) in [
            (PHObjectType.asset, "/L0/001"), (.assetCollection, "/L0/040"), (.collectionList, "/L0/020"),
        ] {
            let identifier = LocalIdentifier.make(type)
            #expect(identifier.hasSuffix(suffix))
            let text = String(identifier.dropLast(suffix.count))
            let uuid = try #require(UUID(uuidString: text), "\(identifier) starts with a UUID")
            #expect(uuid.uuidString == text, "upper case, as Foundation writes UUIDs")
            #expect(uuid.uuid.6 >> 4 == 7, "version 7")
            #expect(uuid.uuid.8 >> 6 == 0b10, "the RFC 9562 variant")
        }
    }

    @Test func aUUIDIsWrittenAsFoundationWritesIt() {
        let uuids =
            [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
            + [UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
            + (0..<1_000).map { _ in UUID() } + (0..<1_000).map { _ in TimeOrderedUUID.next() }
        for uuid in uuids {
            for type in [PHObjectType.asset, .assetCollection, .collectionList] {
                #expect(LocalIdentifier.identifier(uuid, type) == uuid.uuidString + LocalIdentifier.suffix(type))
            }
        }
    }

    @Test func theTimeComesFirstInMilliseconds() throws {
        // Later than any other test of this process asks for: the generator never goes back.
        let moment = Date(timeIntervalSince1970: 3_900_000_000.375)
        let uuid = TimeOrderedUUID.next(now: moment)
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 3_900_000_000_375)
    }

    @Test func eachSortsAfterTheOneBeforeEvenWithinAMillisecondOrWhenTheClockGoesBack() {
        // A future millisecond (before the other test's), so that the clock's own step on does not
        // decide the order.
        let future = Date(timeIntervalSince1970: 3_000_000_000)
        var previous = TimeOrderedUUID.next(now: future).uuidString
        // 10,000 in the same millisecond overflow its 4,096 counts; then the clock goes back.
        for index in 0..<10_000 {
            let now = index < 9_000 ? future : future.addingTimeInterval(-60)
            let next = TimeOrderedUUID.next(now: now).uuidString
            #expect(next > previous, "\(next) after \(previous)")
            if next <= previous { return }
            previous = next
        }
        // And identifiers, compared as SQLite compares text, follow the same order.
        let identifiers = (0..<1_000).map { _ in LocalIdentifier.make(.asset) }
        #expect(identifiers == identifiers.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}
