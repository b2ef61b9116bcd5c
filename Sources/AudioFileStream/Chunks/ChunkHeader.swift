/// The 8-byte header of a chunk in a RIFF (WAVE, RF64, BW64) or IFF (AIFF, AIFC) file: a four-character id,
/// then the body's size, little-endian in RIFF and big-endian in IFF. A body of odd size is followed by a pad
/// byte that its size does not count.
struct ChunkHeader: Equatable {
    static let length = 8

    let id: FourCharCode
    /// The body's size as written (4 bytes: at most 4 GiB − 1; RF64 gives larger sizes in its ds64 chunk).
    let size: Int64

    init(id: FourCharCode, size: Int64) {
        self.id = id
        self.size = size
    }

    /// The header at the start of `bytes`, which hold at least `length` bytes.
    init(_ bytes: UnsafeRawBufferPointer, isBigEndian: Bool) {
        id = FourCharCode(rawValue: bytes.bigEndianUInt32(at: 0))
        size = Int64(isBigEndian ? bytes.bigEndianUInt32(at: 4) : bytes.littleEndianUInt32(at: 4))
    }

    /// The bytes from the end of the header to the next chunk: the body and its pad byte.
    var paddedSize: Int64 { Self.padded(size) }

    /// `size` and the pad byte an odd size is followed by.
    static func padded(_ size: Int64) -> Int64 { size + (size & 1) }
}
