/// PhotoKit declares its request handlers as plain closures, not `@Sendable`, so that a program
/// can assign to its own variables in them. The library calls them from its own queues: these
/// wrap a caller's handler for that trip. Each handler is called from one request's work, one
/// call at a time, never from two threads at once, as PhotoKit calls them.
func callerHandler<A>(_ handler: @escaping (A) -> Void) -> @Sendable (A) -> Void {
    let box = UncheckedSendable(value: handler)
    return { box.value($0) }
}

/// A caller's two-argument handler, callable from the library's queues (see the one-argument form).
func callerHandler<A, B>(_ handler: @escaping (A, B) -> Void) -> @Sendable (A, B) -> Void {
    let box = UncheckedSendable(value: handler)
    return { box.value($0, $1) }
}

/// A caller's three-argument handler, callable from the library's queues.
func callerHandler<A, B, C>(_ handler: @escaping (A, B, C) -> Void) -> @Sendable (A, B, C) -> Void {
    let box = UncheckedSendable(value: handler)
    return { box.value($0, $1, $2) }
}

/// A caller's four-argument handler, callable from the library's queues.
func callerHandler<A, B, C, D>(_ handler: @escaping (A, B, C, D) -> Void) -> @Sendable (A, B, C, D) -> Void {
    let box = UncheckedSendable(value: handler)
    return { box.value($0, $1, $2, $3) }
}
