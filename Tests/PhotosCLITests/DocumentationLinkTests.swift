import Foundation
import PhotosTestSupport
import Testing

/// Every relative link in README.md, CHANGELOG.md and docs/*.md names a file of the repository,
/// and a `#fragment` names a heading of the Markdown page it points at (as GitHub makes anchors).
struct DocumentationLinkTests {
    static let root = Corpus.packageRoot

    static var pages: [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md"), root.appendingPathComponent("CHANGELOG.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    @Test func everyRelativeLinkNamesAnExistingFileAndHeading() throws {
        let pages = Self.pages
        #expect(pages.count >= 16, "README.md, CHANGELOG.md and the pages of docs/")
        var checked = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Markdown.links(in: text) where !link.contains(":") {
                let (path, fragment) = Markdown.split(link)
                let target =
                    path.isEmpty
                    ? page : page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(
                    FileManager.default.fileExists(atPath: target.path),
                    "\(page.lastPathComponent): \(link) names no file")
                if let fragment, target.pathExtension == "md",
                    let targetText = try? String(contentsOf: target, encoding: .utf8)
                {
                    #expect(
                        Markdown.anchors(in: targetText).contains(fragment),
                        "\(page.lastPathComponent): \(link) names no heading of \(target.lastPathComponent)")
                }
                checked += 1
            }
        }
        #expect(checked >= 30, "the pages link to each other")
    }

    @Test func linksAndAnchorsAreFoundAsGitHubMakesThem() {
        let text = """
            # The `photos` command
            ## Change blocks: the rules
            See [the CLI](docs/cli.md#which-library) and [a](b.md). `[not](a-link.md)`
            ```sh
            echo [not](a-link.md)
            # not a heading
            ```
            """
        #expect(Markdown.links(in: text) == ["docs/cli.md#which-library", "b.md"])
        #expect(Markdown.anchors(in: text) == ["the-photos-command", "change-blocks-the-rules"])
    }
}

/// Just enough Markdown for the link check: inline links outside code, and headings' anchors.
enum Markdown {
    /// Lines outside fenced code blocks, with inline code spans removed.
    static func prose(_ text: String) -> [String] {
        var inFence = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if !inFence { lines.append(String(line)) }
        }
        return lines
    }

    /// The targets of `[text](target)` links.
    static func links(in text: String) -> [String] {
        let pattern = /\]\(([^)\s]+)\)/
        return prose(text).flatMap { line in
            line.replacing(/`[^`]*`/, with: "").matches(of: pattern).map { String($0.output.1) }
        }
    }

    /// The anchors GitHub gives the headings: lower case, punctuation dropped, spaces as hyphens.
    static func anchors(in text: String) -> Set<String> {
        Set(
            prose(text).compactMap { line -> String? in
                guard let match = line.wholeMatch(of: /#{1,6} (.*)/) else { return nil }
                let words = match.output.1.lowercased().filter {
                    $0.isLetter || $0.isNumber || $0 == "-" || $0 == " " || $0 == "_"
                }
                return words.replacing(" ", with: "-")
            })
    }

    /// A link's path and its fragment.
    static func split(_ link: String) -> (path: String, fragment: String?) {
        guard let hash = link.firstIndex(of: "#") else { return (link, nil) }
        return (String(link[..<hash]), String(link[link.index(after: hash)...]))
    }
}
