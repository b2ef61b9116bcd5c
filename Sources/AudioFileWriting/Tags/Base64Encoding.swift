/// Base64 (RFC 4648 §4) with padding and no line breaks, as Vorbis comments carry pictures.
enum Base64Encoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let count = min(3, bytes.count - start)
            var quantum = 0
            for index in 0..<3 { quantum = quantum << 8 | (index < count ? Int(bytes[start + index]) : 0) }
            for index in 0..<4 {
                text.append(index <= count ? alphabet[quantum >> (18 - 6 * index) & 0x3F] : UInt8(ascii: "="))
            }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
