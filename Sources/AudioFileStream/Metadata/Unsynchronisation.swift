/// Undoes ID3v2 unsynchronisation as bytes stream past: the writer inserted a zero after every 0xFF that could
/// be mistaken for a sync (ID3v2.4 §6.1), so a zero that follows 0xFF is dropped.
/// State carries across calls, so the result does not depend on how the bytes were chunked.
package struct Unsynchronisation {
    private var followsFF = false

    package init() {}

    /// The decoded bytes of the next chunk.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        for byte in bytes {
            if !(followsFF && byte == 0) { decoded.append(byte) }
            followsFF = byte == 0xFF
        }
        return decoded
    }
}
