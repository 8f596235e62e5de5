/// Movie metadata beyond the movie header: QuickTime keys (`meta/keys` + `ilst`, what iPhones
/// write), iTunes-style item lists, and user data atoms (`date`, `loci`, `©xyz`, `©day`, `©mak`,
/// `©mod`, what Android cameras and older QuickTime writers use).
///
/// Dates are ranked as ExifTool ranks them: the keys' `creationdate` (which carries the local
/// offset), then user data, then the item list's `©day`; the movie header's UTC creation time is
/// the last resort (see ``ContainerInfo/creationDate``).
extension ISOMediaParser {
    private static let childTypes: Set<String> = ["hdlr", "keys", "ilst"]

    /// The compass part of a QuickTime direction (`"123.4"`, `"+123.4/-10"`, `"123.4M"`): degrees
    /// from true north, the elevation after the slash ignored; `nil` for a magnetic bearing (`M`)
    /// or a value outside 0 to 360.
    static func trueCompassDirection(_ text: String) -> Double? {
        let compass = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard !compass.hasSuffix("M"), let degrees = Double(compass), (0...360).contains(degrees) else { return nil }
        return degrees == 360 ? 0 : degrees
    }

    static func readMovieMetadata(
        _ moovChildren: [Box], in reader: FileReader, into info: inout ContainerInfo
    )
        throws(MetadataError)
    {
        var keyed: [String: String] = [:]
        var userData: [String: String] = [:]
        var metas = moovChildren.filter { $0.type == "meta" }
        if let udta = moovChildren.first(where: { $0.type == "udta" }) {
            let atoms = try children(of: udta, in: reader)
            metas += atoms.filter { $0.type == "meta" }
            for atom in atoms where atom.end - atom.payload <= 4096 {
                let data = try reader.readExactly(at: atom.payload, count: atom.end - atom.payload, what: atom.type)
                switch atom.type {
                case "date":
                    userData["date"] = text(data)
                case "loci":
                    if let location = location3GPP(data) {
                        (info.latitude, info.longitude, info.altitude) = (
                            location.latitude, location.longitude, location.altitude
                        )
                    }
                case "©xyz", "©day", "©mak", "©mod":
                    userData[atom.type] = quickTimeText(data)
                default:
                    break
                }
            }
        }
        for meta in metas {
            try readItemList(meta, in: reader, into: &keyed)
        }

        let dates = [keyed["com.apple.quicktime.creationdate"], userData["date"], userData["©day"], keyed["©day"]]
        info.statedDate = dates.lazy.compactMap { $0.flatMap(CapturedDate.init(parsing:)) }.first
        // The first well-formed one: a malformed key does not hide a usable user data atom.
        let iso6709 = [keyed["com.apple.quicktime.location.ISO6709"], userData["©xyz"], keyed["©xyz"]]
        if let location = iso6709.lazy.compactMap({ $0.flatMap(ISO6709Location.init(parsing:)) }).first {
            (info.latitude, info.longitude, info.altitude) = (location.latitude, location.longitude, location.altitude)
        }
        info.course = keyed["com.apple.quicktime.direction.motion"].flatMap(Self.trueCompassDirection)
        info.make = keyed["com.apple.quicktime.make"] ?? userData["©mak"]
        info.model = keyed["com.apple.quicktime.model"] ?? userData["©mod"]
        // The Live Photo movie's half of the pairing; the still carries it in its maker note.
        info.contentIdentifier = keyed["com.apple.quicktime.content.identifier"]
        info.fullFrameRatePlaybackIntent = keyed["com.apple.quicktime.full-frame-rate-playback-intent"]
            .flatMap { Int($0) }
        info.cinematicVideoIntent = keyed["com.apple.quicktime.cinematic-video-intent"].flatMap { Int($0) }
        info.captureFrameRate = keyed["com.android.capture.fps"].flatMap { Double($0) }
    }

