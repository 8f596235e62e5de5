import Foundation
import GRDB
import Photos
import PhotosStore

extension LibraryMeasurements {
    /// `performChangesAndWait` with one `PHAssetChangeRequest` toggling `isFavorite`, against a plain
    /// write transaction that flips the column and appends a change-log row.
    ///
    /// Each round flips a different asset through PhotoKit, then flips it back through the floor, so
    /// every write changes something and the library ends as it began (save for its change log).
    func measureCommit() throws {
        let warmups = warmups(iterations)
        let options = fetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        options.fetchLimit = warmups + iterations
        let assets = Array(PHAsset.fetchAssets(with: options))
        let ids = try floor.read { db in
            try assets.map { asset in
                try Int64.fetchOne(
                    db, sql: "SELECT id FROM asset WHERE localIdentifier = ?",
                    arguments: [asset.localIdentifier])!
            }
        }
        let favoritesBefore = try favoriteCount()

        var samples = Samples()
        var floorSamples = Samples()
        for (round, asset) in assets.enumerated() {
            let photoKit = try timed {
                try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite.toggle() }
            }
            let plain = try timed { try floorToggle(id: ids[round], identifier: asset.localIdentifier) }
            if round >= warmups {
                samples.append(photoKit.duration)
                floorSamples.append(plain.duration)
            }
        }
        guard try favoriteCount() == favoritesBefore else {
            throw BenchmarkError("commit: the favorite count changed; a toggle did not write what it should")
        }
        table.add(ResultRow("commit one-request block", size: size, samples, floor: floorSamples))
    }

    private func floorToggle(id: Int64, identifier: String) throws {
        // The change-log row the library writes for one updated property, by the store's own writer.
        var log = ChangeLogWriter()
        log.recorder.updated(.asset, identifier, properties: ["isFavorite"])
        try floor.write { db in
            try db.execute(sql: "UPDATE asset SET isFavorite = NOT isFavorite WHERE id = ?", arguments: [id])
            _ = try log.append(to: db)
        }
    }

    private func favoriteCount() throws -> Int {
        try floor.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset WHERE isFavorite = 1") ?? 0 }
    }
}
