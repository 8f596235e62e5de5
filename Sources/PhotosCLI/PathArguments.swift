import ArgumentParser

/// Paths given on the command line, checked before a command runs.
enum PathArguments {
    /// Refuses an empty path: `""` (in a script, a variable that was never set) would otherwise be
    /// read as the working directory, and `photos import "$CARD"` would file whatever lies there.
    static func requireNonEmpty(_ paths: [String], _ what: String) throws {
        guard paths.contains(where: \.isEmpty) else { return }
        throw ValidationError("\(what) is an empty path (an unset variable?): name a file or directory")
    }
}
