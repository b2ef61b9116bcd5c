/// The CRC-16 of a LAME tag's music and of the tag itself: polynomial 0x8005, bits reflected (0xA001), starting
/// from 0, as LAME computes it and FFmpeg checks it.
struct LAMECRC: Equatable {
    private(set) var value: UInt16 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value = value >> 8 ^ Self.table[Int(UInt8(truncatingIfNeeded: value) ^ byte)]
        }
    }

    static func of(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc = LAMECRC()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.value
    }

    private static let table: [UInt16] = (0..<256).map { index in
        (0..<8).reduce(UInt16(index)) { crc, _ in crc & 1 == 1 ? crc >> 1 ^ 0xA001 : crc >> 1 }
    }
}
