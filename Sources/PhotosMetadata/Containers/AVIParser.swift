/// Reads an AVI's main header (`avih`): frame size, frame rate, and duration from the frame count
/// and rate; and checks that the frames (the `movi` list) are in the file.
enum AVIParser {
    static func parse(_ reader: FileReader) throws(MetadataError) -> ContainerInfo {
        // The header list's chunks looked at lie in the first 16 KB and a chunk after.
        let head = try reader.read(at: 0, count: 16 * 1024 + 72)
        guard head.matches(ascii: "RIFF"), head.matches(ascii: "AVI ", at: 8) else {
            throw reader.corrupt("the file does not start with a RIFF AVI header")
        }
        // `avih` is the first chunk of the first LIST (hdrl); look for it near the start.
        guard let found = head.dropFirst(12).offset(of: Array("avih".utf8), before: min(head.count - 4, 4096) - 12),
            let fields = head.slice(at: 12 + found + 8, count: 40)
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
        info.statedDate = digitizationDate(in: head)
        try checkMovieData(in: reader)
        return info
    }

    /// The recording date of the `IDIT` chunk (RIFF's DateTimeOriginal, in the header list near the start), which
    /// cameras write as C's `ctime` text (`MON SEP 10 20:52:00 2012`) or as EXIF does (`2009/10/27 12:14:34`, with
    /// slashes or colons); wall-clock time, no offset.
    static func digitizationDate(in head: ArraySlice<UInt8>) -> CapturedDate? {
        guard
            let offset = head.dropFirst(12).offset(of: Array("IDIT".utf8), before: min(head.count - 8, 16 * 1024) - 12),
            case let found = 12 + offset,
            let size = head.u32(at: found + 4, .littleEndian).map(Int.init), size > 0, size <= 64,
            let bytes = head.slice(at: found + 8, count: size)
        else { return nil }
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
        if let date = CapturedDate(parsing: text.replacingOccurrences(of: "/", with: ":")) { return date }
        return ctime(text)
    }

    private static let monthNames = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ]

    /// C's `ctime` text: day name, month name, day, `hh:mm:ss`, year.
    static func ctime(_ text: String) -> CapturedDate? {
        let words = text.split(separator: " ").map(String.init)
        guard words.count == 5, let month = monthNames.firstIndex(of: words[1].uppercased()), let day = Int(words[2]),
            let year = Int(words[4]), year >= 1
        else { return nil }
        return CapturedDate(parsing: "\(year):\(month + 1):\(day) \(words[3])")
    }

    /// Checks that the first RIFF's `movi` list, the frames, lies in the file, or that the file stops right
    /// after its header (a metadata stub). A RIFF size below 4 (a recorder that never finished the file) is
    /// read as "to the end of the file". Later `AVIX` parts of an OpenDML file are not checked.
    private static func checkMovieData(in reader: FileReader) throws(MetadataError) {
        let declared = Int(try reader.readExactly(at: 4, count: 4, what: "RIFF size").u32(at: 0, .littleEndian) ?? 0)
        let riffEnd = declared < 4 ? reader.size : 8 + declared
        var position = 12
        var movi: Int?
        var count = 0
        while position + 12 <= min(riffEnd, reader.size), count < 10_000 {
            count += 1
            let header = try reader.readExactly(at: position, count: 12, what: "AVI chunk header")
            if header.matches(ascii: "LIST"), header.matches(ascii: "movi", at: 8) {
                movi = position
                break
            }
            let size = Int(header.u32(at: 4, .littleEndian) ?? 0)
            position += 8 + size + (size & 1)
        }
        if riffEnd <= reader.size {
            guard movi != nil else { throw reader.corrupt("AVI has no movie data (no movi list)") }
            return
        }
        guard let movi else {
            throw reader.truncated("AVI ends at offset \(reader.size), before its movie data (movi list)")
        }
        if reader.size != movi + 12 {
            throw reader.truncated(
                "AVI RIFF size says \(riffEnd) bytes but the file has \(reader.size): it ends inside its movie data "
                    + "(movi list at offset \(movi))")
        }
    }
}
