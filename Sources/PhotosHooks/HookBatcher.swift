import PhotosCore

/// Gathers change-log entries into a hook's runs: pure code, so that its rules are tested as a
/// table. A run holds whole entries, in order, and at most the hook's `batch` objects unless one
/// entry alone names more.
///
/// The rules, for a batch holding `n` objects offered an entry naming `m`:
///
/// | batch | entry | result |
/// |---|---|---|
/// | empty | any `m` (over the limit too) | taken: an entry is never split |
/// | `n` < limit | `n + m` ≤ limit | taken |
/// | `n` < limit | `n + m` > limit | held back: it starts the next batch, and this one is full |
/// | `n` ≥ limit | — | full: ``wantsMore`` is false, nothing is offered |
///
/// ``take()`` hands the batch out and starts the next one with the entry held back, if any (the
/// hook's next run begins with it, before anything newer is read). ``reset()`` forgets both: the
/// follower reads the log again from the hook's cursor (after a failed run, or an error).
///
/// ```swift
/// var batcher = HookBatcher(limit: 500)
/// while batcher.wantsMore, let entry = try feed.nextCommitted() { batcher.offer(entry) }
/// let run = batcher.take()  // whole entries, at most 500 objects unless the first names more
/// ```
struct HookBatcher: Sendable {
    /// The most objects in one batch (the hook's `batch`, 1 or more).
    let limit: Int
    /// The batch so far, oldest first.
    private(set) var entries: [LibraryChange] = []
    /// The objects the batch names.
    private(set) var objects = 0
    /// The entry that did not fit: the first of the next batch.
    private(set) var held: LibraryChange?

    /// An empty batcher for batches of at most `limit` objects.
    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the batch has nothing yet.
    var isEmpty: Bool { entries.isEmpty }

    /// Whether the batch takes another entry: it is below its limit and holds none back.
    var wantsMore: Bool { held == nil && (entries.isEmpty || objects < limit) }

    /// Adds `entry` to the batch, or holds it back for the next one when it would take the batch
    /// over its limit (an empty batch takes any entry).
    mutating func offer(_ entry: LibraryChange) {
        let count = entry.objectCount
        if !entries.isEmpty, objects + count > limit {
            held = entry
            return
        }
        entries.append(entry)
        objects += count
    }

    /// The batch; the next one starts with the entry held back, if any.
    mutating func take() -> [LibraryChange] {
        let batch = entries
        entries = []
        objects = 0
        if let entry = held {
            held = nil
            offer(entry)
        }
        return batch
    }

    /// Forgets the batch and the entry held back.
    mutating func reset() {
        entries = []
        objects = 0
        held = nil
    }
}
