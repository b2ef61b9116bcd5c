/// The CRC-32 of Ogg pages (polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR): every byte of
/// an Ogg stream passes through it once, folded by carry-less multiplication where the CPU has it, else eight
/// bytes at a time through eight tables ("slicing-by-8"). Public for the page writer (AudioFileWriting).
public enum OggCRC {
    private static let folding = CRCFolding(polynomial: 0x04C1_1DB7, width: 32)

    private static let tables: [[UInt32]] = {
        var first = [UInt32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var crc = UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
            first[byte] = crc
        }
        var tables = [first]
        for _ in 1..<8 {
            let previous = tables[tables.count - 1]
            tables.append((0..<256).map { previous[$0] << 8 ^ first[Int(previous[$0] >> 24)] })
        }
        return tables
    }()

    /// `crc` carried on over `bytes`.
    public static func update(_ crc: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        folding.update(crc, with: bytes, table: sliced)
    }

    private static func sliced(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { tables in
            tables[0].withUnsafeBufferPointer { t0 in
            tables[1].withUnsafeBufferPointer { t1 in
            tables[2].withUnsafeBufferPointer { t2 in
            tables[3].withUnsafeBufferPointer { t3 in
            tables[4].withUnsafeBufferPointer { t4 in
            tables[5].withUnsafeBufferPointer { t5 in
            tables[6].withUnsafeBufferPointer { t6 in
            tables[7].withUnsafeBufferPointer { t7 in
                var crc = crc
                var index = 0
                while index + 8 <= bytes.count {
                    crc ^= UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
                        | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                    crc = t7[Int(crc >> 24)] ^ t6[Int(crc >> 16 & 0xFF)] ^ t5[Int(crc >> 8 & 0xFF)]
                        ^ t4[Int(crc & 0xFF)] ^ t3[Int(bytes[index + 4])] ^ t2[Int(bytes[index + 5])]
                        ^ t1[Int(bytes[index + 6])] ^ t0[Int(bytes[index + 7])]
                    index += 8
                }
                while index < bytes.count {
                    crc = crc << 8 ^ t0[Int(UInt8(crc >> 24) ^ bytes[index])]
                    index += 1
                }
                return crc
            }}}}}}}}
        }
    }
}
