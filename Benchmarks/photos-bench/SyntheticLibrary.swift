import Foundation
import GRDB
import Photos
import PhotosStore

/// A library file of generated assets, built once per size and reused while its asset count matches.
///
/// The assets look like a phone's camera roll over 15 years: mostly photos imported soon after they
/// were taken, some older imports, ~12% videos, ~5% favorites, ~1% hidden, bursts, screenshots,
/// Live Photos and HDR, with a resource row each. Generation is seeded by size, so a rebuilt library
/// holds the same assets.
struct SyntheticLibrary {
    /// Assets inserted per write transaction.
    static let batchSize = 10_000
    /// 2010-01-01T00:00:00Z.
    static let firstDate: Double = 1_262_304_000
    /// 15 years, in seconds.
    static let span: Double = 15 * 365.25 * 86_400

    let size: Int
    let path: String

    init(size: Int, directory: String) {
        self.size = size
        path = (directory as NSString).appendingPathComponent("photos-bench-\(size).sqlite")
    }

    /// Opens the library, building it first unless a library with `size` assets is already there.
    /// Returns the seconds spent building (nil when reused).
    func prepare() throws -> Double? {
        if FileManager.default.fileExists(atPath: path) {
            do {
                let count = try LibraryDatabase(path: path).read { db in
                    Int(try db.scalarInt64("SELECT COUNT(*) FROM asset") ?? 0)
                }
                if count == size { return nil }
                print("  \(path) holds \(count) assets, not \(size): rebuilding")
            } catch {
                // A library kept from a development schema that no migration leads on from.
                print("  \(path) cannot be opened (\(error)): rebuilding")
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        try build()
        return (clock.now - start).milliseconds / 1e3
    }

    private func build() throws {
        let database = try LibraryDatabase(path: path)
        var generator = AssetGenerator(size: size)
        var inserted = 0
        var nextReport = min(size, 100_000)
        while inserted < size {
            let batch = min(Self.batchSize, size - inserted)
            try database.write { transaction in
                for _ in 0..<batch {
                    let (asset, resource) = generator.next()
                    try transaction.insertAsset(asset, resources: [resource])
                }
            }
            inserted += batch
            if inserted >= nextReport {
                print("  inserted \(inserted) / \(size)")
                nextReport += 100_000
            }
        }
        // No ANALYZE: the store never runs it, so the planner sees what it sees in a real library.
    }
}

/// Makes the assets of a synthetic library, in import order.
struct AssetGenerator {
    private var random: SplitMix64
    private let size: Int
    private var index = 0
    private var burst: (identifier: String, remaining: Int, date: Double)?

    init(size: Int) {
        self.size = size
        random = SplitMix64(seed: 0x5EED_0000 ^ UInt64(size))
    }

    private static let cameraSizes = [(4032, 3024), (3024, 4032), (4000, 3000), (6000, 4000), (1920, 1080)]
    private static let screenSizes = [(1170, 2532), (1284, 2778), (828, 1792), (2880, 1800)]
    /// Home, work and a few trips, so locations cluster as they do.
    private static let places = [(59.33, 18.07), (48.86, 2.35), (40.71, -74.0), (35.68, 139.69), (-33.87, 151.21)]

    /// The next asset and its original's resource row (its `assetId` is filled in on insert).
    mutating func next() -> (AssetRecord, ResourceRecord) {
        defer { index += 1 }
        let progress = Double(index) / Double(size)
        let imported = SyntheticLibrary.firstDate + SyntheticLibrary.span * progress
        var taken: Double
        let member = burst
        if let current = member {
            taken = current.date + 0.1
            burst = current.remaining > 1 ? (current.identifier, current.remaining - 1, taken) : nil
        } else if chance(0.10) {
            // An old photo imported late (a scanned album, a friend's shared photos).
            taken = SyntheticLibrary.firstDate + uniform(0..<max(1, SyntheticLibrary.span * progress))
        } else {
            taken = imported - uniform(0..<(7 * 86_400))
        }
        taken = max(SyntheticLibrary.firstDate - 86_400, taken)

        var record = AssetRecord(
            localIdentifier: localIdentifier(), mediaType: .image,
            addedDate: Date(timeIntervalSince1970: imported + uniform(0..<3_600)),
            creationDate: Date(timeIntervalSince1970: taken))
        record.creationDateOffset = [0, 3_600, 7_200, -18_000, 32_400][Int(random.next() % 5)]
        var subtypes: PHAssetMediaSubtype = []
        var size = Self.cameraSizes[Int(random.next() % UInt64(Self.cameraSizes.count))]
        var hasLocation = chance(0.6)

        if let current = member {
            // A burst member: only the first represents it; users pick a few.
            record.burstIdentifier = current.identifier
            record.burstSelectionTypes = chance(0.1) ? Int64(PHAssetBurstSelectionType.userPick.rawValue) : 0
        } else if chance(0.004) {
            let identifier = uuid().uuidString
            burst = (identifier, 4 + Int(random.next() % 12), taken)
            record.burstIdentifier = identifier
            record.representsBurst = true
            record.burstSelectionTypes = Int64(PHAssetBurstSelectionType.autoPick.rawValue)
        } else if chance(0.12) {
            record.mediaType = PHAssetMediaType.video.rawValue
            record.duration = 1 + uniform(0..<300)
            if chance(0.05) { subtypes.insert(.videoHighFrameRate) }
            if chance(0.03) { subtypes.insert(.videoTimelapse) }
            if chance(0.02) {
                subtypes = .videoScreenRecording
                hasLocation = false
            }
            size = (1920, 1080)
        } else if chance(0.07) {
            subtypes = .photoScreenshot
            size = Self.screenSizes[Int(random.next() % UInt64(Self.screenSizes.count))]
            hasLocation = false
        } else {
            if chance(0.25) { subtypes.insert(.photoLive) }
            if chance(0.10) { subtypes.insert(.photoHDR) }
            if chance(0.03) { subtypes.insert(.photoPanorama) }
            if chance(0.03) { subtypes.insert(.photoDepthEffect) }
            record.isRAW = chance(0.01)
        }
        record.mediaSubtypes = Int64(subtypes.rawValue)
        (record.pixelWidth, record.pixelHeight) = size
        if hasLocation {
            let place = Self.places[Int(random.next() % UInt64(Self.places.count))]
            record.latitude = place.0 + uniform(-0.5..<0.5)
            record.longitude = place.1 + uniform(-0.5..<0.5)
            record.altitude = chance(0.5) ? uniform(0..<400) : nil
        }
        record.isFavorite = chance(0.05)
        record.isHidden = chance(0.01)
        if chance(0.03) { record.adjustmentFormatIdentifier = "com.apple.photo" }

        let isVideo = record.mediaType == PHAssetMediaType.video.rawValue
        let year = 2010 + Int(progress * 15)
        let name = String(format: isVideo ? "IMG_%05d.MOV" : "IMG_%05d.HEIC", index % 100_000)
        let resource = ResourceRecord(
            assetId: 0, type: isVideo ? 2 : 1, path: "/srv/photos/\(year)/\(index / 1_000)/\(name)",
            uniformTypeIdentifier: isVideo ? "com.apple.quicktime-movie" : "public.heic",
            mimeType: isVideo ? "video/quicktime" : "image/heic",
            fileSize: Int64(isVideo ? 5_000_000 + random.next() % 500_000_000 : 800_000 + random.next() % 6_000_000),
            originalFilename: name)
        return (record, resource)
    }

    private mutating func chance(_ probability: Double) -> Bool {
        uniform(0..<1) < probability
    }

    private mutating func uniform(_ range: Range<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.next() >> 11) / Double(1 << 53)
    }

    /// A PhotoKit-shaped identifier (`UUID/L0/001`) from the seeded generator.
    private mutating func localIdentifier() -> String {
        uuid().uuidString + "/L0/001"
    }

    private mutating func uuid() -> UUID {
        var bytes = (random.next(), random.next())
        return withUnsafeBytes(of: &bytes) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}

/// A small seeded generator (SplitMix64), so a library of a size is the same on every build.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
