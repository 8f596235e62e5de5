import Foundation

// The errors a body can be refused with before anything is applied, and their texts: the
// client reads these, so each names where (`changes[2].location.latitude`) and why.

extension API.ChangeBatch {
    /// A body that is not a batch: not JSON, or not its shape. ``description`` names where
    /// (`changes[2].location.latitude: ...`).
    public struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, and where.
        public var description: String
    }

    /// A batch that is well-formed JSON but cannot be applied as it stands: which operation, and why.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The position of the operation in `changes`.
        public var index: Int
        /// What is wrong, after the operation's name.
        public var message: String
        /// `changes[INDEX]: MESSAGE`.
        public var description: String { "changes[\(index)]: \(message)" }
    }

    /// A decoding error as a ``Malformed`` says it: the path in `changes` (`changes[2].location`),
    /// then what was expected there, in JSON's words (`expected a string`, `missing`).
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the body" : text
        }
        func name(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            case is Int.Type, is Int64.Type: "an integer"
            case is Double.Type: "a number"
            case is [String].Type, is [Int].Type, is [API.ChangeOperation].Type: "an array"
            default: "an object"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(name(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, context.underlyingError != nil || context.debugDescription.contains("JSON") {
                return "the body is not valid JSON (\(context.debugDescription))"
            }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
