extension MPEGFrameHeader {
    /// Whether the frame's CRC-16 matches the bits it protects (ISO/IEC 11172-3 2.4.3.1: the header's last
    /// 16 bits, then Layer I's bit allocation or Layer III's side information). Nil when the frame carries no
    /// CRC, is too short, or is Layer II, whose protected length depends on its allocation tables.
    /// - Parameter frame: the whole frame, starting with this header.
    public func crcMatches(frame: UnsafeRawBufferPointer) -> Bool? {
        guard hasCRC, let protectedBits = protectedBitCount, frame.count >= 6 + (protectedBits + 7) / 8 else {
            return nil
        }
        var crc = Self.crc(bits: 16, of: frame, from: 2, register: 0xFFFF)
        crc = Self.crc(bits: protectedBits, of: frame, from: 6, register: crc)
        return crc == frame.bigEndianUInt16(at: 4)
    }

    /// Bits after the CRC word that the CRC covers, for the layers whose count follows from the header alone.
    private var protectedBitCount: Int? {
        switch layer {
        case 1:
            return 4 * layerIAllocationCount
        case 3:
            return sideInfoSize * 8
        default:
            return nil
        }
    }

    /// CRC-16 with the generator x¹⁶ + x¹⁵ + x² + 1, most significant bit first.
    private static func crc(bits: Int, of bytes: UnsafeRawBufferPointer, from start: Int, register: UInt16) -> UInt16 {
        var register = register
        for bit in 0..<bits {
            let input = (bytes[start + bit / 8] >> (7 - bit % 8)) & 1
            let feedback = (register >> 15) ^ UInt16(input)
            register <<= 1
            if feedback == 1 { register ^= 0x8005 }
        }
        return register
    }
}
