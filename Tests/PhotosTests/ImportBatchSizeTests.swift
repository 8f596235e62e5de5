import Foundation
import Photos
import PhotosCore
import PhotosTestSupport
import Testing

/// How many groups an import places and scans together when its caller does not say: larger when
/// the files are linked, smaller when they are copied and each batch waits for a sync.
@Suite struct ImportBatchSizeTests {
    func definition(from: String, to: String, mode: ImportDefinition.Mode) throws -> ImportDefinition {
        ImportDefinition(from: from, to: to, layout: try ImportLayout(), mode: mode)
    }

    @Test func aMoveOnOneFileSystemLinksInLargerBatchesThanACopy() throws {
        let directory = try TemporaryDirectory()
        let (drop, root) = (directory.path("drop").path, directory.path("root").path)
        for path in [drop, root] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        #expect(FolderImport.defaultBatchSize(for: try definition(from: drop, to: root, mode: .move)) == 1024)
        #expect(FolderImport.defaultBatchSize(for: try definition(from: drop, to: root, mode: .copy)) == 256)
        // A drop folder that is not there (yet): the smaller batch, which is right for either.
        let missing = directory.path("gone").path
        #expect(FolderImport.defaultBatchSize(for: try definition(from: missing, to: root, mode: .move)) == 256)
    }

    @Test(.enabled(if: SecondFileSystem.isAvailable, SecondFileSystem.skipReason))
    func aMoveAcrossFileSystemsCopiesInTheSmallerBatches() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path("root").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let drop = try SecondFileSystem.directory()
        #expect(FolderImport.defaultBatchSize(for: try definition(from: drop.path, to: root, mode: .move)) == 256)
    }
}
