extension UnsafeRawBufferPointer {
    /// The big-endian 16-bit value at `offset`; the caller guarantees the bytes are there.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// The big-endian 32-bit value at `offset`; the caller guarantees the bytes are there.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }

    /// True when the bytes at `offset` spell `ascii`.
    func matches(_ ascii: StaticString, at offset: Int) -> Bool {
        let count = ascii.utf8CodeUnitCount
        guard offset >= 0, offset + count <= self.count else { return false }
        return ascii.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { self[offset + $0] == pattern[$0] }
        }
    }
}
