/// A form-encoded query (`name=value&…`, `+` a space, `%XX` a byte), as Icecast's admin calls send it: each
/// field's value as the bytes it encodes, the first of a name winning.
struct FormQuery {
    private var fields: [String: [UInt8]] = [:]

    /// The fields of `query`, the text after a request target's `?`; none without one.
    init(_ query: String?) {
        guard var query else { return }
        // Byte by byte: every HLS player's reload has a query, so its reading is on the server's busiest path.
        query.withUTF8 { bytes in
            for pair in bytes.split(separator: UInt8(ascii: "&")) {
                let name = pair.prefix { $0 != UInt8(ascii: "=") }
                let key = String(decoding: Self.decoded(name), as: UTF8.self)
                if fields[key] == nil { fields[key] = Self.decoded(pair.dropFirst(name.count + 1)) }
            }
        }
    }

    /// The bytes of field `name`, if the query has it.
    subscript(name: String) -> [UInt8]? { fields[name] }

    /// Field `name` as UTF-8 text; nil without the field or when it is not UTF-8.
    func text(_ name: String) -> String? {
        fields[name].flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// `+` as a space and `%XX` as its byte; a `%` without two hex digits stays as it is.
    private static func decoded(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "%"), index + 2 < text.endIndex,
               let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
