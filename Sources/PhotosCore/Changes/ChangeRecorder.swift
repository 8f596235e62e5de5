/// Collects what a transaction does to objects, folding repeated changes to one object into one.
///
/// The rules, per object, in the order the transaction makes them:
///
/// | before | then | recorded |
/// |---|---|---|
/// | nothing | insert | inserted |
/// | inserted | update | inserted (the update is part of the new object) |
/// | inserted | delete | nothing (it never existed outside the transaction) |
/// | nothing | update | updated, with its properties |
/// | updated | update | updated, properties merged |
/// | updated | delete | deleted |
/// | nothing | delete | deleted |
public struct ChangeRecorder: Sendable {
    private enum State: Sendable { case inserted, updated(Set<String>), deleted }
    private var states: [PHObjectType: [String: State]] = [:]
    private var order: [PHObjectType: [String]] = [:]
    private var seen: [PHObjectType: Set<String>] = [:]

    /// An empty recorder.
    public init() {}

    /// Records that an object was created.
    public mutating func inserted(_ type: PHObjectType, _ identifier: String) {
        set(type, identifier, .inserted)
    }

    /// Records that an object's properties changed.
    public mutating func updated(_ type: PHObjectType, _ identifier: String, properties: [String]) {
        switch states[type]?[identifier] {
        case .inserted, .deleted: return
        case .updated(let known): set(type, identifier, .updated(known.union(properties)))
        case nil: set(type, identifier, .updated(Set(properties)))
        }
    }

    /// Records that an object was deleted.
    public mutating func deleted(_ type: PHObjectType, _ identifier: String) {
        if case .inserted = states[type]?[identifier] {
            states[type]?[identifier] = nil
            return
        }
        set(type, identifier, .deleted)
    }

    /// True when nothing has been recorded (or everything recorded cancelled out).
    public var isEmpty: Bool { states.values.allSatisfy(\.isEmpty) }

    /// The changes recorded for one type, in the order objects were first touched.
    public func changes(for type: PHObjectType) -> ObjectChanges {
        var result = ObjectChanges()
        for identifier in order[type] ?? [] {
            switch states[type]?[identifier] {
            case .inserted: result.inserted.append(identifier)
            case .updated(let properties):
                result.updated.append(identifier)
                result.changedProperties[identifier] = properties.sorted()
            case .deleted: result.deleted.append(identifier)
            case nil: continue
            }
        }
        return result
    }

    private mutating func set(_ type: PHObjectType, _ identifier: String, _ state: State) {
        if seen[type, default: []].insert(identifier).inserted {
            order[type, default: []].append(identifier)
        }
        states[type, default: [:]][identifier] = state
    }
}
