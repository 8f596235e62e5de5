import Foundation

/// One watched import folder (`[[imports]]` in the configuration file): files dropped in `from`
/// are filed under `to`, a root of the library, by ``layout``.
///
/// ```toml
/// [[imports]]
/// from = "/home/me/Sync/Phone"
/// to = "/home/me/Pictures"
/// layout = "{yyyy}/{yyyy-MM-dd}"
/// name = "{original}"
/// mode = "move"
/// duplicates = "skip"
/// settle_ms = 2000
/// ```
public struct ImportDefinition: Sendable, Hashable {
    /// What happens to a file once its copy is in place.
    public enum Mode: String, Sendable, Hashable, CaseIterable, Codable {
        /// The file leaves the drop folder: moved (a rename on one file system, else copied, then
        /// removed once the copy is in place).
        case move
        /// The file stays where it is; the library remembers what it imported, by content.
        case copy
    }

    /// What happens to a file whose content is already an asset of the library.
    public enum Duplicates: String, Sendable, Hashable, CaseIterable, Codable {
        /// It stays in the drop folder and is listed; it is never deleted.
        case skip
        /// It goes to the Trash.
        case trash
        /// It is imported as any other file.
        case keep
    }

    /// The drop folder, absolute and standardized: outside every root.
    public var from: String
    /// The root the files go to, absolute and standardized: a root with `write = "files"`.
    public var to: String
    /// The `layout` and `name` templates.
    public var layout: ImportLayout
    /// Whether the files leave the drop folder (`mode`, default `move`).
    public var mode: Mode
    /// What happens to duplicates (`duplicates`, default `skip`).
    public var duplicates: Duplicates
    /// How long a file must be quiet before it is taken (`settle_ms`, default 2 s).
    public var settle: Duration

    /// The default quiet time before a file is taken.
    public static let defaultSettle = Duration.milliseconds(2000)

    /// An import; `from` and `to` are standardized (no `.`, `..` or trailing slash).
    public init(
        from: String, to: String, layout: ImportLayout, mode: Mode = .move, duplicates: Duplicates = .skip,
        settle: Duration = defaultSettle
    ) {
        self.from = URL(fileURLWithPath: from).standardizedFileURL.path
        self.to = URL(fileURLWithPath: to).standardizedFileURL.path
        self.layout = layout
        self.mode = mode
        self.duplicates = duplicates
        self.settle = settle
    }
}
