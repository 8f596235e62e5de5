import CPhotosXMP
import Synchronization

/// Exempi, opened on first use, behind one lock: the XMP Toolkit keeps global tables (namespaces)
/// and its error is per process, so one sidecar is parsed at a time. Parsing a sidecar takes well
/// under a millisecond.
enum Exempi {
    /// nil once loaded, with the library's namespaces registered; the reason otherwise.
    private static let state = Mutex<String??>(.none)

    /// Runs `body` with Exempi loaded and the lock held; throws `exempiUnavailable` naming `path`.
    static func with<T>(path: String, _ body: () throws(SidecarError) -> T) throws(SidecarError) -> T {
        try state.withLock { (loaded: inout String??) throws(SidecarError) -> T in
            if loaded == nil { loaded = .some(load()) }
            if case .some(.some(let reason)) = loaded {
                throw SidecarError(code: .exempiUnavailable, message: reason, path: path)
            }
            return try body()
        }
    }

    private static func load() -> String? {
        var error = [CChar](repeating: 0, count: 256)
        guard photos_xmp_load(&error, error.count) == 0 else {
            return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        // Before any parse: a sidecar using another prefix for these URIs would otherwise register it.
        for (uri, prefix) in [
            (XMPNamespace.photosd, XMPNamespace.photosdPrefix), (XMPNamespace.fstop, "fstop"),
            (XMPNamespace.microsoftPhoto, "MicrosoftPhoto"),
        ] {
            guard photos_xmp_register_namespace(uri, prefix, nil) else {
                return "Exempi cannot register the namespace \(uri) (error \(photos_xmp_get_error()))"
            }
        }
        return nil
    }
}

/// One parsed XMP packet (an `XmpPtr`), freed with this value. Use only inside ``Exempi/with(path:_:)``.
final class XMPTree {
    private let xmp: XmpPtr
    private let scratch: XmpStringPtr

    /// Parses `bytes`; throws `notXMP` naming `path`.
    init(parsing bytes: [UInt8], path: String) throws(SidecarError) {
        guard let xmp = photos_xmp_new_empty(), let scratch = photos_xmp_string_new() else {
            throw SidecarError(code: .notXMP, message: "Exempi cannot allocate a packet", path: path)
        }
        self.xmp = xmp
        self.scratch = scratch
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    photos_xmp_parse(xmp, $0, buffer.count)
                }
            } ?? false
        }
        guard parsed, bytes.contains(where: { $0 == UInt8(ascii: "<") }) else {
            throw SidecarError(
                code: .notXMP, message: "not XMP: Exempi cannot parse it (error \(photos_xmp_get_error()))", path: path)
        }
    }

    deinit {
        photos_xmp_string_free(scratch)
        photos_xmp_free(xmp)
    }

    /// The simple value at `path` (`Rating`, `Albums[2]/photosd:Title`) of `namespace`, if there is one.
    func value(_ namespace: String, _ path: String) -> String? {
        var options: UInt32 = 0
        guard photos_xmp_get_property(xmp, namespace, path, scratch, &options) else { return nil }
        // A struct or an array has no value of its own.
        guard options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0 else { return nil }
        return photos_xmp_string_cstr(scratch).map { String(cString: $0) }
    }

    /// Whether `path` of `namespace` exists (a struct or array included).
    func has(_ namespace: String, _ path: String) -> Bool { photos_xmp_has_property(xmp, namespace, path) }

    /// Every node outside the library's own properties, by namespace and path (`dc:subject[2]`,
    /// `dc:title[1]/?xml:lang`), with its value and form: what a write must leave as it was.
    func foreignNodes() -> [String: String] {
        guard let iterator = photos_xmp_iterator_new(xmp) else { return [:] }
        defer { photos_xmp_iterator_free(iterator) }
        guard let schema = photos_xmp_string_new(), let path = photos_xmp_string_new(),
            let value = photos_xmp_string_new()
        else { return [:] }
        defer {
            photos_xmp_string_free(schema)
            photos_xmp_string_free(path)
            photos_xmp_string_free(value)
        }
        var nodes: [String: String] = [:]
        var options: UInt32 = 0
        while photos_xmp_iterator_next(iterator, schema, path, value, &options) {
            let namespace = photos_xmp_string_cstr(schema).map { String(cString: $0) } ?? ""
            let nodePath = photos_xmp_string_cstr(path).map { String(cString: $0) } ?? ""
            if nodePath.isEmpty { continue }  // A schema node: there while it has properties.
            let top = nodePath.prefix { $0 != "/" && $0 != "[" }
            let name = top.split(separator: ":", maxSplits: 1).last.map(String.init) ?? String(top)
            if XMPNamespace.isOwned(namespace: namespace, name: name) { continue }
            let text = photos_xmp_string_cstr(value).map { String(cString: $0) } ?? ""
            nodes[namespace + " " + nodePath] = "\(options) \(text)"
        }
        return nodes
    }
}
