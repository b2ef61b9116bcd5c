/// The checksums sync frames carry, by table, most significant bit first, from 0: FLAC's two (RFC 9639 §9.1.8
/// and §9.3), and AC-3's and E-AC-3's CRC-16, which is FLAC's (ATSC A/52 §7.10). Public for the writers,
/// which make a frame's CRCs again when they rewrite its header.
public enum FrameCRC {
    /// CRC-8 of the frame header: polynomial x^8 + x^2 + x + 1.
    static let crc8Table: [UInt8] = (0..<256).map { index in
        (0..<8).reduce(UInt8(index)) { crc, _ in crc & 0x80 != 0 ? crc << 1 ^ 0x07 : crc << 1 }
    }

    /// CRC-16 of the whole frame: polynomial x^16 + x^15 + x^2 + 1. Run over a frame including its own CRC, it
    /// ends at 0: that is how a FLAC frame's end is recognised, and an AC-3 frame found after a loss of sync
    /// believed. Eight tables of 256: table k holds a byte's CRC
    /// followed by k zero bytes, so that eight bytes are taken in one step (slicing-by-8).
    static let crc16Tables: [UInt16] = {
        var tables = [UInt16](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            tables[index] = (0..<8).reduce(UInt16(index) << 8) { crc, _ in crc & 0x8000 != 0 ? crc << 1 ^ 0x8005 : crc << 1 }
        }
        for table in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(table - 1) * 256 + index]
                tables[table * 256 + index] = previous << 8 ^ tables[Int(previous >> 8)]
            }
        }
        return tables
    }()

    public static func crc8(_ bytes: UnsafeRawBufferPointer) -> UInt8 {
        crc8Table.withUnsafeBufferPointer { table in bytes.reduce(0) { table[Int($0 ^ $1)] } }
    }

    private static let folding = CRCFolding(polynomial: 0x8005, width: 16)

    /// `crc` carried on over `bytes[start..<end]`: folded by carry-less multiplication where the CPU has it.
    public static func crc16(_ crc: UInt16, _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt16 {
        let run = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        return UInt16(truncatingIfNeeded: folding.update(UInt32(crc), with: run) { crc, bytes in
            UInt32(sliced16(UInt16(truncatingIfNeeded: crc), bytes, from: 0, to: bytes.count))
        })
    }

    /// `crc` carried on over `bytes[start..<end]`, eight bytes at a time.
    private static func sliced16(_ crc: UInt16, _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt16 {
        crc16Tables.withUnsafeBufferPointer { tables in
            // Wrapping arithmetic and truncating conversions: every index is a byte, checks would only cost.
            let table = tables.baseAddress!
            func lookup(_ slice: Int, _ value: UInt64) -> UInt16 {
                table[slice &* 256 &+ Int(truncatingIfNeeded: value & 0xFF)]
            }
            var crc = crc
            var position = start
            while position &+ 8 <= end {
                // The register's two bytes fold into the next two message bytes.
                let word = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                    ^ UInt64(crc) << 48
                crc = lookup(7, word >> 56) ^ lookup(6, word >> 48) ^ lookup(5, word >> 40) ^ lookup(4, word >> 32)
                    ^ lookup(3, word >> 24) ^ lookup(2, word >> 16) ^ lookup(1, word >> 8) ^ lookup(0, word)
                position &+= 8
            }
            while position < end {
                crc = crc << 8 ^ lookup(0, UInt64(UInt8(truncatingIfNeeded: crc >> 8) ^ bytes[position]))
                position &+= 1
            }
            return crc
        }
    }
}
