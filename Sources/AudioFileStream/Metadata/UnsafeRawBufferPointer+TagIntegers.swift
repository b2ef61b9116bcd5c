extension UnsafeRawBufferPointer {
    /// The ID3v2 syncsafe integer of `count` bytes at `offset` (7 bits per byte, most significant first),
    /// or nil when a byte has its top bit set; the caller guarantees the bytes are there.
    func syncsafeInteger(at offset: Int, count: Int) -> Int? {
        var value = 0
        for byte in self[offset..<offset + count] {
            guard byte < 0x80 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    /// The big-endian integer of `count` bytes at `offset`; the caller guarantees the bytes are there.
    func bigEndianInteger(at offset: Int, count: Int) -> Int {
        self[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The little-endian 32-bit value at `offset` (APEv2); the caller guarantees the bytes are there.
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }
}
