/// Reads an AVI's main header (`avih`): frame size, frame rate, and duration from the frame count
/// and rate.
enum AVIParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        let head = reader.head[...]
        guard head.matches(ascii: "RIFF"), head.matches(ascii: "AVI ", at: 8) else {
            throw reader.corrupt("the file does not start with a RIFF AVI header")
        }
        // `avih` is the first chunk of the first LIST (hdrl); look for it near the start.
        let searchEnd = min(head.count - 4, 4096)
        guard searchEnd > 12,
            let found = (12..<searchEnd).first(where: { head.matches(ascii: "avih", at: $0) }),
            let fields = head.slice(at: found + 8, count: 40)
        else { throw reader.corrupt("AVI has no main header (avih)") }
        var info = ContainerInfo()
        let microsecondsPerFrame = Int(fields.u32(at: 0, .littleEndian) ?? 0)
        let frames = Int(fields.u32(at: 16, .littleEndian) ?? 0)
        if microsecondsPerFrame > 0, frames > 0 {
            info.duration = Double(frames) * Double(microsecondsPerFrame) / 1_000_000
        }
        if microsecondsPerFrame > 0 {
            info.frameRate = 1_000_000 / Double(microsecondsPerFrame)
        }
        info.setSize(Int(fields.u32(at: 32, .littleEndian) ?? 0), Int(fields.u32(at: 36, .littleEndian) ?? 0))
        return info
    }
}
