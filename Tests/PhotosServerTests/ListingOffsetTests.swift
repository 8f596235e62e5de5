import Foundation
import PhotosTestSupport
import PhotosWire
import Testing

@testable import PhotosServer

/// `offset` on `GET /v1/assets`, `/v1/albums` and `/v1/folders`: the first page starts at that
/// position of the listing (a timeline's window), and its cursor goes on from there.
@Suite struct ListingOffsetTests {
    /// The identifiers of a page and its cursor.
    static func page(_ socket: String, _ target: String, key: String) async throws -> (ids: [String], next: String?) {
        let reply = try await APIServerTests.get(socket, target)
        try #require(reply.status == 200, "\(target): \(reply.status) \(reply.text)")
        let object = try reply.object()
        let objects = try #require(object[key] as? [[String: Any]], "\(target): \(reply.text)")
        return (objects.compactMap { $0["localIdentifier"] as? String }, object["next"] as? String)
    }

    @Test func anOffsetPageIsThatWindowOfTheListingAndItsCursorGoesOn() async throws {
        try await APIServerTests.withServer { socket, _ in
            let query = "/v1/assets?sort=creationDate&includeHidden=true&includeAllBursts=true"
            let all = try await Self.page(socket, query, key: "assets").ids
            #expect(all.count == 12)
            for offset in [0, 1, 5, 10, 11, 12, 13, 100, Int.max] {
                let first = try await Self.page(socket, "\(query)&offset=\(offset)&pageSize=2", key: "assets")
                let start = min(offset, all.count)
                #expect(first.ids == Array(all[start..<min(all.count, start + 2)]), "offset \(offset)")
                // A cursor exactly when the listing goes on, and it goes on where the window ended.
                #expect((first.next != nil) == (start + 2 < all.count), "offset \(offset)")
                if let next = first.next {
                    let second = try await Self.page(socket, "/v1/assets?next=\(next)&pageSize=3", key: "assets")
                    #expect(second.ids == Array(all[start + 2..<min(all.count, start + 5)]), "offset \(offset)")
                }
            }
            // Without pageSize: the default page from there.
            #expect(try await Self.page(socket, "\(query)&offset=4", key: "assets").ids == Array(all[4...]))
        }
    }

    @Test func albumsAndFoldersTakeAnOffsetToo() async throws {
        try await APIServerTests.withServer { socket, _ in
            for key in ["albums", "folders"] {
                let all = try await Self.page(socket, "/v1/\(key)", key: key).ids
                #expect(!all.isEmpty, "\(key)")
                for offset in 0...all.count + 1 {
                    let page = try await Self.page(socket, "/v1/\(key)?offset=\(offset)&pageSize=1", key: key)
                    #expect(
                        page.ids == Array(all[min(offset, all.count)..<min(all.count, offset + 1)]), "\(key) \(offset)")
                    #expect((page.next != nil) == (offset + 1 < all.count), "\(key) \(offset)")
                }
            }
        }
    }

    @Test func jsonLinesStartAtTheOffset() async throws {
        try await APIServerTests.withServer { socket, _ in
            let all = try await Self.page(socket, "/v1/assets?sort=creationDate", key: "assets").ids
            let reply = try await APIServerTests.get(
                socket, "/v1/assets?sort=creationDate&offset=3", headers: ["Accept": "application/x-ndjson"])
            #expect(reply.status == 200 && reply.headers["content-type"] == "application/x-ndjson")
            let ids = try reply.text.split(separator: "\n").map {
                try #require(
                    (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["localIdentifier"]
                        as? String)
            }
            #expect(ids == Array(all[3...]))
        }
    }

    @Test func aNegativeOrNonNumericOffsetIsA400AndNotBesideACursor() async throws {
        try await APIServerTests.withServer { socket, _ in
            for target in [
                "/v1/assets?offset=-1", "/v1/assets?offset=x", "/v1/assets?offset=1.5", "/v1/assets?offset=",
                "/v1/albums?offset=-3", "/v1/folders?offset=two",
            ] {
                let reply = try await APIServerTests.get(socket, target)
                #expect(reply.status == 400, "\(target): \(reply.text)")
                let error = try JSONDecoder().decode(API.ErrorBody.self, from: Data(reply.body))
                #expect(error.error.message.contains("offset"), "\(target): \(error.error.message)")
            }
            let first = try await Self.page(socket, "/v1/assets?pageSize=1", key: "assets")
            let next = try #require(first.next)
            let both = try await APIServerTests.get(socket, "/v1/assets?next=\(next)&offset=2")
            #expect(both.status == 400, "\(both.text)")
        }
    }
}
