/// The header of a CAF chunk (Apple's Core Audio Format Specification, "CAF Chunk Header"): a four-character
/// type and a big-endian signed 64-bit size of the body that follows.
struct CAFChunkHeader: Equatable {
    /// Bytes in a chunk header.
    static let length = 12
    /// Bytes in the file header: `caff`, version 1, flags 0.
    static let fileHeaderLength = 8

    let type: FourCharCode
    /// The body's size in bytes; -1 only for a `data` chunk that runs to the end of the file (a streaming writer's).
    let size: Int64

    /// The header at the start of `bytes`, which holds at least `length` bytes.
    init(_ bytes: UnsafeRawBufferPointer) {
        type = FourCharCode(rawValue: bytes.bigEndianUInt32(at: 0))
        size = Int64(bitPattern: bytes.bigEndianUInt64(at: 4))
    }

    /// True when `bytes`, at least `fileHeaderLength` of them, start a CAF file of the one version there is.
    static func isFileHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.matches("caff", at: 0) && bytes.bigEndianUInt16(at: 4) == 1
    }

    /// True for the size of a `data` chunk that runs to the end of the input.
    var runsToEnd: Bool { size == -1 && type == Self.data }

    static let description: FourCharCode = "desc"
    static let channelLayout: FourCharCode = "chan"
    static let magicCookie: FourCharCode = "kuki"
    static let packetTable: FourCharCode = "pakt"
    static let information: FourCharCode = "info"
    static let data: FourCharCode = "data"
}
