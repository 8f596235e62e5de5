import Foundation
import Testing

@testable import PhotosSidecars

/// What a root's identifier log says, line by line: the last word on a path and on an identifier
/// counts, and a line a stop cut says nothing.
@Suite struct IdentifierLogParsingTests {
    static let header = IdentifierLog.header
    static let a = "AAAAAAAA-0000-0000-0000-000000000001/L0/001"
    static let b = "BBBBBBBB-0000-0000-0000-000000000002/L0/001"

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var identifiers: [String: String]
        var testDescription: String { name }
    }

    static let table: [Case] = [
        Case(
            name: "one entry per photo", text: header + entry(a, "x/1.jpg") + entry(b, "2.jpg"),
            identifiers: ["x/1.jpg": a, "2.jpg": b]),
        Case(
            name: "a moved photo counts at its new path only",
            text: header + entry(a, "1.jpg") + entry(a, "y/1.jpg"), identifiers: ["y/1.jpg": a]),
        Case(
            name: "a path taken by another photo names that one",
            text: header + entry(a, "1.jpg") + entry(b, "1.jpg"), identifiers: ["1.jpg": b]),
        Case(
            name: "a deleted photo is forgotten",
            text: header + entry(a, "1.jpg") + "{\"id\":\"\(a)\",\"deleted\":true}\n", identifiers: [:]),
        Case(
            name: "a last line cut by a stop says nothing",
            text: header + entry(a, "1.jpg") + String(entry(b, "2.jpg").dropLast(5)), identifiers: ["1.jpg": a]),
        Case(
            name: "a cut line ended by the next append is passed over",
            text: header + String(entry(b, "2.jpg").dropLast(5)) + "\n" + entry(a, "1.jpg"),
            identifiers: ["1.jpg": a]),
        Case(
            name: "names with quotes, backslashes and newlines",
            text: header + entry(a, "a \"b\"\\c\nd.jpg"), identifiers: ["a \"b\"\\c\nd.jpg": a]),
    ]

    static func entry(_ identifier: String, _ path: String) -> String {
        IdentifierLog.entry(identifier: identifier, path: path)
    }

    @Test(arguments: table) func theLastWordCounts(_ test: Case) throws {
        let contents = try IdentifierLog.parse(Data(test.text.utf8), path: "/p/.photosd-identifiers")
        #expect(contents.identifiers == test.identifiers)
    }

    @Test func theLastCheckpointCountsAndIsFoundFromTheEnd() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = IdentifierLog.path(inRoot: directory.path)
        var text = Self.header
        for index in 0..<5000 { text += Self.entry(Self.a, "dir/\(index).jpg") }
        text += IdentifierLog.line(.init(library: "L", token: 7, lines: 5002))
        for index in 0..<3000 { text += Self.entry(Self.b, "more/\(index).jpg") }  // past one read's window
        text += IdentifierLog.line(.init(library: "L", token: 9, lines: 8004))
        text += "{\"checkpoint\":12,\"libr"  // cut by a stop
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let tail = try #require(try IdentifierLog.tail(path))
        #expect(tail.checkpoint == .init(library: "L", token: 9, lines: 8004))
        #expect(!tail.endsWithNewline)
        #expect(try IdentifierLog.read(path)?.checkpoint?.token == 9)
    }

    @Test(arguments: ["{\"mine\": true}\n", "", "hello", "{\"format\":\"photosd-identifiers\",\"version\":9}\n"])
    func aFileThatIsNotOursIsAnErrorNamingIt(_ text: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = IdentifierLog.path(inRoot: directory.path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        for read in [{ _ = try IdentifierLog.read(path) }, { _ = try IdentifierLog.tail(path) }] {
            let error = #expect(throws: ManifestError.self) { try read() }
            #expect(error?.path == path)
        }
    }
}
