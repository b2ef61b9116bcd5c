/// A four-character code as Core Audio uses them: four ASCII bytes packed big-endian into 32 bits.
public struct FourCharCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Packs the first four bytes of `code`; shorter strings are padded with spaces.
    public init(_ code: String) {
        var value: UInt32 = 0
        var bytes = Array(code.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        for byte in bytes { value = value << 8 | UInt32(byte) }
        rawValue = value
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The four characters, as Core Audio prints them.
    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
