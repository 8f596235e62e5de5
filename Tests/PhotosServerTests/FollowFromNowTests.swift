import Foundation
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Following the change stream starts now, as `tail -f` does, and an EventSource that reconnects
/// resumes after the last event it saw (`Last-Event-ID`), not from the start of history.
@Suite struct FollowFromNowTests {
    @Test func aFollowStreamWithoutSinceStartsAtTheNextCommit() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let token = try fixture.library.database.currentToken()
            #expect(token >= 1, "the fixture has history that a replay would send first")
            let stream = try UnixHTTPClient(socket: socket)
            #expect(try await offPool { try stream.send("GET", "/v1/changes?follow=true") }.status == 200)
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            let line = try #require(try await offPool { try stream.nextLine() })
            #expect(try JSONDecoder().decode(LibraryChange.self, from: Data(line.utf8)).token == token + 1)
            // Without follow, the log is still the whole of it.
            let log = try await APIServerTests.get(socket, "/v1/changes")
            #expect(log.text.split(separator: "\n").count == (try fixture.library.database.changes(after: 0).count))
        }
    }

    @Test func anEventSourceResumesAfterItsLastEventID() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let token = try fixture.library.database.currentToken()
            let events = try UnixHTTPClient(socket: socket)
            let head = try await offPool {
                try events.send(
                    "GET", "/v1/changes?follow=true",
                    headers: ["Accept": "text/event-stream", "Last-Event-ID": "\(token - 1)"])
            }
            #expect(head.status == 200)
            // Where it resumes, then the entry it missed, then the new one.
            #expect(try await offPool { [try events.nextLine(), try events.nextLine()] } == ["id: \(token - 1)", ""])
            #expect(try await offPool { try events.nextLine() } == "id: \(token)")
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            var ids: [String] = []
            while ids.count < 1, let line = try await offPool({ try events.nextLine() }) {
                if line.hasPrefix("id: ") { ids.append(line) }
            }
            #expect(ids == ["id: \(token + 1)"])
            // A header that is no token is a 400.
            let bad = try await APIServerTests.get(
                socket, "/v1/changes", headers: ["Accept": "text/event-stream", "Last-Event-ID": "yesterday"])
            #expect(bad.status == 400)
        }
    }

    /// An EventSource reconnects to the URL it was opened with, `since` included: the
    /// `Last-Event-ID` it sends, not `since`, says where it resumes, so nothing comes twice.
    @Test func anEventSourceOpenedWithSinceResumesAfterItsLastEventIDNotSince() async throws {
        try await APIServerTests.withServer { socket, fixture in
            // Two entries at least, so that resuming after the first differs from starting at 0.
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            let token = try fixture.library.database.currentToken()
            #expect(token >= 2)
            let events = try UnixHTTPClient(socket: socket)
            let head = try await offPool {
                try events.send(
                    "GET", "/v1/changes?since=0&follow=true",
                    headers: ["Accept": "text/event-stream", "Last-Event-ID": "\(token - 1)"])
            }
            #expect(head.status == 200)
            // Where it resumes, then only the entry it missed.
            #expect(try await offPool { [try events.nextLine(), try events.nextLine()] } == ["id: \(token - 1)", ""])
            #expect(try await offPool { try events.nextLine() } == "id: \(token)")
            // Without the header, `since` is where it starts.
            let fresh = try UnixHTTPClient(socket: socket)
            _ = try await offPool {
                try fresh.send("GET", "/v1/changes?since=0&follow=true", headers: ["Accept": "text/event-stream"])
            }
            #expect(try await offPool { try fresh.nextLine() } == "id: 0")
        }
    }

    /// A page whose stream dropped before any change came (photosd restarted) resumes where its
    /// stream began: the changes made meanwhile come, not only those after it reconnects.
    @Test func anEventSourceThatSawNoChangeResumesWhereItsStreamBegan() async throws {
        try await APIServerTests.withServer { socket, fixture in
            let token = try fixture.library.database.currentToken()
            let first = try UnixHTTPClient(socket: socket)
            _ = try await offPool {
                try first.send("GET", "/v1/changes?follow=true", headers: ["Accept": "text/event-stream"])
            }
            let start = try #require(try await offPool { try first.nextLine() })
            #expect(start == "id: \(token)")
            first.cancel()
            let beach = fixture.asset("beach.jpg")
            try fixture.library.performChangesAndWait { PHAssetChangeRequest(for: beach).isFavorite.toggle() }
            // The EventSource sends the last id it was given.
            let again = try UnixHTTPClient(socket: socket)
            _ = try await offPool {
                try again.send(
                    "GET", "/v1/changes?follow=true",
                    headers: ["Accept": "text/event-stream", "Last-Event-ID": String(start.dropFirst(4))])
            }
            var ids: [String] = []
            while ids.count < 2, let line = try await offPool({ try again.nextLine() }) {
                if line.hasPrefix("id: ") { ids.append(line) }
            }
            #expect(ids == ["id: \(token)", "id: \(token + 1)"], "the change made while it was away")
        }
    }
}
