/// One trash directory of the freedesktop.org Trash specification: `files/` holds the trashed
/// files and directories under their trash names, `info/NAME.trashinfo` says where each came from.
///
/// ```swift
/// let card = try Trash().directory(for: "/media/card/DCIM/IMG_0001.JPG")
/// card.path                        // "/media/card/.Trash-1000"
/// card.filePath(of: "IMG_0001.JPG")  // "/media/card/.Trash-1000/files/IMG_0001.JPG"
/// ```
public struct TrashDirectory: Hashable, Sendable, CustomStringConvertible {
    /// Which of the specification's three places it is.
    public enum Kind: String, Hashable, Sendable {
        /// `$XDG_DATA_HOME/Trash`: for files on the home trash's own mount; `Path=` is absolute.
        case home
        /// `$topdir/.Trash/$uid`, under a shared `.Trash` the administrator made (a real directory
        /// with the sticky bit); `Path=` is relative to the top directory.
        case shared
        /// `$topdir/.Trash-$uid`, made by the user; `Path=` is relative to the top directory.
        case user
    }

    /// The trash directory (`…/Trash`, `…/.Trash/1000`, `…/.Trash-1000`).
    public let path: String
    /// Which place it is.
    public let kind: Kind
    /// The top directory of the mount it serves (where `.Trash` and `.Trash-$uid` are); for the
    /// home trash, the top of its own mount, against which another tool's relative `Path=` is read.
    public let topDirectory: String

    /// A trash directory at `path`.
    public init(path: String, kind: Kind, topDirectory: String) {
        self.path = path
        self.kind = kind
        self.topDirectory = topDirectory
    }

    /// `files/`, where trashed files are.
    public var filesDirectory: String { path + "/files" }
    /// `info/`, where their `.trashinfo` files are.
    public var infoDirectory: String { path + "/info" }
    /// The `directorysizes` cache of the sizes of trashed directories.
    public var directorySizesPath: String { path + "/directorysizes" }

    /// Where the trashed file named `name` is: `files/NAME`.
    public func filePath(of name: String) -> String { filesDirectory + "/" + name }
    /// Where its information is: `info/NAME.trashinfo`.
    public func infoPath(of name: String) -> String { infoDirectory + "/" + name + ".trashinfo" }

    /// The `Path=` value for the file at the absolute `path`: itself in the home trash, relative to
    /// the top directory in the others (absolute when it is not under it).
    func recordedPath(for path: String) -> String {
        guard kind != .home, MountTable.isInside(path, topDirectory), path != topDirectory else { return path }
        return String(path.dropFirst(topDirectory == "/" ? 1 : topDirectory.utf8.count + 1))
    }

    /// The absolute path a `Path=` value stands for: relative ones are under the top directory.
    func originalPath(for recorded: String) -> String {
        if recorded.hasPrefix("/") { return recorded }
        return topDirectory == "/" ? "/" + recorded : topDirectory + "/" + recorded
    }

    /// `"home trash /home/ana/.local/share/Trash"`.
    public var description: String { "\(kind) trash \(path)" }
}
