/// The frame or sample number of a FLAC frame header (RFC 9639 §9.1.5), coded as UTF-8 codes a character and
/// stretched to 7 bytes: 31 bits for a frame number, 36 for a sample number.
enum FLACCodedNumber {
    /// The largest number a header can code.
    static let largest: Int64 = 1 << 36 - 1

    /// Appends the coding of `value` (0…`largest`).
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        guard value >= 0x80 else {
            bytes.append(UInt8(value))
            return
        }
        // n bytes hold 5n + 1 bits up to 6 bytes, and the 7-byte form 36.
        let length = (2...6).first { value < Int64(1) << (5 * $0 + 1) } ?? 7
        let leadingOnes = UInt8(truncatingIfNeeded: 0xFF00 >> length)
        bytes.append(leadingOnes | UInt8(truncatingIfNeeded: value >> (6 * (length - 1))))
        for shift in stride(from: 6 * (length - 2), through: 0, by: -6) {
            bytes.append(0x80 | UInt8(truncatingIfNeeded: value >> shift) & 0x3F)
        }
    }
}
