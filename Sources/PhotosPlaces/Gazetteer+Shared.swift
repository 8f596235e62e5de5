import Foundation
import Synchronization

extension Gazetteer {
    /// The GeoNames files looked for in the default directory, the most detailed first.
    public static let fileNames = [
        "cities500.txt", "cities1000.txt", "cities5000.txt", "cities15000.txt", "allCountries.txt",
    ]

    /// The directory a gazetteer is looked for in: `$XDG_DATA_HOME/photosd/places`
    /// (`~/.local/share/photosd/places`), beside the default library.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = data
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/photosd/places"
    }

    /// The gazetteer to use: `$PHOTOS_GAZETTEER` when set and not empty, else the first of
    /// ``fileNames`` in ``defaultDirectory(environment:)``; nil when there is none (then no place
    /// is named, and nothing is read).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let path = environment["PHOTOS_GAZETTEER"], !path.isEmpty { return path }
        let directory = defaultDirectory(environment: environment)
        return fileNames.map { directory + "/" + $0 }.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// How loading a shared gazetteer went, told once per process and file.
    public struct LoadReport: Sendable {
        /// The gazetteer file.
        public var path: String
        /// The gazetteer, or why it could not be read.
        public var result: Result<Gazetteer, PlacesError>
        /// The time the file took to read and index, in seconds.
        public var seconds: Double
    }

    /// This process's gazetteer from a file, with the country names of a tzdata table: read on
    /// the first call for these files (later calls, from any thread, wait for it and share it),
    /// never again, even when it failed. `report` is called once, by the call that read it.
    /// A country table that cannot be read leaves the names of countries out, not the places.
    public static func shared(
        path: String, countryNamesPath: String?, report: (LoadReport) -> Void = { _ in }
    ) -> Gazetteer? {
        let slot = slots.withLock { slots in
            let key = "\(countryNamesPath ?? "")\t\(path)"
            if let slot = slots[key] { return slot }
            let slot = Slot()
            slots[key] = slot
            return slot
        }
        var loaded: LoadReport?
        let result = slot.state.withLock { state -> Result<Gazetteer, PlacesError> in
            if let state { return state }
            let start = ContinuousClock.now
            let result = Result { () throws(PlacesError) -> Gazetteer in
                let countries = countryNamesPath.flatMap { try? CountryNames.read(contentsOf: $0) } ?? [:]
                return try Gazetteer(contentsOf: path, countryNames: countries)
            }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            state = result
            loaded = LoadReport(path: path, result: result, seconds: seconds)
            return result
        }
        if let loaded { report(loaded) }
        return try? result.get()
    }

    /// One file's gazetteer, read at most once.
    private final class Slot: Sendable {
        let state = Mutex<Result<Gazetteer, PlacesError>?>(nil)
    }

    private static let slots = Mutex<[String: Slot]>([:])
}
