import Foundation
import PhotosCore

/// What imports from drop folders read and keep in the library: the files of the library that may
/// hold an arriving file's content, and what a copying import took (their journal entries are
/// recorded by ``LibraryDatabase/journalAhead(_:)``).
extension LibraryDatabase {
    /// The library's files of `size` bytes that belong to an asset, with their content hash where
    /// one was computed: the only files that can hold the content of a file of that size.
    public func assetFiles(ofSize size: Int64) throws -> [(id: Int64, path: String, contentHash: String?)] {
        try assetFiles(ofSizes: [size])[size] ?? []
    }

    /// ``assetFiles(ofSize:)`` for each of `sizes`, in one read (an import asks for every photo of
    /// a folder at once); a size no file has is absent.
    public func assetFiles(ofSizes sizes: Set<Int64>) throws
        -> [Int64: [(id: Int64, path: String, contentHash: String?)]]
    {
        guard !sizes.isEmpty else { return [:] }
        return try read { db in
            let sql = """
                SELECT r.id, \(FileDirectories.path(db.dialect)) AS path, r.contentHash FROM \(FileDirectories.join)
                WHERE r.fileSize = ? AND r.assetId IS NOT NULL
                """
            var files: [Int64: [(id: Int64, path: String, contentHash: String?)]] = [:]
            for size in sizes {
                let rows = try db.rows(sql, [.int(size)]) { (try $0.int64(0), try $0.text(1), $0.optionalText(2)) }
                if !rows.isEmpty { files[size] = rows.map { (id: $0.0, path: $0.1, contentHash: $0.2) } }
            }
            return files
        }
    }

    /// Records a resource's content hash, once computed (outside the change log).
    public func noteContentHash(_ hash: String, forResource id: Int64) throws {
        _ = try bookkeeping { db in
            try db.execute("UPDATE resource SET contentHash = ? WHERE id = ?", [.text(hash), .int(id)])
        }
    }

    /// Where a copying import put the content `hash` of `size` bytes before, if it did.
    public func importedContent(hash: String, size: Int64) throws -> String? {
        try read { db in
            try db.scalarText(
                "SELECT destination FROM importedContent WHERE contentHash = ? AND fileSize = ?",
                [.text(hash), .int(size)])
        }
    }

    /// Remembers that a copying import took the content `hash` of `size` bytes from `source` to
    /// `destination`, so that the same file, seen again (a card inserted again), is not taken twice.
    public func noteImportedContent(hash: String, size: Int64, source: String, destination: String) throws {
        try noteImportedContent([ImportedContent(hash: hash, size: size, source: source, destination: destination)])
    }

    /// ``noteImportedContent(hash:size:source:destination:)`` for each of `taken`, in one transaction.
    public func noteImportedContent(_ taken: [ImportedContent]) throws {
        guard !taken.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try bookkeeping { db in
            let sql = """
                INSERT INTO importedContent (contentHash, fileSize, source, destination, importedDate)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (contentHash, fileSize) DO UPDATE SET source = excluded.source,
                    destination = excluded.destination, importedDate = excluded.importedDate
                """
            for content in taken {
                try db.execute(
                    sql,
                    [
                        .text(content.hash), .int(content.size), .text(content.source), .text(content.destination),
                        .double(now),
                    ])
            }
        }
    }
}

/// What a copying import took: a file's content (hash and size), where it came from and where it went.
public struct ImportedContent: Sendable, Hashable {
    /// The content hash (`ContentHash`'s, of the whole file).
    public var hash: String
    /// Its size in bytes.
    public var size: Int64
    /// The file it was copied from, in the drop folder.
    public var source: String
    /// Where the copy went, under the root.
    public var destination: String

    /// What an import took.
    public init(hash: String, size: Int64, source: String, destination: String) {
        self.hash = hash
        self.size = size
        self.source = source
        self.destination = destination
    }
}
