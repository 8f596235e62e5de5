import ArgumentParser
import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosCLI

/// A long list of names on the command line (`photos import DCIM/*/*`, `photos rm $(…)`) parses to
/// the command the argument parser alone makes, without its square cost.
struct LongCommandLineTests {
    /// `count` identifiers, distinct.
    private static func identifiers(_ count: Int) -> [String] {
        (0..<count).map { String(format: "%08X-0000-4000-8000-000000000000/L0/001", $0) }
    }

    /// What the command or the error that `arguments` make prints, deeply, to compare two parses.
    private static func outcome(_ parse: () async throws -> any ParsableCommand) async -> String {
        do {
            var text = ""
            dump(try await parse(), to: &text)
            return text
        } catch {
            return "error: " + PhotosCommand.fullMessage(for: error)
        }
    }

    /// Parses `arguments` both ways and expects the same command or the same error.
    private static func expectSame(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async {
        let long = await outcome { try await LongCommandLine.parse(arguments, as: PhotosCommand.self) }
        let whole = await outcome { try await PhotosCommand.asyncParseAsRoot(arguments) }
        #expect(long == whole, sourceLocation: sourceLocation)
    }

    @Test func aLongListParsesToTheCommandTheParserAloneMakes() async throws {
        let names = Self.identifiers(600)
        let arguments = ["rm", "--config", "photos.toml", "--dry-run"] + names
        let head = try #require(LongCommandLine.split(arguments)?.head)
        #expect(head == ["rm", "--config", "photos.toml", "--dry-run"] + names.prefix(4))
        let command = try #require(
            try await LongCommandLine.parse(arguments, as: PhotosCommand.self) as? Remove)
        #expect(command.assets == names)
        #expect(command.dryRun && command.options.config == "photos.toml")
        await Self.expectSame(arguments)

        // Under two subcommand names, after an option's value, with `-` in it, after `--`.
        await Self.expectSame(["trash", "restore", "--library", "l.sqlite"] + names)
        await Self.expectSame(["trash", "restore"] + names)
        await Self.expectSame(["rm", "-"] + names)
        await Self.expectSame(["import", "--to", "/p", "--", "-odd.jpg"] + names)
        await Self.expectSame(["export", "-o", "/out"] + names + ["--rename"])
        await Self.expectSame(["favorite", "--off"] + names)
        await Self.expectSame(["scan", "--library", "l.sqlite"] + names)
    }

    @Test func aLineTheParserRefusesIsRefusedWithTheSameMessage() async {
        let names = Self.identifiers(300)
        await Self.expectSame(["rm", "--bogus"] + names)  // an unknown option
        await Self.expectSame(["rm"] + names.prefix(150) + ["--nope"] + names.suffix(150))
        await Self.expectSame(["mv"] + names)  // a command with two arguments, not a list
        await Self.expectSame(["rate"] + names)
        await Self.expectSame(["export", "-o", "/out", "--predicate", "favorite == YES"] + names)  // validation
        await Self.expectSame(["rm", "--help"] + names)
        await Self.expectSame(["nosuchcommand"] + names)
    }

    @Test func aShortLineGoesToTheParserWhole() {
        #expect(LongCommandLine.split(["rm"] + Self.identifiers(LongCommandLine.threshold - 1)) == nil)
        // Nothing after the last option but a few names: nothing to set aside.
        #expect(LongCommandLine.split(Self.identifiers(400) + ["-", "a", "b"]) == nil)
    }

    /// The built `photos`: 300 files named on its command line each reach the command, in their order.
    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
    func theBuiltCommandGetsEveryNameInOrder() throws {
        let directory = try TemporaryDirectory(prefix: "photos-long-line")
        let root = directory.path("Pictures").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let source = try #require(Corpus.file("Camera/2008/Misc/Canon_40D.jpg")).path
        let photos = (0..<300).map { root + String(format: "/IMG_%04d.jpg", 299 - $0) }
        for photo in photos { try FileManager.default.copyItem(atPath: source, toPath: photo) }
        let library = directory.path("library.sqlite").path
        let config = directory.path("config.toml").path
        try Data("roots = [{ path = \"\(root)\", write = \"files\" }]\n".utf8).write(to: URL(fileURLWithPath: config))
        let environment = [
            "XDG_DATA_HOME": directory.path("data").path, "HOME": directory.url.path,
            "XDG_CONFIG_HOME": directory.path("config-home").path, "XDG_RUNTIME_DIR": directory.path("run").path,
        ]
        let scan = try BuiltProducts.run("photos", ["scan", "--library", library, root], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")

        let dry = try BuiltProducts.run(
            "photos", ["rm", "--library", library, "--config", config, "--dry-run"] + photos, environment: environment)
        #expect(dry.status == 0, "\(dry.stderr)")
        let named = dry.stdout.split(separator: "\n").map { $0.components(separatedBy: "  would trash ").last ?? "" }
        #expect(named == photos)
        #expect(photos.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "a dry run moves nothing")
    }
}
