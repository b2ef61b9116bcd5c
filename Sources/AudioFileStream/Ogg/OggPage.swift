/// An Ogg page header (RFC 3533 §6): where the page sits in its logical stream and how its body is laced
/// into packets.
struct OggPage {
    /// The fixed part of the header, before the segment table.
    static let fixedLength = 27
    /// The longest page: a full segment table of 255 segments of 255 bytes.
    static let largest = fixedLength + 255 + 255 * 255
    private static let capturePattern = Array("OggS".utf8)

    /// What the bytes at a position hold.
    enum Search {
        case page(OggPage)
        /// This many bytes from the position are needed to tell.
        case needMore(Int)
        case none
    }

    let flags: UInt8
    /// The codec's position stamp after the last packet that ends on this page; -1 when none ends here.
    let granulePosition: Int64
    let serial: UInt32
    let sequence: UInt32
    let segmentCount: Int
    /// Bytes of header plus segment table.
    let headerLength: Int
    /// Bytes of header, segment table and body.
    let length: Int

    /// The page's first packet continues one from the previous page.
    var isContinued: Bool { flags & 0x01 != 0 }
    /// The first page of a logical stream.
    var isFirst: Bool { flags & 0x02 != 0 }
    /// The last page of a logical stream.
    var isLast: Bool { flags & 0x04 != 0 }

    /// The page whose header starts at `position`, read far enough to know its length; its CRC is not checked.
    static func find(in bytes: UnsafeRawBufferPointer, at position: Int) -> Search {
        let available = bytes.count - position
        for index in 0..<min(4, available) where bytes[position + index] != capturePattern[index] { return .none }
        guard available >= fixedLength else { return .needMore(fixedLength) }
        // Version 0 is the only one; flags beyond the three defined ones mean this is not a page.
        guard bytes[position + 4] == 0, bytes[position + 5] & 0xF8 == 0 else { return .none }
        let segmentCount = Int(bytes[position + 26])
        let headerLength = fixedLength + segmentCount
        guard available >= headerLength else { return .needMore(headerLength) }
        var bodyLength = 0
        for index in position + fixedLength..<position + headerLength { bodyLength += Int(bytes[index]) }
        return .page(OggPage(
            flags: bytes[position + 5],
            granulePosition: Int64(bitPattern: bytes.littleEndianUInt64(at: position + 6)),
            serial: bytes.littleEndianUInt32(at: position + 14), sequence: bytes.littleEndianUInt32(at: position + 18),
            segmentCount: segmentCount, headerLength: headerLength, length: headerLength + bodyLength))
    }

    /// Whether the page at `position`, all of whose bytes are there, matches its CRC.
    func crcMatches(in bytes: UnsafeRawBufferPointer, at position: Int) -> Bool {
        let stored = bytes.littleEndianUInt32(at: position + 22)
        // The CRC is computed with its own field zeroed.
        var crc = OggCRC.update(0, with: UnsafeRawBufferPointer(rebasing: bytes[position..<position + 22]))
        crc = withUnsafeBytes(of: UInt32(0)) { OggCRC.update(crc, with: $0) }
        crc = OggCRC.update(crc, with: UnsafeRawBufferPointer(rebasing: bytes[position + 26..<position + length]))
        return crc == stored
    }

    /// The lacing value of segment `index`.
    func lacing(_ index: Int, in bytes: UnsafeRawBufferPointer, at position: Int) -> Int {
        Int(bytes[position + Self.fixedLength + index])
    }
}
