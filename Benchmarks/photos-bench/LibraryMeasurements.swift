import Foundation
import GRDB
import Photos
import PhotosStore

/// The measures taken on one synthetic library: each through PhotoKit's API, and the same work as
/// plain SQL on the same file through GRDB (the floor).
final class LibraryMeasurements {
    let size: Int
    let iterations: Int
    let countIterations: Int
    let library: PHPhotoLibrary
    /// A plain GRDB pool on the library file: no PhotoKit objects, no query building.
    let floor: DatabasePool
    let table: ResultTable

    /// PhotoKit's default visibility, as the store writes it: no hidden assets, only
    /// representatives and picks of bursts.
    static let visible = "\(AssetQuery.hiddenExcluded) AND \(AssetQuery.burstsCollapsed)"

    init(path: String, size: Int, options: BenchmarkOptions, table: ResultTable) throws {
        self.size = size
        iterations = options.iterations
        countIterations = options.countIterations
        library = try PHPhotoLibrary(url: URL(fileURLWithPath: path))
        floor = try DatabasePool(path: path)
        self.table = table
    }

    /// Untimed rounds before the timed ones: a tenth of the iterations, at least 3.
    func warmups(_ iterations: Int) -> Int { max(3, iterations / 10) }

    /// Options that fetch from this benchmark's library.
    func fetchOptions() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.photoLibrary = library
        return options
    }

    /// Prints SQLite's plan for a statement, indented, one line per step.
    func printPlan(_ label: String, sql: String, arguments: [SQLValue]) throws {
        // EXPLAIN QUERY PLAN's columns: id, parent, notused, detail.
        let steps = try floor.read { db in try db.rows("EXPLAIN QUERY PLAN " + sql, arguments) { try $0.text(3) } }
        print("    plan \(label): " + steps.joined(separator: " | "))
    }
}
