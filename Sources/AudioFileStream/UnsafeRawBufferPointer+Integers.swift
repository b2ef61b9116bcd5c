/// Reading the integers and magic strings that the formats' specifications define.
extension UnsafeRawBufferPointer {
    /// The big-endian 16-bit value at `offset`; the caller guarantees the bytes are there.
    @inline(__always)
    package func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// The big-endian 32-bit value at `offset`; the caller guarantees the bytes are there.
    @inline(__always)
    package func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }

    /// The big-endian 64-bit value at `offset` (CAF); the caller guarantees the bytes are there.
    @inline(__always)
    package func bigEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndianUInt32(at: offset)) << 32 | UInt64(bigEndianUInt32(at: offset + 4))
    }

    /// True when the bytes at `offset` spell `ascii`.
    package func matches(_ ascii: StaticString, at offset: Int) -> Bool {
        let count = ascii.utf8CodeUnitCount
        guard offset >= 0, offset + count <= self.count else { return false }
        return ascii.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { self[offset + $0] == pattern[$0] }
        }
    }

    /// The ID3v2 syncsafe integer of `count` bytes at `offset` (7 bits per byte, most significant first),
    /// or nil when a byte has its top bit set; the caller guarantees the bytes are there.
    package func syncsafeInteger(at offset: Int, count: Int) -> Int? {
        var value = 0
        for byte in self[offset..<offset + count] {
            guard byte < 0x80 else { return nil }
            value = value << 7 | Int(byte)
        }
        return value
    }

    /// The big-endian integer of `count` bytes at `offset`; the caller guarantees the bytes are there.
    package func bigEndianInteger(at offset: Int, count: Int) -> Int {
        self[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The little-endian 16-bit value at `offset` (Ogg, Vorbis, Opus); the caller guarantees the bytes are there.
    @inline(__always)
    package func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// The little-endian 32-bit value at `offset` (APEv2, Ogg); the caller guarantees the bytes are there.
    @inline(__always)
    package func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndianUInt16(at: offset)) | UInt32(littleEndianUInt16(at: offset + 2)) << 16
    }

    /// The little-endian 64-bit value at `offset`; the caller guarantees the bytes are there.
    @inline(__always)
    package func littleEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(littleEndianUInt32(at: offset)) | UInt64(littleEndianUInt32(at: offset + 4)) << 32
    }
}
