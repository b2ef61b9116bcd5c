/// The CRC-16 of a LAME tag's music and of the tag itself: polynomial 0x8005, bits reflected (0xA001), starting
/// from 0, as LAME computes it and FFmpeg checks it. The music's runs over every byte a recording keeps, so it
/// takes eight bytes a step (slicing-by-8).
struct LAMECRC: Equatable {
    private(set) var value: UInt16 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        value = Self.tables.withUnsafeBufferPointer { tables in
            // Wrapping arithmetic and truncating conversions: every index is a byte, checks would only cost.
            let table = tables.baseAddress!
            func lookup(_ slice: Int, _ value: UInt64) -> UInt16 {
                table[slice &* 256 &+ Int(truncatingIfNeeded: value & 0xFF)]
            }
            var crc = value
            var position = 0
            while position &+ 8 <= bytes.count {
                // The register's two bytes fold into the next two message bytes, the first in the low bits.
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                    ^ UInt64(crc)
                crc = lookup(7, word) ^ lookup(6, word >> 8) ^ lookup(5, word >> 16) ^ lookup(4, word >> 24)
                    ^ lookup(3, word >> 32) ^ lookup(2, word >> 40) ^ lookup(1, word >> 48) ^ lookup(0, word >> 56)
                position &+= 8
            }
            while position < bytes.count {
                crc = crc >> 8 ^ lookup(0, UInt64(UInt8(truncatingIfNeeded: crc) ^ bytes[position]))
                position &+= 1
            }
            return crc
        }
    }

    static func of(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc = LAMECRC()
        bytes.withUnsafeBytes { crc.update($0) }
        return crc.value
    }

    /// Eight tables of 256: table k holds a byte's CRC followed by k zero bytes.
    private static let tables: [UInt16] = {
        var tables = [UInt16](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            tables[index] = (0..<8).reduce(UInt16(index)) { crc, _ in crc & 1 == 1 ? crc >> 1 ^ 0xA001 : crc >> 1 }
        }
        for table in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(table - 1) * 256 + index]
                tables[table * 256 + index] = previous >> 8 ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
