/// The two checksums of a FLAC frame (RFC 9639 §9.1.8 and §9.3), by table, most significant bit first, from 0.
enum FLACCRC {
    /// CRC-8 of the frame header: polynomial x^8 + x^2 + x + 1.
    static let crc8Table: [UInt8] = (0..<256).map { index in
        (0..<8).reduce(UInt8(index)) { crc, _ in crc & 0x80 != 0 ? crc << 1 ^ 0x07 : crc << 1 }
    }

    /// CRC-16 of the whole frame: polynomial x^16 + x^15 + x^2 + 1. Run over a frame including its own CRC, it
    /// ends at 0: that is how a frame's end is recognised.
    static let crc16Table: [UInt16] = (0..<256).map { index in
        (0..<8).reduce(UInt16(index) << 8) { crc, _ in crc & 0x8000 != 0 ? crc << 1 ^ 0x8005 : crc << 1 }
    }

    static func crc8(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        crc8Table.withUnsafeBufferPointer { table in bytes.reduce(0) { table[Int($0 ^ $1)] } }
    }

    /// `crc` carried on over `byte`.
    @inline(__always)
    static func crc16(_ crc: UInt16, _ byte: UInt8, table: UnsafeBufferPointer<UInt16>) -> UInt16 {
        crc << 8 ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
    }
}
