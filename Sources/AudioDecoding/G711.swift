/// ITU-T G.711 expansion of µ-law and A-law bytes to 16-bit linear samples (the reference tables every decoder,
/// FFmpeg's included, uses).
enum G711 {
    static let uLaw: [Int16] = (0...255).map { expandULaw(UInt8($0)) }
    static let aLaw: [Int16] = (0...255).map { expandALaw(UInt8($0)) }

    private static func expandULaw(_ byte: UInt8) -> Int16 {
        let code = ~byte
        let bias = 0x84
        let magnitude = ((Int(code & 0x0F) << 3) + bias) << Int((code & 0x70) >> 4)
        return Int16(code & 0x80 != 0 ? bias - magnitude : magnitude - bias)
    }

    private static func expandALaw(_ byte: UInt8) -> Int16 {
        let code = byte ^ 0x55
        let mantissa = Int(code & 0x0F)
        let segment = Int((code & 0x70) >> 4)
        let magnitude = segment == 0 ? (2 * mantissa + 1) << 3 : (2 * mantissa + 1 + 32) << (segment + 2)
        return Int16(code & 0x80 != 0 ? magnitude : -magnitude)
    }
}
