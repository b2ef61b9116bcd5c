/// The 80-bit IEEE 754 extended-precision number AIFF stores its sample rate in (Apple's "AIFF-C" spec, the
/// SANE `extended` type): a sign bit, a 15-bit exponent biased by 16383, and a 64-bit significand whose integer
/// bit is explicit.
enum ExtendedFloat80 {
    static let length = 10

    /// The value of the 10 bytes at the start of `bytes` (big-endian), or nil for an infinity or a NaN. Exact
    /// whenever the value fits a `Double` (every integer sample rate does); otherwise rounded to nearest.
    static func value(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let signAndExponent = Int(bytes.bigEndianUInt16(at: 0))
        let exponent = signAndExponent & 0x7FFF
        guard exponent != 0x7FFF else { return nil }
        let significand = UInt64(bytes.bigEndianUInt32(at: 2)) << 32 | UInt64(bytes.bigEndianUInt32(at: 6))
        let sign: FloatingPointSign = signAndExponent & 0x8000 != 0 ? .minus : .plus
        // The significand is an integer with its binary point after the top bit: scale by 2^(exponent − 63).
        return Double(sign: sign, exponent: exponent - 16383 - 63, significand: Double(significand))
    }
}
