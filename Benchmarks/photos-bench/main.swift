// Release-build benchmark of the Photos library over synthetic libraries of 100k and 1M assets.
//
//     swift run -c release --scratch-path .build-bench photos-bench [--sizes 100000,1000000] [--dir DIR]
//         [--iterations N] [--changes SIZE]
//
// Each measure is printed beside the same query done as plain SQL on the same file (the floor).
import Foundation
import PhotosServer

// The child the thumbnail measure runs to take one 256 px thumbnail's peak memory alone.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--render-once" {
    do {
        try ImageMeasurement.renderOnce(CommandLine.arguments[2])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("photos-bench: \(error)\n".utf8))
        exit(1)
    }
}
do {
    let options = try BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    try PhotosBenchmark(options: options).run()
} catch let error as UsageError {
    if let message = error.message {
        FileHandle.standardError.write(Data("photos-bench: \(message)\n\n\(BenchmarkOptions.usage)\n".utf8))
        exit(2)
    }
    print(BenchmarkOptions.usage)
} catch {
    FileHandle.standardError.write(Data("photos-bench: \(error)\n".utf8))
    exit(1)
}
