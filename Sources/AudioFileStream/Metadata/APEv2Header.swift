/// The 32-byte header or footer of an APEv2 tag: `APETAGEX`, version, size, item count and flags, all
/// little-endian. A tag written with both has the header before its items and the footer after them.
package struct APEv2Header {
    package static let length = 32

    package let version: UInt32
    /// The bytes of the items and the footer, without the header.
    package let size: Int
    package let itemCount: Int
    package let flags: UInt32

    /// Reads the header or footer at the start of `bytes` (at least `length` of them), or nil when it is not
    /// one: another magic or an unknown version (1000 = APEv1, 2000 = APEv2).
    package init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.length, bytes.matches("APETAGEX", at: 0) else { return nil }
        version = bytes.littleEndianUInt32(at: 8)
        guard version == 1000 || version == 2000 else { return nil }
        size = Int(bytes.littleEndianUInt32(at: 12))
        itemCount = Int(bytes.littleEndianUInt32(at: 16))
        flags = bytes.littleEndianUInt32(at: 20)
    }

    /// This is the header, before the items; otherwise it is the footer, after them.
    package var isHeader: Bool { flags & 1 << 29 != 0 }

    /// The tag ends with a footer (every tag does unless it says otherwise).
    var hasFooter: Bool { flags & 1 << 30 == 0 }

    /// What the tag reader has to consume from here: the whole tag from a header; a footer alone, whose items
    /// have already gone past.
    var wholeSize: Int { isHeader ? Self.length + size : Self.length }

    /// Where the items lie, counted from the header's first byte.
    var itemsRange: Range<Int> {
        let itemsLength = max(size - (hasFooter ? Self.length : 0), 0)
        return Self.length..<Self.length + itemsLength
    }
}