    /// Adds the text values of a `meta` box's item list, by key name (QuickTime `keys`) or by
    /// item type (iTunes `mdir`).
    static func readItemList(
        _ meta: Box, in reader: FileReader, into values: inout [String: String]
    )
        throws(MetadataError)
    {
        // QuickTime's `meta` is a plain box; ISO's (and ffmpeg's) is a full box with 4 more bytes.
        let peek = try reader.read(at: meta.payload + 4, count: 4)
        let isPlain = peek.fourCC(at: 0).map(childTypes.contains) ?? false
        let inner = Box(type: "meta", start: meta.start, payload: meta.payload + (isPlain ? 0 : 4), end: meta.end)
        let boxes = try children(of: inner, in: reader)
        var keys: [String] = []
        if let keysBox = boxes.first(where: { $0.type == "keys" }), keysBox.end - keysBox.payload <= 1 << 20 {
            let data = try reader.readExactly(at: keysBox.payload, count: keysBox.end - keysBox.payload, what: "keys")
            var offset = 8
            for _ in 0..<min(Int(data.u32(at: 4, .bigEndian) ?? 0), 4096) {
                guard let size = data.u32(at: offset, .bigEndian).map(Int.init), size >= 8,
                    let name = data.slice(at: offset + 8, count: size - 8)
                else { break }
                keys.append(String(decoding: name, as: UTF8.self))
                offset += size
            }
        }
        guard let ilst = boxes.first(where: { $0.type == "ilst" }) else { return }
        for item in try children(of: ilst, in: reader) {
            guard let dataBox = try children(of: item, in: reader).first(where: { $0.type == "data" }),
                dataBox.end - dataBox.payload <= 4096
            else { continue }
            let data = try reader.readExactly(
                at: dataBox.payload, count: dataBox.end - dataBox.payload, what: "item list data"
            )
            guard let type = data.u32(at: 0, .bigEndian), let value = data.slice(at: 8, count: data.count - 8) else {
                continue
            }
            let index = Int(item.typeCode)
            let name = index >= 1 && index <= keys.count ? keys[index - 1] : item.type
            // Well-known types: 1 UTF-8 text; 21 and 22 big-endian signed and unsigned integers of
            // any width, 65-67 and 74 signed and 75-78 unsigned ones of 1, 2, 4 and 8 bytes, 23 a
            // 32-bit float (kept as decimal text); others (doubles, images) are not needed here.
            switch type {
            case 1: values[name] = text(value)
            case 23:
                if value.count == 4, let bits = value.u32(at: 0, .bigEndian) {
                    let number = Float(bitPattern: bits)
                    if number.isFinite { values[name] = String(number) }
                }
            case 21, 22: values[name] = integer(value, signed: type == 21).map(String.init)
            case 65, 66, 67, 74, 75, 76, 77, 78:
                values[name] = integer(value, signed: type <= 74).map(String.init)
            default: break
            }
        }
    }

    /// A big-endian integer of 1, 2, 4 or 8 bytes.
    private static func integer(_ bytes: ArraySlice<UInt8>, signed: Bool) -> Int? {
        switch (bytes.count, signed) {
        case (1, false): bytes.u8(at: 0).map(Int.init)
        case (1, true): bytes.u8(at: 0).map { Int(Int8(bitPattern: $0)) }
        case (2, false): bytes.u16(at: 0, .bigEndian).map(Int.init)
        case (2, true): bytes.u16(at: 0, .bigEndian).map { Int(Int16(bitPattern: $0)) }
        case (4, false): bytes.u32(at: 0, .bigEndian).map(Int.init)
        case (4, true): bytes.u32(at: 0, .bigEndian).map { Int(Int32(bitPattern: $0)) }
        case (8, true): bytes.u64(at: 0, .bigEndian).map { Int(Int64(bitPattern: $0)) }
        case (8, false): bytes.u64(at: 0, .bigEndian).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
        default: nil
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        let value = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
        return value.isEmpty ? nil : value
    }

    /// A QuickTime user data text atom: 16-bit length, 16-bit language, text. Some writers store
    /// plain text instead; that is accepted too.
    private static func quickTimeText(_ data: ArraySlice<UInt8>) -> String? {
        if let length = data.u16(at: 0, .bigEndian).map(Int.init), length + 4 <= data.count,
            let value = data.slice(at: 4, count: length)
        {
            return text(value)
        }
        return text(data)
    }

    /// A 3GPP `loci` box: version and flags, language, a NUL-terminated name, a role byte, then
    /// longitude, latitude and altitude as signed 16.16 fixed-point numbers.
    private static func location3GPP(_ data: ArraySlice<UInt8>) -> ISO6709Location? {
        guard let name = data.slice(at: 6, count: max(0, data.count - 6)), let nul = name.firstIndex(of: 0) else {
            return nil
        }
        let offset = 6 + (nul - name.startIndex) + 1 + 1
        guard let longitude = data.u32(at: offset, .bigEndian), let latitude = data.u32(at: offset + 4, .bigEndian)
        else { return nil }
        let fixed = { (value: UInt32) in Double(Int32(bitPattern: value)) / 65536 }
        let altitude = data.u32(at: offset + 8, .bigEndian).map(fixed)
        return ISO6709Location(latitude: fixed(latitude), longitude: fixed(longitude), altitude: altitude)
    }
}
