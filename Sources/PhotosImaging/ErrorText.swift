/// A buffer for the C wrappers' reasons (CPhotosVideo, CPhotosRaw), read as a string.
struct ErrorText {
    private var bytes = [CChar](repeating: 0, count: 256)

    mutating func withBuffer<Result>(_ body: (UnsafeMutablePointer<CChar>, Int) -> Result) -> Result {
        bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    }

    /// The reason, or nil when none was written.
    var text: String? {
        let text = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? nil : text
    }
}
