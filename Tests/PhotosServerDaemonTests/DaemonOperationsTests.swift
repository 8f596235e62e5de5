import Foundation
import Glibc
import PhotosCore
import PhotosTestSupport
import PhotosWire
import Testing

/// The real `photosd` as a monitor and a Prometheus scraper meet it: `/metrics` parsed by the
/// Prometheus project's own parser (Python's `prometheus_client`) with every counter equal to what
/// happened, `GET /`, `/v1/version`, `/v1/openapi.json` and `/v1/health` (200, then 503 while its
/// only root is gone, then 200 again), over the socket and, with a token, over TCP.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct DaemonOperationsTests {
    static let photos = [
        "Camera/2008/Death Valley/FurnaceCreekInn.jpg", "Camera/2008/Nikon D3/DSC_0815.JPG",
        "Camera/2008/Pentax/IMGP2345.JPG", "Camera/1997/Ricoh/RIMG0001.JPG",
    ]

    @Test func metricsCountWhatHappenedAndParseAsPrometheusText() async throws {
        let parser = try await Prometheus.parser()
        let started = Date()
        let directory = try TemporaryDirectory(prefix: "photosd-operations")
        let root = directory.path("Pictures")
        // Three photos, each in its own directory, and two files that claim to be photos and are not.
        for (index, photo) in Self.photos.prefix(3).enumerated() {
            let folder = root.appendingPathComponent("Day \(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: try #require(Corpus.file(photo)), to: folder.appendingPathComponent("photo-\(index).jpg"))
        }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Junk"), withIntermediateDirectories: true)
        for name in ["broken.jpg", "broken.png"] {
            try Data("not a picture at all".utf8).write(to: root.appendingPathComponent("Junk/\(name)"))
        }
        // Two hooks: one that takes every batch, one that fails once and is parked.
        let config = directory.path("photosd.toml")
        try Data(
            """
            [[hooks]]
            name = "takes"
            command = ["/bin/sh", "-c", "cat > /dev/null"]

            [[hooks]]
            name = "fails"
            command = ["/bin/sh", "-c", "cat > /dev/null; exit 3"]
            max_failures = 1

            """.utf8
        ).write(to: config)
        let library = directory.path("library.sqlite").path
        let port = try LoopbackPort.free()
        let daemon = try await APIDaemon(
            directory: directory, root: root,
            arguments: [
                "--config", config.path, "--listen", "127.0.0.1:\(port)", "--poll-interval", "1", "--log-level",
                "debug",
            ])
        let socket = daemon.socket
        func get(_ target: String) async throws -> UnixHTTPClient.Reply {
            try await offPool { try UnixHTTPClient.request(socket, "GET", target) }
        }
        func hooks() async throws -> [String: HookStatus] {
            let listed = try await offPool {
                try BuiltProducts.run(
                    "photos", ["hooks", "status", "--json", "--library", library, "--config", config.path])
            }
            try #require(listed.status == 0, "\(listed.stderr)")
            let statuses = try listed.stdout.split(separator: "\n").map {
                try JSONDecoder().decode(HookStatus.self, from: Data($0.utf8))
            }
            return Dictionary(uniqueKeysWithValues: statuses.map { ($0.name, $0) })
        }
        func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
            try await waitUntil("\(what); photosd's log:\n\(daemon.logText)", condition)
        }
        try await eventually("both hooks' runs") {
            let statuses = try await hooks()
            return statuses["takes"]?.lag == 0 && statuses["takes"]?.runs ?? 0 > 0
                && statuses["fails"]?.state == "parked"
        }
        let statuses = try await hooks()
        let takes = try #require(statuses["takes"])

        // The hook's last run is an ISO 8601 date at UTC, as every date of the JSON, and the table shows it.
        let lastRun = try #require(takes.lastRunAt)
        #expect(lastRun.hasSuffix("+00:00"), "\(lastRun)")
        let parsed = ISO8601DateFormatter()
        parsed.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let lastRunDate = try #require(
            parsed.date(from: lastRun) ?? ISO8601DateFormatter().date(from: lastRun), "\(lastRun)")
        #expect(
            lastRunDate >= started.addingTimeInterval(-1) && lastRunDate <= Date().addingTimeInterval(1), "\(lastRun)")
        let table = try await offPool {
            try BuiltProducts.run("photos", ["hooks", "status", "--library", library, "--config", config.path])
        }
        #expect(table.stdout.contains(lastRun), "\(table.stdout)")

        // Which photosd answers: the version `photosd --version` prints, three times (timed below).
        let printed = try await offPool { try BuiltProducts.run("photosd", ["--version"]) }
        #expect(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "photosd \(PhotosVersion.current)")
        for _ in 0..<3 {
            let version = try await get("/v1/version")
            #expect(version.status == 200)
            #expect(
                try JSONDecoder().decode(API.Version.self, from: Data(version.body)).version == PhotosVersion.current)
        }
        #expect(try await get("/no/such/path").status == 404)
        let index = try await get("/")
        #expect(index.status == 200, "\(index.text)")
        #expect(try index.object()["openapi"] as? String == "/v1/openapi.json", "\(index.text)")
        let document = try await get("/v1/openapi.json")
        let served = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])
        let yaml = try OpenAPISchema.document()
        #expect(try OpenAPISchema.canonical(served) == (try OpenAPISchema.canonical(yaml)))

        // The metrics, as Prometheus reads them.
        let reply = try await get("/metrics")
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        // The document gives that type for the 200, with a string schema.
        let paths = try #require(yaml["paths"] as? [String: [String: Any]])
        let operation = try #require(paths["/metrics"]?["get"] as? [String: Any])
        let answer = try #require((operation["responses"] as? [String: Any])?["200"] as? [String: Any])
        let content = try #require(answer["content"] as? [String: Any])
        let schema = try #require(
            (content[reply.headers["content-type"] ?? ""] as? [String: Any])?["schema"] as? [String: Any])
        #expect(OpenAPISchema.validate(reply.text, schema, in: yaml, at: "$").isEmpty)
        var metrics = try await parser.parse(reply.text, in: directory)
        #expect(metrics.types["photosd_files_seen"] == "counter")
        #expect(metrics.types["photosd_ingest_queue_depth"] == "gauge")
        #expect(metrics.types["photosd_http_request_duration_seconds"] == "histogram")
        #expect(metrics.types["photosd_hook_run_duration_seconds"] == "histogram")
        #expect(metrics["photosd_files_seen_total"] == 5, "\(daemon.logText)")
        #expect(metrics["photosd_files_ingested_total"] == 3)
        #expect(metrics["photosd_files_rejected_total"] == 2)
        for name in ["updated", "moved", "removed"] { #expect(metrics["photosd_files_\(name)_total"] == 0, "\(name)") }
        #expect(metrics["photosd_ingest_queue_depth"] == 0 && metrics["photosd_scan_queue_depth"] == 0)
        // The daemon's own totals say the same.
        let status = try JSONDecoder().decode(DaemonStatus.self, from: Data(try await get("/v1/status").body))
        #expect(status.ingested == 3 && status.rejected == 2)
        // Each run of each hook, and each failure.
        #expect(metrics["photosd_hook_runs_total", ["hook": "takes"]] == Double(takes.runs))
        #expect(metrics["photosd_hook_failures_total", ["hook": "takes"]] == 0)
        #expect(metrics["photosd_hook_run_duration_seconds_count", ["hook": "takes"]] == Double(takes.runs))
        #expect(metrics["photosd_hook_runs_total", ["hook": "fails"]] == 1)
        #expect(metrics["photosd_hook_failures_total", ["hook": "fails"]] == 1)
        // Each request, by route: the three version requests, the unknown path.
        let version = ["method": "GET", "route": "/v1/version", "status": "200"]
        #expect(metrics["photosd_http_request_duration_seconds_count", version] == 3)
        #expect(metrics["photosd_http_request_duration_seconds_bucket", version.merging(["le": "+Inf"]) { $1 }] == 3)
        #expect((metrics["photosd_http_request_duration_seconds_sum", version] ?? 0) > 0)
        let unmatched = ["method": "GET", "route": "unmatched", "status": "404"]
        #expect(metrics["photosd_http_request_duration_seconds_count", unmatched] == 1)

        // A photo moved in (one event, one file looked at), then one deleted.
        let arriving = directory.path("arriving.jpg")
        try FileManager.default.copyItem(at: try #require(Corpus.file(Self.photos[3])), to: arriving)
        #expect(rename(arriving.path, root.appendingPathComponent("Day 0/later.jpg").path) == 0)
        try await eventually("the fourth photo's ingest") {
            metrics = try await parser.parse(try await get("/metrics").text, in: directory)
            return metrics["photosd_files_ingested_total"] == 4
        }
        // Each scan's files, as photosd logged them, when the count is not that one file's.
        #expect(metrics["photosd_files_seen_total"] == 6, "\(daemon.logText)")
        try FileManager.default.removeItem(at: root.appendingPathComponent("Day 1/photo-1.jpg"))
        try await eventually("the deleted photo's removal") {
            metrics = try await parser.parse(try await get("/metrics").text, in: directory)
            return metrics["photosd_files_removed_total"] == 1
        }
        #expect(metrics["photosd_files_ingested_total"] == 4 && metrics["photosd_files_rejected_total"] == 2)

        // Over TCP a scraper sends a token, like every client; an add-only one may not read metrics.
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/metrics").status == 401)
        let readOnly = try await offPool { try DaemonAccessTests.token(library, ["--access", "read-only"]) }
        let scraped = try await UnixHTTPClient.tcp(
            port, "GET", "/metrics", headers: ["Authorization": "Bearer \(readOnly)"])
        #expect(scraped.status == 200)
        #expect(try await parser.parse(scraped.text, in: directory)["photosd_files_ingested_total"] == 4)
        let addOnly = try await offPool { try DaemonAccessTests.token(library, ["--access", "add-only"]) }
        let bearer = ["Authorization": "Bearer \(addOnly)"]
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/metrics", headers: bearer).status == 403)
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/health", headers: bearer).status == 200)
        #expect(try await UnixHTTPClient.tcp(port, "GET", "/v1/version").status == 401)

        // Health: ok while the root is watched; 503 naming it while it is gone; ok once it is back.
        let healthy = try await get("/v1/health")
        #expect(healthy.status == 200)
        let health = try JSONDecoder().decode(API.Health.self, from: Data(healthy.body))
        #expect(health.status == "ok" && health.version == PhotosVersion.current && health.warnings == nil)
        try FileManager.default.removeItem(at: root)
        try await eventually("a 503 while the only root is gone") { try await get("/v1/health").status == 503 }
        let unavailable = try await get("/v1/health")
        #expect(unavailable.errorMessage.contains(root.path), "\(unavailable.text)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try await eventually("a 200 once the root is back") { try await get("/v1/health").status == 200 }

        daemon.process.terminate()
        try await offPool { daemon.process.waitUntilExit() }
        #expect(daemon.process.terminationStatus == 0, "\(daemon.logText)")
    }
}

