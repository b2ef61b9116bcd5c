/// A form-encoded query (`name=value&…`, `+` a space, `%XX` a byte), as Icecast's admin calls send it: each
/// field's value as the bytes it encodes, the first of a name winning.
struct FormQuery {
    private var fields: [String: [UInt8]] = [:]

    /// The fields of `query`, the text after a request target's `?`; none without one.
    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let name = pair.prefix { $0 != "=" }
            let value = pair.dropFirst(name.count + 1)
            let key = String(decoding: Self.decoded(name), as: UTF8.self)
            if fields[key] == nil { fields[key] = Self.decoded(value) }
        }
    }

    /// The bytes of field `name`, if the query has it.
    subscript(name: String) -> [UInt8]? { fields[name] }

    /// Field `name` as UTF-8 text; nil without the field or when it is not UTF-8.
    func text(_ name: String) -> String? {
        fields[name].flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// `+` as a space and `%XX` as its byte; a `%` without two hex digits stays as it is.
    private static func decoded(_ text: Substring) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return bytes
    }
}
