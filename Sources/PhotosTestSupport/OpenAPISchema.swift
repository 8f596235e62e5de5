import Foundation
import Yams

/// `openapi/photosd.yaml` for the tests: the document as plain dictionaries, a validator of JSON
/// values against its schemas, and a canonical text to compare documents by.
public enum OpenAPISchema {
    /// The document as plain dictionaries.
    public static func document() throws -> [String: Any] {
        let url = Corpus.packageRoot.appendingPathComponent("openapi/photosd.yaml")
        let loaded = try Yams.load(yaml: try String(contentsOf: url, encoding: .utf8))
        return try found(plain(loaded as Any) as? [String: Any], "openapi/photosd.yaml is not a mapping")
    }

    /// Yams' `[AnyHashable: Any]` mappings as `[String: Any]`, all the way down.
    public static func plain(_ value: Any) -> Any {
        if let mapping = value as? [AnyHashable: Any] {
            return Dictionary(uniqueKeysWithValues: mapping.map { ("\($0.key)", plain($0.value)) })
        }
        if let sequence = value as? [Any] { return sequence.map(plain) }
        return value
    }

    /// `value` as JSON with sorted keys: equal texts are equal documents.
    public static func canonical(_ value: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes]),
            as: UTF8.self)
    }

    /// A `$ref` followed, once or more.
    public static func resolve(_ schema: [String: Any], in document: [String: Any]) throws -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            node = try found((node as? [String: Any])?[String(part)], "unresolved \(reference)")
        }
        return try resolve(try found(node as? [String: Any], "\(reference) is not an object"), in: document)
    }

    /// What of `value` breaks `schema` (the JSON Schema keywords the document uses: type, enum,
    /// const, oneOf, properties, required, additionalProperties, items, minItems, minLength,
    /// minimum, maximum).
    public static func validate(_ value: Any, _ schema: [String: Any], in document: [String: Any], at path: String)
        -> [String]
    {
        guard let schema = try? resolve(schema, in: document) else { return ["\(path): unresolved reference"] }
        var problems: [String] = []
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let fits = choices.filter { validate(value, $0, in: document, at: path).isEmpty }.count
            if fits != 1 {
                problems.append("\(path): \(value) fits \(fits) of oneOf's \(choices.count) schemas, not 1")
            }
        }
        if let constant = schema["const"], "\(constant)" != "\(value)" {
            problems.append("\(path): \(value) is not \(constant)")
        }
        if let least = schema["minItems"] as? Int, let array = value as? [Any], array.count < least {
            problems.append("\(path): fewer than \(least) items")
        }
        if let least = schema["minLength"] as? Int, let text = value as? String, text.count < least {
            problems.append("\(path): shorter than \(least)")
        }
        if Self.value(value, is: "number"), let number = Self.double(value) {
            if let low = Self.double(schema["minimum"]), number < low {
                problems.append("\(path): \(number) is below \(low)")
            }
            if let high = Self.double(schema["maximum"]), number > high {
                problems.append("\(path): \(number) is above \(high)")
            }
        }
        if let declared = schema["type"] {
            let types = (declared as? [String]) ?? [declared as? String ?? ""]
            guard types.contains(where: { Self.value(value, is: $0) }) else {
                return ["\(path): \(value) is not \(types)"]
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): no \(key)")
            }
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    problems += validate(member, property, in: document, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): \(key) is not in the schema")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    problems += validate(member, additional, in: document, at: "\(path).\(key)")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                problems += validate(element, items, in: document, at: "\(path)[\(index)]")
            }
        }
        return problems
    }

    /// A number of the document (Yams gives Int or Double) or of a JSON body (NSNumber).
    public static func double(_ value: Any?) -> Double? {
        switch value {
        case let number as Int: Double(number)
        case let number as Double: number
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }

    /// Whether `value` is of the JSON Schema type `kind`.
    public static func value(_ value: Any, is kind: String) -> Bool {
        switch kind {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        // JSONSerialization gives true and false as a boolean kind of NSNumber.
        case "boolean": return String(describing: type(of: value)) == "__NSCFBoolean"
        case "integer":
            guard let number = value as? NSNumber, !Self.value(value, is: "boolean") else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return value is NSNumber && !Self.value(value, is: "boolean")
        default: return false
        }
    }

    /// A part of the document that is not there or not of the expected kind.
    public struct Malformed: Error, CustomStringConvertible {
        /// What was looked for.
        public let description: String
    }

    private static func found<T>(_ value: T?, _ problem: String) throws -> T {
        guard let value else { throw Malformed(description: problem) }
        return value
    }
}
