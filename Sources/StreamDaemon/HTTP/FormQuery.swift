/// A form-encoded query (`name=value&…`, `+` a space, `%XX` a byte), as Icecast's admin calls send it: each
/// field's value as the bytes it encodes, the first of a name winning.
///
/// Read where a field is asked for, without a table: every HLS player's reload has a query, so reading one is on
/// the server's busiest path, and a handful of short fields is scanned faster than it is stored.
struct FormQuery {
    private let query: String?

    /// The fields of `query`, the text after a request target's `?`; none without one.
    init(_ query: String?) {
        self.query = query
    }

    /// The bytes of field `name`, if the query has it.
    subscript(name: String) -> [UInt8]? {
        withField(name) { $0.map(Self.decoded) }
    }

    /// Field `name` as UTF-8 text; nil without the field or when it is not UTF-8.
    func text(_ name: String) -> String? {
        withField(name) { value in
            // A value without escapes is its own text, no array made on the way: a reload's numbers are.
            value.flatMap { value in
                Self.hasEscapes(value)
                    ? String(validating: Self.decoded(value), as: UTF8.self)
                    : String(validating: value, as: UTF8.self)
            }
        }
    }

    /// `body` of the encoded value of field `name`, or of nil.
    private func withField<T>(_ name: String, _ body: (Bytes?) -> T) -> T {
        guard var query else { return body(nil) }
        var name = name
        return query.withUTF8 { bytes in name.withUTF8 { body(Self.field($0, in: bytes)) } }
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// The encoded value of the first field whose decoded name is `wanted`.
    private static func field(_ wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bytes? {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let pair = bytes[start..<end]
            start = end + 1
            guard !pair.isEmpty else { continue }
            let nameEnd = pair.firstIndex(of: UInt8(ascii: "=")) ?? end
            guard isName(pair[..<nameEnd], wanted) else { continue }
            return pair[min(nameEnd + 1, end)...]
        }
        return nil
    }

    /// Whether the encoded `name` decodes to `wanted`: compared as it is unless it has escapes.
    private static func isName(_ name: Bytes, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        hasEscapes(name) ? decoded(name).elementsEqual(wanted) : name.elementsEqual(wanted)
    }

    /// Whether `text` has a `%XX` or a `+`, which decoding changes.
    private static func hasEscapes(_ text: Bytes) -> Bool {
        text.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
    }

    /// `+` as a space and `%XX` as its byte; a `%` without two hex digits stays as it is.
    private static func decoded(_ text: Bytes) -> [UInt8] {
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
