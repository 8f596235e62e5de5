import Foundation
import Testing

@testable import PhotosCLI

/// `-` among the assets of `photos rm` and `photos trash restore|empty`: the lines of standard input.
struct StandardInputListTests {
    @Test func aLoneDashIsReplacedInPlaceByTheLinesOfTheInput() throws {
        let input = Data("A1/L0/001\r\n\nB2/L0/001\n/photos/with space.jpg\n".utf8)
        #expect(
            try StandardInputList.expanding(["first", "-", "last"], input: { input })
                == ["first", "A1/L0/001", "B2/L0/001", "/photos/with space.jpg", "last"])
        #expect(try StandardInputList.expanding(["-"], input: { Data() }) == [])
    }

    @Test func argumentsWithoutADashAreLeftAsTheyAreAndStandardInputUnread() throws {
        var read = false
        let arguments = ["A1/L0/001", "-x", "--", "a-b"]
        #expect(
            try StandardInputList.expanding(
                arguments,
                input: {
                    read = true
                    return Data()
                }) == arguments)
        #expect(!read)
    }

    @Test func aSecondDashIsRefused() {
        #expect(throws: CLIError.self) { try StandardInputList.expanding(["-", "-"], input: { Data() }) }
    }
}
