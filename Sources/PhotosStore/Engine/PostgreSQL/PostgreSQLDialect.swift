import Foundation

/// What PostgreSQL's SQL writes otherwise than the store's: the store writes SQL once, with SQLite's
/// `?` placeholders, and this makes PostgreSQL's text of it.
enum PostgreSQLDialect {
    /// `sql` with its `?` placeholders numbered as PostgreSQL's `$1, $2, …`, in order (SQLite's
    /// `?3` is `$3`); a `?` inside a string literal (`'…'`), a quoted name (`"…"`) or a comment
    /// stays as it is. Returns the text and how many values it takes (the largest number).
    ///
    /// ```swift
    /// PostgreSQLDialect.numberingPlaceholders("SELECT ? WHERE name = '?' AND id = ?")
    /// // ("SELECT $1 WHERE name = '?' AND id = $2", 2)
    /// ```
    static func numberingPlaceholders(_ sql: String) -> (sql: String, count: Int) {
        var output = [UInt8]()
        output.reserveCapacity(sql.utf8.count + 16)
        var count = 0
        let bytes = Array(sql.utf8)
        var index = 0
        // Copies a quoted literal or name through its closing quote (a doubled quote inside stays within).
        func copyQuoted(_ quote: UInt8) {
            output.append(bytes[index])
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                output.append(byte)
                index += 1
                if byte == quote {
                    guard index < bytes.count, bytes[index] == quote else { return }
                    output.append(quote)
                    index += 1
                }
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                copyQuoted(byte)
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    output.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                output.append(contentsOf: [byte, bytes[index + 1]])
                index += 2
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/")
                    {
                        output.append(contentsOf: [bytes[index], bytes[index + 1]])
                        index += 2
                        break
                    }
                    output.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "?"):
                // SQLite's numbered `?N` keeps its number; a plain `?` takes the one after the
                // largest so far, as SQLite numbers it.
                index += 1
                var number = 0
                var digits = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                    index += 1
                }
                if digits == 0 { number = count + 1 }
                count = max(count, number)
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(number).utf8)
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

}
