/// A template of an import (`layout` or `name`) that does not parse: what is wrong, and where.
///
/// ```swift
/// do {
///     _ = try ImportLayout(layout: "{yyyy}/{yyyy-MM-dd}", name: "{orignal}")
/// } catch {
///     print(error)  // unknown token {orignal} (did you mean {original}?) at offset 0 in name "{orignal}"
/// }
/// ```
public struct ImportTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the two templates.
    public enum Template: String, Sendable, Hashable {
        /// `layout`: the folders under the import's `to`.
        case layout
        /// `name`: the file's new stem.
        case name
    }

    /// The kind of problem.
    public enum Code: String, Sendable, Hashable {
        /// A brace without its partner: `{yyyy`, `yyyy}`.
        case unbalancedBrace
        /// A token that is not one of the tokens (`{orignal}`), or a date pattern written wrongly (`{yyy}`).
        case unknownToken
        /// A token where it cannot be: `{counter:N}` in `layout`.
        case misplacedToken
        /// A path the template cannot make: an absolute `layout`, an empty folder, `.` or `..`, a `/` in `name`.
        case invalidPath
        /// An empty `name`.
        case empty
    }

    /// The kind of problem.
    public let code: Code
    /// Which template.
    public let template: Template
    /// What is wrong.
    public let message: String
    /// The character offset in the template where the problem starts.
    public let offset: Int
    /// The template as given.
    public let text: String

    /// Creates an error.
    public init(_ code: Code, in template: Template, _ message: String, offset: Int, text: String) {
        self.code = code
        self.template = template
        self.message = message
        self.offset = offset
        self.text = text
    }

    /// The message with its place: `unknown token {orignal} (did you mean {original}?) at offset 0 in name "{orignal}"`.
    public var description: String {
        let quoted = text.count > 200 ? "\"\(text.prefix(200))…\"" : "\"\(text)\""
        return "\(message) at offset \(offset) in \(template.rawValue) \(quoted)"
    }
}
