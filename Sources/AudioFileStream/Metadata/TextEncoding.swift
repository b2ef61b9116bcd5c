/// The text encodings of ID3v2 (the encoding byte of a frame), also used for ID3v1 (Latin-1) and APEv2 (UTF-8).
enum TextEncoding: UInt8 {
    case latin1 = 0
    /// UTF-16 with a byte order mark before each string.
    case utf16 = 1
    case utf16BigEndian = 2
    case utf8 = 3

    /// The width of one code unit, which is also the length of the string terminator.
    var codeUnitSize: Int {
        switch self {
        case .latin1, .utf8: 1
        case .utf16, .utf16BigEndian: 2
        }
    }

    /// Splits `bytes` at the first terminator (a zero code unit aligned to the code unit size).
    /// Returns the string before it and the bytes after it, or all of `bytes` and nothing when there is none.
    func splitTerminated(_ bytes: ArraySlice<UInt8>) -> (text: String, rest: ArraySlice<UInt8>) {
        let width = codeUnitSize
        var index = bytes.startIndex
        while index + width <= bytes.endIndex {
            if bytes[index..<index + width].allSatisfy({ $0 == 0 }) {
                return (decode(bytes[bytes.startIndex..<index]), bytes[(index + width)...])
            }
            index += width
        }
        return (decode(bytes), bytes[bytes.endIndex...])
    }

    /// Splits `bytes` into the strings separated by terminators; a trailing terminator ends the last string
    /// rather than starting an empty one (ID3v2.4 multiple values).
    func splitValues(_ bytes: ArraySlice<UInt8>) -> [String] {
        var values: [String] = []
        var rest = bytes
        while !rest.isEmpty {
            let (text, after) = splitTerminated(rest)
            values.append(text)
            rest = after
        }
        return values
    }

    /// Decodes `bytes` as one string; invalid sequences become U+FFFD rather than failing.
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .latin1:
            // Latin-1 is the first 256 code points of Unicode.
            var text = ""
            text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return text
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16:
            let (isBigEndian, body) = Self.byteOrder(of: bytes)
            return Self.decodeUTF16(body, bigEndian: isBigEndian)
        case .utf16BigEndian:
            return Self.decodeUTF16(bytes, bigEndian: true)
        }
    }

    /// Reads and strips a byte order mark. Without one, little-endian is assumed: BOM-less UTF-16 in real tags
    /// comes from Windows software, and mutagen reads it the same way.
    private static func byteOrder(of bytes: ArraySlice<UInt8>) -> (isBigEndian: Bool, body: ArraySlice<UInt8>) {
        guard bytes.count >= 2 else { return (false, bytes) }
        let first = bytes[bytes.startIndex]
        let second = bytes[bytes.startIndex + 1]
        if first == 0xFE && second == 0xFF { return (true, bytes.dropFirst(2)) }
        if first == 0xFF && second == 0xFE { return (false, bytes.dropFirst(2)) }
        return (false, bytes)
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        // A dangling odd byte cannot form a code unit and is dropped.
        while index + 1 < bytes.endIndex {
            let high = UInt16(bytes[bigEndian ? index : index + 1])
            let low = UInt16(bytes[bigEndian ? index + 1 : index])
            units.append(high << 8 | low)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }
}
