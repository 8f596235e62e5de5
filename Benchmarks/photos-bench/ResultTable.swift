import Foundation

/// One printed row: a PhotoKit measure beside the same work done as plain SQL (the floor).
struct ResultRow: Sendable {
    var measure: String
    var size: Int
    var p50: Double
    var p99: Double
    var floorP50: Double?
    var floorP99: Double?
    var unit = "ms"

    /// PhotoKit p50 over floor p50.
    var ratio: Double? { floorP50.map { p50 / max($0, 1e-9) } }

    init(_ measure: String, size: Int, _ samples: Samples, floor: Samples?) {
        self.measure = measure
        self.size = size
        p50 = samples.p50
        p99 = samples.p99
        floorP50 = floor?.p50
        floorP99 = floor?.p99
    }

    init(_ measure: String, size: Int, value: Double, floor: Double?, unit: String) {
        self.measure = measure
        self.size = size
        p50 = value
        p99 = value
        floorP50 = floor
        floorP99 = floor
        self.unit = unit
    }
}

/// Prints rows as an aligned text table as they are measured, and keeps them for the summary.
final class ResultTable {
    private(set) var rows: [ResultRow] = []
    private let measureWidth = 34

    func printHeader() {
        print(
            pad("measure", measureWidth) + pad("size", 9, right: true) + pad("p50", 10, right: true)
                + pad("p99", 10, right: true) + pad("floor p50", 11, right: true) + pad("floor p99", 11, right: true)
                + pad("ratio", 8, right: true) + "  unit")
        print(String(repeating: "-", count: measureWidth + 9 + 10 + 10 + 11 + 11 + 8 + 6))
    }

    /// Prints a row, and keeps it for the summary unless `recording` is false (a reprint).
    func add(_ row: ResultRow, recording: Bool = true) {
        if recording { rows.append(row) }
        print(
            pad(row.measure, measureWidth) + pad(String(row.size), 9, right: true)
                + pad(Self.format(row.p50), 10, right: true) + pad(Self.format(row.p99), 10, right: true)
                + pad(row.floorP50.map(Self.format) ?? "-", 11, right: true)
                + pad(row.floorP99.map(Self.format) ?? "-", 11, right: true)
                + pad(row.ratio.map { String(format: "%.2fx", $0) } ?? "-", 8, right: true) + "  \(row.unit)")
    }

    func row(_ measure: String, size: Int) -> ResultRow? {
        rows.first { $0.measure == measure && $0.size == size }
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.1f", value) : String(format: "%.3f", value)
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