/// The Prometheus text format read by the Prometheus project's Python client
/// (`prometheus_client.parser.text_string_to_metric_families`), which refuses what the format does
/// not allow; `scripts/setup` installs it (Debian's python3-prometheus-client).
struct Prometheus: Sendable {
    /// The Python that has the parser.
    let python: [String]

    /// Every sample and each family's type.
    struct Exposition {
        /// Each family's type (`counter`, `gauge`, `histogram`), by family name (a counter's without `_total`).
        var types: [String: String] = [:]
        /// Each sample: its name, labels and value.
        var samples: [(name: String, labels: [String: String], value: Double)] = []

        /// The value of the sample `name` whose labels are `labels` exactly; nil when there is none.
        subscript(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }
    }

    static let script = """
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        with open(sys.argv[1], encoding="utf-8") as text:
            families = list(text_string_to_metric_families(text.read()))
        print(json.dumps([{"name": f.name, "type": f.type,
                           "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
                          for f in families]))
        """

    /// Finds a Python that imports `prometheus_client`: the one on PATH, else Debian's.
    static func parser() async throws -> Prometheus {
        for python in [["/usr/bin/env", "python3"], ["/usr/bin/python3"]] {
            let found = try await offPool { try run(python + ["-c", "import prometheus_client"]).status == 0 }
            if found { return Prometheus(python: python) }
        }
        throw ParserMissing()
    }

    struct ParserMissing: Error, CustomStringConvertible {
        var description: String {
            "no python3 imports prometheus_client: run scripts/setup (it installs python3-prometheus-client)"
        }
    }

    /// Parses `text`, through a file in `directory`; the test fails when the parser refuses it.
    func parse(_ text: String, in directory: TemporaryDirectory) async throws -> Exposition {
        let file = directory.path("metrics-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        let result = try await offPool { try Self.run(python + ["-c", Self.script, file.path]) }
        try #require(result.status == 0, "prometheus_client refused the metrics: \(result.stderr)\n\(text)")
        let families = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var exposition = Exposition()
        for family in families {
            let name = try #require(family["name"] as? String)
            exposition.types[name] = family["type"] as? String
            for sample in family["samples"] as? [[String: Any]] ?? [] {
                exposition.samples.append(
                    (
                        try #require(sample["name"] as? String), sample["labels"] as? [String: String] ?? [:],
                        try #require((sample["value"] as? NSNumber)?.doubleValue)
                    ))
            }
        }
        return exposition
    }

    /// Runs a program to its end (blocking: call through ``offPool(_:)``).
    static func run(_ command: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()))
    }
}
