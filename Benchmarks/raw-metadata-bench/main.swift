// Release-build driver of scripts/bench-raw: describes every file under the given paths with
// PhotosMetadata's extractor, its camera RAW files read by LibRaw alone or by the parsers, on one
// thread, and prints one JSON line with the count and the time.
//
//     raw-metadata-bench --reader libraw|parsers [--print] PATH...
//
// --print also writes one JSON line per file (what was read, or why not), to check the figures.
import Foundation
import PhotosMetadata

let usage = "usage: raw-metadata-bench --reader libraw|parsers [--print] PATH..."

var reading: RAWReading?
var printsFiles = false
var roots: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--reader":
        switch arguments.popFirst() {
        case "libraw": reading = .libRaw
        case "parsers": reading = .parsersFirst
        default: reading = nil
        }
    case "--print": printsFiles = true
    default: roots.append(argument)
    }
}
guard let reading, !roots.isEmpty else {
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(2)
}

/// The regular files under `roots`, sorted, so that every run reads the same files in the same order.
func files(under roots: [String]) -> [String] {
    var found: [String] = []
    for root in roots {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { continue }
        guard isDirectory.boolValue else {
            found.append(root)
            continue
        }
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let path = root + "/" + relative
            if (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular {
                found.append(path)
            }
        }
    }
    return found.sorted()
}

func json(_ object: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

let paths = files(under: roots)
let extractor = MetadataExtractor(timeZone: TimeZone(identifier: "UTC")!, rawReading: reading)
var failed = 0
var lines: [String] = []
let start = ContinuousClock.now
for path in paths {
    do {
        let metadata = try extractor.extract(path: path)
        if printsFiles {
            lines.append(
                json([
                    "path": path, "mimeType": metadata.mimeType, "width": metadata.pixelWidth ?? 0,
                    "height": metadata.pixelHeight ?? 0, "date": metadata.creationDate.map { "\($0)" } ?? "",
                    "make": metadata.make ?? "", "model": metadata.model ?? "", "lens": metadata.lensModel ?? "",
                ]))
        }
    } catch {
        failed += 1
        if printsFiles { lines.append(json(["path": path, "error": "\(error)"])) }
    }
}
let elapsed = start.duration(to: .now)
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
for line in lines { print(line) }
print(
    json([
        "reader": reading == .libRaw ? "libraw" : "parsers", "files": paths.count, "failed": failed, "seconds": seconds,
    ]))
