import Foundation

/// The API's OpenAPI document (`openapi/photosd.yaml`), compiled in as JSON
/// (`OpenAPIDocument+JSON.swift`, written by `scripts/openapi-json`): what `GET /v1/openapi.json`
/// answers, and the operations `GET /` lists. Compiled in rather than read from a file beside the
/// binary, so that a photosd copied alone (`~/.local/bin`) still serves it, with no YAML parser in
/// the server.
enum OpenAPIDocument {
    /// The JSON's bytes, as served.
    static let bytes = Array(json.utf8)

    /// Each operation the document describes, `METHOD PATH` (`GET /v1/assets/{id}`), by path and
    /// then method.
    static let operations: [String] = {
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let paths = object?["paths"] as? [String: Any] ?? [:]
        let methods = ["get", "put", "post", "delete", "patch", "head", "options"]
        return paths.keys.sorted().flatMap { path in
            let operations = paths[path] as? [String: Any] ?? [:]
            return methods.filter { operations[$0] != nil }.map { "\($0.uppercased()) \(path)" }
        }
    }()
}
