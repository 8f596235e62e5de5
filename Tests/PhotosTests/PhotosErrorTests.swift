import Foundation
import Photos
import PhotosStore
import Testing

@testable import Photos

/// `PHPhotosError` as PhotoKit's bridged error, and the one table from store failures to its codes.
@Suite struct PhotosErrorTests {
    @Test func bridgesToNSErrorWithPhotoKitsDomainAndRawCode() {
        let error: any Error = PHPhotosError(
            .notEnoughSpace, "disk full", userInfo: [NSFilePathErrorKey: "/x/library.sqlite"])
        let nsError = error as NSError
        #expect(nsError.domain == PHPhotosErrorDomain)
        #expect(nsError.domain == "PHPhotosErrorDomain")
        #expect(nsError.code == 3305)
        #expect(nsError.userInfo[NSFilePathErrorKey] as? String == "/x/library.sqlite")
        #expect(nsError.userInfo[NSLocalizedDescriptionKey] as? String == "disk full")
        #expect(nsError.localizedDescription == "disk full")
        #expect(PHPhotosError.errorDomain == PHPhotosErrorDomain)
    }

    @Test func constructsAsPhotoKitsBridgedErrorDoes() {
        let bare = PHPhotosError(.identifierNotFound)
        #expect(bare.code == .identifierNotFound)
        #expect(!bare.message.isEmpty)
        let withInfo = PHPhotosError(.identifierNotFound, userInfo: [PHLocalIdentifiersErrorKey: ["A/L0/001"]])
        #expect(withInfo.localIdentifiers == ["A/L0/001"])
        #expect((withInfo as NSError).userInfo[PHLocalIdentifiersErrorKey] as? [String] == ["A/L0/001"])
        let old = PHPhotosError(.changeNotSupported, "no", localIdentifiers: ["B/L0/001"])
        #expect(old.message == "no" && old.errorCode == 3300)
        #expect(old.userInfo[PHLocalIdentifiersErrorKey] as? [String] == ["B/L0/001"])
    }

    @Test func bothCatchFormsMatch() {
        func fail() throws { throw PHPhotosError(.operationInterrupted) }
        var matchedByCode = false
        do { try fail() } catch PHPhotosError.operationInterrupted { matchedByCode = true } catch {}
        #expect(matchedByCode)
        var matchedByWhere = false
        do { try fail() } catch let error as PHPhotosError where error.code == .operationInterrupted {
            matchedByWhere = true
        } catch {}
        #expect(matchedByWhere)
        var wrongCodeMatched = false
        do { try fail() } catch PHPhotosError.notEnoughSpace { wrongCodeMatched = true } catch {}
        #expect(!wrongCodeMatched)
    }

    /// The mapping table, row by row: every store failure has a PhotoKit code, and only a cause
    /// that is not a state of the library (a bug) is `internalError`.
    @Test(arguments: [
        (StoreError.Code.full, PHPhotosError.Code.notEnoughSpace),
        (.busy, .operationInterrupted),
        (.interrupted, .operationInterrupted),
        (.corrupt, .invalidResource),
        (.readOnly, .accessRestricted),
        (.permissionDenied, .accessRestricted),
        (.unreachable, .libraryVolumeOffline),
        (.notFound, .libraryVolumeOffline),
        (.newerSchema, .changeNotSupported),
        (.missingColumn, .invalidResource),
        (.historyExpired, .persistentChangeTokenExpired),
        (.other, .internalError),
    ])
    func storeFailuresMapToPhotoKitCodes(store: StoreError.Code, photos: PHPhotosError.Code) {
        let error = PHPhotoLibrary.photosError(StoreError(store, "x", path: "/lib.sqlite"))
        #expect(error.code == photos)
        #expect(error.filePath == "/lib.sqlite")
    }

    @Test func everyStoreCodeIsInTheTable() {
        let known = Set(StoreError.Code.allCases.map { PHPhotosError.code(for: $0) })
        #expect(StoreError.Code.allCases.filter { PHPhotosError.code(for: $0) == .internalError } == [.other])
        #expect(known.count >= 7)
    }

    @Test func sqliteCodeMessageAndErrnoTravelInUserInfo() {
        let store = StoreError(
            .full, "no space", path: "/l.sqlite", sqliteCode: 13, sqliteMessage: "database or disk is full",
            errno: ENOSPC)
        let nsError = PHPhotoLibrary.photosError(store) as NSError
        #expect(nsError.code == PHPhotosError.Code.notEnoughSpace.rawValue)
        let sqlite = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(sqlite?.domain == PHPhotosError.sqliteErrorDomain && sqlite?.code == 13)
        #expect(sqlite?.localizedDescription == "database or disk is full")
        let posix = sqlite?.userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(posix?.domain == NSPOSIXErrorDomain && posix?.code == Int(ENOSPC))
        #expect(nsError.userInfo[NSFilePathErrorKey] as? String == "/l.sqlite")
    }

    @Test func fileSystemErrorsOfFoundationGetTheirCodes() {
        let missing = PHPhotoLibrary.photosError(
            CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/a.jpg"]))
        #expect(missing.code == .missingResource && missing.filePath == "/a.jpg")
        let full = PHPhotoLibrary.photosError(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)))
        #expect(full.code == .notEnoughSpace)
        struct Unknown: Error {}
        let unknown = PHPhotoLibrary.photosError(Unknown())
        #expect(unknown.code == .internalError && unknown.underlyingError != nil)
    }
}
