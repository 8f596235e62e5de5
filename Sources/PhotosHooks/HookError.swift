/// A hook that cannot run as configured, or a `photos hooks` request that cannot be done.
public struct HookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The hook's name.
    public var hook: String
    /// What is wrong.
    public var message: String

    /// An error about `hook`.
    public init(hook: String, _ message: String) {
        self.hook = hook
        self.message = message
    }

    /// `hook NAME: message`.
    public var description: String { "hook \(hook): \(message)" }
}
