/// How a chunked container lays out its file header and chunk headers: RIFF (WAVE, RF64, BW64) and IFF (AIFF,
/// AIFC) give a chunk a four-character id and a 32-bit size, little-endian in RIFF and big-endian in IFF, and
/// follow a body of odd size with a pad byte its size does not count; CAF gives a big-endian signed 64-bit size
/// and pads nothing.
struct ChunkLayout {
    /// How a chunk header's size field is written.
    enum SizeField {
        case uint32LittleEndian
        case uint32BigEndian
        case int64BigEndian
    }

    /// Bytes before the first chunk header.
    let fileHeaderLength: Int
    let sizeField: SizeField
    /// True when a body of odd size is followed by a pad byte.
    let padsOddSizes: Bool

    static let riff = ChunkLayout(fileHeaderLength: 12, sizeField: .uint32LittleEndian, padsOddSizes: true)
    static let iff = ChunkLayout(fileHeaderLength: 12, sizeField: .uint32BigEndian, padsOddSizes: true)
    static let caf = ChunkLayout(fileHeaderLength: 8, sizeField: .int64BigEndian, padsOddSizes: false)

    /// Bytes in a chunk header: the id, then the size.
    var headerLength: Int { sizeField == .int64BigEndian ? 12 : 8 }

    /// The bytes from the end of a chunk header to the next chunk for a body of `size` bytes: the body, and the
    /// pad byte an odd size is followed by where the layout pads.
    func padded(_ size: Int64) -> Int64 { padsOddSizes ? size + (size & 1) : size }
}

/// The header of a chunk: a four-character id, then the body's size, as its container's `ChunkLayout` writes them.
struct ChunkHeader: Equatable {
    let id: FourCharCode
    /// The body's size as written: at most 4 GiB − 1 in a 32-bit field (RF64 gives larger sizes in its ds64
    /// chunk); negative only as a CAF size, whose one meaningful negative value is its `data` chunk's -1.
    let size: Int64
    /// The bytes from the end of the header to the next chunk: the body and its pad byte.
    let paddedSize: Int64

    /// The header at the start of `bytes`, which hold at least `layout.headerLength` bytes.
    init(_ bytes: UnsafeRawBufferPointer, layout: ChunkLayout) {
        id = FourCharCode(rawValue: bytes.bigEndianUInt32(at: 0))
        size = switch layout.sizeField {
        case .uint32LittleEndian: Int64(bytes.littleEndianUInt32(at: 4))
        case .uint32BigEndian: Int64(bytes.bigEndianUInt32(at: 4))
        case .int64BigEndian: Int64(bitPattern: bytes.bigEndianUInt64(at: 4))
        }
        paddedSize = layout.padded(size)
    }
}
