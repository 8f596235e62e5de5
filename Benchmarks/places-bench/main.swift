// Release-build driver of scripts/bench-places: reads a GeoNames file into a Gazetteer, then
// names random positions, and prints what each took.
//
//     places-bench [--rows N] [--lookups N] [--runs N] [FILE]
//
// Without FILE it writes a synthetic cities file of N rows (default 150,000, about the size of
// GeoNames' cities1000.txt, with alternate names as long as that file's) to a temporary directory,
// places clustered as towns are. The load is timed `--runs` times (default 5; the page cache is
// warm after the first) and the best and median are printed; then `--lookups` positions (default
// 1,000,000) are named: near places (within 20 km of a random one, as photos are) and anywhere
// on the globe (mostly sea: the cells around them are empty or sparse).
import Foundation
import PhotosPlaces

let usage = "usage: places-bench [--rows N] [--lookups N] [--runs N] [FILE]"
var rows = 150_000
var lookups = 1_000_000
var runs = 5
var file: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rows": rows = arguments.popFirst().flatMap(Int.init) ?? -1
    case "--lookups": lookups = arguments.popFirst().flatMap(Int.init) ?? -1
    case "--runs": runs = arguments.popFirst().flatMap(Int.init) ?? -1
    default: file = argument
    }
}
guard rows > 0, lookups > 0, runs > 0 else {
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(2)
}

/// SplitMix64: the same file and positions on every run.
struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

var generator = Generator(state: 14)
var temporary: String?
if file == nil {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("places-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("cities-\(rows).txt").path
    // 2,000 clusters (regions), towns scattered around them: dense cells and empty ones, as on Earth.
    let centres = (0..<2_000).map { _ in
        (Double.random(in: -55...70, using: &generator), Double.random(in: -180..<180, using: &generator))
    }
    var text = ""
    text.reserveCapacity(rows * 190)
    for i in 0..<rows {
        let centre = centres[Int.random(in: 0..<centres.count, using: &generator)]
        let latitude = max(-90, min(90, centre.0 + Double.random(in: -2...2, using: &generator)))
        let longitude =
            (centre.1 + Double.random(in: -3...3, using: &generator) + 540)
            .truncatingRemainder(dividingBy: 360) - 180
        let name = "Town \(i)"
        let alternates = (0..<8).map { "\(name) \($0)" }.joined(separator: ",")
        text += "\(3_000_000 + i)\t\(name)\t\(name)\t\(alternates)\t"
        text += String(format: "%.5f\t%.5f", latitude, longitude)
        text += "\tP\tPPL\tFR\t\t84\t\t\t\t\(Int.random(in: 1_000...100_000, using: &generator))\t\t200"
        text += "\tEurope/Paris\t2024-01-01\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    file = path
    temporary = directory.path
}
defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
let path = file!
let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

// Loading.
var loads: [Double] = []
var gazetteer: Gazetteer?
let residentBefore = residentBytes()
var residentAfter = 0
for _ in 0..<runs {
    gazetteer = nil
    let start = ContinuousClock.now
    let loaded = try Gazetteer(contentsOf: path)
    loads.append(seconds(ContinuousClock.now - start))
    residentAfter = max(residentAfter, residentBytes())
    gazetteer = loaded
}
let places = gazetteer!
loads.sort()

// Lookups: near places, then anywhere. Places to be near: those nearest random points, within
// 500 km (found before timing).
var anchors: [(Double, Double)] = []
while anchors.count < 10_000 {
    let latitude = Double.random(in: -55...70, using: &generator)
    let longitude = Double.random(in: -180..<180, using: &generator)
    if let place = places.nearestPlace(latitude: latitude, longitude: longitude, within: 500_000) {
        anchors.append((place.latitude, place.longitude))
    }
}
let nearPositions = (0..<lookups).map { _ -> (latitude: Double, longitude: Double) in
    let anchor = anchors[Int.random(in: 0..<anchors.count, using: &generator)]
    return (
        anchor.0 + Double.random(in: -0.18...0.18, using: &generator),
        anchor.1 + Double.random(in: -0.18...0.18, using: &generator)
    )
}
let anywhere = (0..<lookups).map { _ -> (latitude: Double, longitude: Double) in
    (Double.random(in: -90...90, using: &generator), Double.random(in: -180..<180, using: &generator))
}
func measure(_ positions: [(latitude: Double, longitude: Double)]) -> (perSecond: Double, found: Int) {
    var found = 0
    let start = ContinuousClock.now
    for position in positions {
        if places.nearestPlace(latitude: position.latitude, longitude: position.longitude) != nil { found += 1 }
    }
    return (Double(positions.count) / seconds(ContinuousClock.now - start), found)
}
let nearResult = measure(nearPositions)
let anywhereResult = measure(anywhere)
// An album's names: 1,000 photos around a few places.
let album = Array(nearPositions.prefix(1_000))
let albumStart = ContinuousClock.now
var names: [String] = []
for _ in 0..<100 { names = PlaceNames.names(of: album, in: places) }
let albumSeconds = seconds(ContinuousClock.now - albumStart) / 100

print("file: \(path) (\(size / 1_000_000) MB, \(places.count) places, \(places.skippedLines) lines skipped)")
print(String(format: "load: best %.3f s, median %.3f s over %d runs", loads[0], loads[loads.count / 2], runs))
print("resident: +\((residentAfter - residentBefore) / 1_000_000) MB after loading (peak of the runs)")
print(String(format: "lookups near places: %.0f/s (%d of %d named)", nearResult.perSecond, nearResult.found, lookups))
print(
    String(
        format: "lookups anywhere: %.0f/s (%d of %d named)", anywhereResult.perSecond, anywhereResult.found, lookups))
print(String(format: "an album of 1,000 positions: %.2f ms (%@)", albumSeconds * 1000, names.joined(separator: ", ")))
