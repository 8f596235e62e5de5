import Foundation
import Photos
import PhotosWire
import Synchronization

/// A fetch a client pages through: the snapshot the first request took, described a page at a
/// time. The snapshot is PhotoKit's fetch result (row ids at the fetch's token), so a cursor stays
/// valid while the library changes: the next page carries on where the last ended, and objects
/// deleted meanwhile are left out, never shifting what follows.
struct Listing: Sendable {
    /// `assets`, `albums` or `folders`: the listing's key.
    let name: String
    /// How many objects the snapshot holds.
    let count: Int
    /// Writes the snapshot's objects at these positions, as elements of the listing or as lines.
    let write: @Sendable (Range<Int>, Form, inout WireJSONWriter) throws -> Void

    /// How objects are written: elements of `{"assets": [...]}`, or one JSON object a line (NDJSON).
    typealias Form = WireJSONWriter.Form

    /// `albums`: the only albums an asset's JSON may name (a limited client's); nil: every album.
    init(assets result: PHFetchResult<PHAsset>, albums: Set<String>? = nil) {
        name = "assets"
        count = result.count
        write = { range, form, writer in
            try result.writeAssetJSON(in: range, as: form, into: &writer, naming: albums)
        }
    }

    /// `limited`: the client sees no folder, so an album's JSON names none (its parent is left out).
    init<Collection: PHCollection>(
        _ name: String, collections results: [PHFetchResult<Collection>], limited: Bool = false
    ) {
        self.name = name
        let counts = results.map(\.count)
        count = counts.reduce(0, +)
        write = { range, form, writer in
            // Positions run through the results one after the other.
            var start = 0
            for (result, count) in zip(results, counts) {
                let part = range.clamped(to: start..<start + count)
                if !part.isEmpty {
                    try result.forEachDescriptionPage(in: part.lowerBound - start..<part.upperBound - start) { page in
                        for collection in page {
                            let collection = collection.seen(limited: limited)
                            switch form {
                            case .element: writer.appendElement(collection)
                            case .line: writer.appendLine(collection)
                            }
                        }
                    }
                }
                start += count
            }
        }
    }
}

/// The listings clients are paging through, by cursor: each kept for ``lifetime`` after its last
/// page, at most ``capacity`` at once (the oldest go first).
final class ListingCursors: Sendable {
    static let lifetime: TimeInterval = 600
    static let capacity = 256

    private struct Entry {
        var listing: Listing
        var offset: Int
        var touched: Date
        var access: ClientAccess
    }
    private let entries = Mutex<[String: Entry]>([:])

    /// Keeps `listing` to be continued at `offset`; returns the cursor that names it.
    func keep(_ listing: Listing, at offset: Int, for access: ClientAccess = .owner, now: Date = Date()) -> String {
        let cursor = UUID().uuidString
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.touched) < Self.lifetime }
            if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.touched < $1.value.touched }) {
                entries[oldest.key] = nil
            }
            entries[cursor] = Entry(listing: listing, offset: offset, touched: now, access: access)
        }
        return cursor
    }

    /// The listing a cursor names and where it goes on, taken out (a cursor serves one page; the
    /// page answers the next cursor). Nil for an unknown or expired cursor, and for another
    /// listing's (`name` is the listing's: assets, albums or folders) or another client's, which
    /// keep it.
    func take(_ cursor: String, of name: String, for access: ClientAccess = .owner, now: Date = Date())
        -> (listing: Listing, offset: Int)?
    {
        entries.withLock { entries in
            // Another listing's or client's cursor is not this one's, and stays for its own.
            guard let entry = entries[cursor], entry.listing.name == name, entry.access == access else { return nil }
            entries[cursor] = nil
            guard now.timeIntervalSince(entry.touched) < Self.lifetime else { return nil }
            return (entry.listing, entry.offset)
        }
    }
}

extension ClientAccess {
    /// The albums an asset's JSON may name for this client: its own if limited; nil (all) otherwise.
    var namedAlbums: Set<String>? { isLimited ? Set(albums) : nil }
}

extension CollectionDescription {
    /// The description as a client sees it: a limited client, which sees no folder, is not told
    /// the identifier of the folder that holds the album.
    func seen(limited: Bool) -> CollectionDescription {
        guard limited else { return self }
        var seen = self
        seen.parentLocalIdentifier = nil
        return seen
    }
}
