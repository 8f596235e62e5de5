import Foundation
import PhotosTestSupport
import Testing

/// man/photos.1 and man/photosd.1 (made by argument-parser's generate-manual plugin, `scripts/man-pages`)
/// name every subcommand, option and flag the built binaries have, with their help text: a page
/// that falls behind a command fails here, naming what it lacks.
struct ManPagesTests {
    @Test(arguments: ["photos", "photosd"])
    func thePageNamesEveryCommandAndOptionTheBinaryHas(binary: String) async throws {
        let dump = try await offPool { try BuiltProducts.run(binary, ["--experimental-dump-help"]) }
        #expect(dump.status == 0, "\(dump.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let root = try #require(json["command"] as? [String: Any])
        let pagePath = Corpus.packageRoot.appendingPathComponent("man/\(binary).1").path
        let page = try String(contentsOfFile: pagePath, encoding: .utf8)
        let items = page.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map { String($0) + " " }

        var missing: [String] = []
        var checked = 0
        func walk(_ command: [String: Any], path: [String]) {
            let name = command["commandName"] as? String ?? "?"
            let here = path + [name]
            if !path.isEmpty, command["shouldDisplay"] as? Bool ?? true {
                checked += 1
                if !items.contains(".It Em \(name) ") {
                    missing.append("the subcommand \(here.joined(separator: " "))")
                }
            }
            for argument in command["arguments"] as? [[String: Any]] ?? []
            where argument["shouldDisplay"] as? Bool ?? false {
                for spelling in argument["names"] as? [[String: Any]] ?? [] {
                    guard let name = spelling["name"] as? String, let kind = spelling["kind"] as? String else {
                        continue
                    }
                    let shown = kind == "short" ? "Fl \(name) " : "-\(name) "
                    checked += 1
                    if !items.contains(where: { $0.contains(shown) }) {
                        missing.append("\(kind == "short" ? "-" : "--")\(name) of \(here.joined(separator: " "))")
                    }
                }
                if let abstract = argument["abstract"] as? String, !abstract.isEmpty, !abstract.contains("\\") {
                    checked += 1
                    if !page.contains(abstract) {
                        missing.append("the help \"\(abstract)\" (\(here.joined(separator: " ")))")
                    }
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] { walk(subcommand, path: here) }
        }
        walk(root, path: [])
        #expect(checked > 10)
        #expect(missing.isEmpty, "man/\(binary).1 is behind the binary (regenerate it: scripts/man-pages): \(missing)")
    }
}
