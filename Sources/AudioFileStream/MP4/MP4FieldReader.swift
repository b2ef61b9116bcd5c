/// Reads a box's fields in order, each checked against the box's end: a field past it makes the file invalid,
/// never a read outside the box.
struct MP4FieldReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    let end: Int
    /// The box's type, for the messages.
    private let type: FourCharCode

    init(_ box: MP4Box, in bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        position = box.content.lowerBound
        end = box.content.upperBound
        type = box.type
    }

    var remaining: Int { end - position }

    /// Fails unless `count` more bytes are in the box.
    func require(_ count: Int) throws(MP4Invalid) {
        guard count >= 0, count <= remaining else {
            throw MP4Invalid("box '\(type)' ends \(count - remaining) bytes before the fields it states")
        }
    }

    mutating func skip(_ count: Int) throws(MP4Invalid) {
        try require(count)
        position += count
    }

    mutating func uint8() throws(MP4Invalid) -> UInt8 {
        try require(1)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint16() throws(MP4Invalid) -> UInt16 {
        try require(2)
        defer { position += 2 }
        return bytes.bigEndianUInt16(at: position)
    }

    mutating func uint32() throws(MP4Invalid) -> UInt32 {
        try require(4)
        defer { position += 4 }
        return bytes.bigEndianUInt32(at: position)
    }

    mutating func uint64() throws(MP4Invalid) -> UInt64 {
        UInt64(try uint32()) << 32 | UInt64(try uint32())
    }

    /// A full box's version and flags (ISO/IEC 14496-12 §4.2).
    mutating func versionAndFlags() throws(MP4Invalid) -> (version: UInt8, flags: UInt32) {
        let word = try uint32()
        return (UInt8(word >> 24), word & 0xFF_FFFF)
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) throws(MP4Invalid) -> UnsafeRawBufferPointer {
        try require(count)
        defer { position += count }
        return UnsafeRawBufferPointer(rebasing: bytes[position..<position + count])
    }

    /// Fails unless the box holds `count` entries of `size` bytes each after the position: a count is never
    /// believed before the box is seen to hold it.
    func requireEntries(_ count: UInt32, of size: Int) throws(MP4Invalid) {
        guard Int(count) <= remaining / size else {
            throw MP4Invalid("box '\(type)' claims \(count) entries of \(size) bytes but holds \(remaining) bytes")
        }
    }
}
