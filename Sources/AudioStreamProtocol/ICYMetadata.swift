/// One ICY metadata block: `StreamTitle='…';StreamUrl='…';` and whatever other keys the server sends.
public struct ICYMetadata: Equatable, Sendable {
    /// The block's text without its NUL padding: UTF-8 when valid, otherwise Windows-1252.
    public let text: String
    /// The block's `key='value'` pairs in order.
    public let fields: [Field]

    public struct Field: Equatable, Sendable {
        public let key: String
        public let value: String
    }

    /// The title; an empty one is a real "title cleared". Nil when the block has no StreamTitle.
    public var streamTitle: String? { value(of: "StreamTitle") }
    public var streamUrl: String? { value(of: "StreamUrl") }

    /// Reads a block; nil when it holds only padding.
    public init?(block: UnsafeRawBufferPointer) {
        var end = block.count
        while end > 0, block[end - 1] == 0 { end -= 1 }
        guard end > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: block[..<end])
        self.init(text: String(validating: bytes, as: UTF8.self) ?? Windows1252.decode(bytes))
    }

    /// Reads the text of a block.
    public init(text: String) {
        self.text = text
        fields = Self.fields(of: Substring(text))
    }

    /// The value of the first field named `key`, compared without case as servers differ.
    public func value(of key: String) -> String? {
        fields.first { $0.key.lowercased() == key.lowercased() }?.value
    }

    /// The `metadata` event of the `events` schema, for a block found after `offset` audio bytes.
    public func json(offset: Int64) -> JSON {
        EventJSON.icyMetadata(offset: offset, streamTitle: streamTitle, streamUrl: streamUrl,
                              fields: fields.map { ($0.key, $0.value) }, text: text)
    }

    /// The text's scalars, as every reader of ICY blocks reads their bytes: a mark after a quote never hides it.
    private typealias Scalars = Substring.UnicodeScalarView

    /// Splits `key='value';…`. Titles may hold `'` and `;`, so a value ends only at a quote followed by the
    /// end of the text, or by `;` and then the end or another `key=`.
    private static func fields(of text: Substring) -> [Field] {
        var fields: [Field] = []
        var rest = text.unicodeScalars
        while let equals = rest.firstIndex(of: "=") {
            let key = trimmed(rest[..<equals])
            var value = rest[rest.index(after: equals)...]
            guard value.first == "'" else {
                // Unquoted: up to the next semicolon.
                let end = value.firstIndex(of: ";") ?? value.endIndex
                if !key.isEmpty { fields.append(Field(key: string(key), value: string(value[..<end]))) }
                rest = end < value.endIndex ? value[value.index(after: end)...] : value[value.endIndex...]
                continue
            }
            value = value.dropFirst()
            let end = closingQuote(in: value) ?? value.endIndex
            if !key.isEmpty { fields.append(Field(key: string(key), value: string(value[..<end]))) }
            rest = end < value.endIndex ? value[value.index(after: end)...] : value[value.endIndex...]
            if rest.first == ";" { rest = rest.dropFirst() }
        }
        return fields
    }

    /// The first quote in `value` that can end it.
    private static func closingQuote(in value: Scalars) -> Scalars.Index? {
        var search = value
        while let quote = search.firstIndex(of: "'") {
            var after = value[value.index(after: quote)...]
            if trimmed(after).isEmpty { return quote }
            if after.first == ";" {
                after = after.dropFirst()
                if trimmed(after).isEmpty || startsWithKey(after) { return quote }
            }
            search = value[value.index(after: quote)...]
        }
        return nil
    }

    /// Whether `text` begins with `Identifier=`.
    private static func startsWithKey(_ text: Scalars) -> Bool {
        let text = text.drop { $0 == " " }
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex else { return false }
        return text[..<equals].allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-"
        }
    }

    /// `scalars` without white space at either end.
    private static func trimmed(_ scalars: Scalars) -> Scalars {
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return scalars[scalars.endIndex...] }
        return scalars[first...last]
    }

    private static func string(_ scalars: Scalars) -> String {
        String(Substring(scalars))
    }
}
