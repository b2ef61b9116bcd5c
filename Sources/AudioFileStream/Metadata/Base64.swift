/// Base64 (RFC 4648 §4), as Vorbis comments carry pictures, decoded without Foundation.
enum Base64 {
    /// The bytes `text` encodes, or nil when it is not base64: a character outside the alphabet, or a length
    /// that is not a multiple of four. Padding (`=`) may end it; line breaks are not allowed.
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var quantum: UInt32 = 0
        var padding = 0
        for (index, character) in text.enumerated() {
            let value: UInt32
            if character == UInt8(ascii: "=") && index >= text.count - 2 {
                padding += 1
                value = 0
            } else {
                guard padding == 0, let decoded = Self.value(of: character) else { return nil }
                value = decoded
            }
            quantum = quantum << 6 | value
            if index % 4 == 3 {
                bytes.append(UInt8(truncatingIfNeeded: quantum >> 16))
                bytes.append(UInt8(truncatingIfNeeded: quantum >> 8))
                bytes.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
            }
        }
        bytes.removeLast(padding)
        return bytes
    }

    private static func value(of character: UInt8) -> UInt32? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
