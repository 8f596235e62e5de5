import Foundation

/// Strict objects: a key the shape does not know is an error, not something to skip. A request
/// body's misspelt field (`dryrun` for `dryRun`) would otherwise be dropped, and the request do
/// something else than asked.
public enum StrictFields {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws `DecodingError.dataCorrupted` naming the keys of the object `decoder` holds that are
    /// not in `allowed`, and the known ones, for the shape called `name`.
    public static func check(_ decoder: any Decoder, allowed: [String], in name: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
        guard unknown.isEmpty else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "unknown field\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) "
                        + "in \(name) (known: \(allowed.sorted().joined(separator: ", ")))"))
        }
    }
}

extension StrictFields {
    /// What a request body's decoding error tells its client: where (`identifiers[2]`, `the body`)
    /// and why (`expected a string`, an unknown field), as a change batch's are told.
    public static func message(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        return API.ChangeBatch.describe(error)
    }
}
