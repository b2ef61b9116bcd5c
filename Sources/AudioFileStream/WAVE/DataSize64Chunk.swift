/// The `ds64` chunk of an RF64 or BW64 file (EBU Tech 3306, ITU-R BS.2088): the 64-bit sizes of the RIFF and
/// `data` chunks, whose 32-bit size fields then hold 0xFFFFFFFF. Its table of other large chunks is not read.
struct DataSize64Chunk {
    /// riffSize, dataSize and sampleCount, each 64 bits.
    static let length = 24

    /// Sizes from this one on are no file's (an exabyte), and would overflow the offsets they are added to.
    private static let largestSize: UInt64 = 1 << 60

    /// The `data` chunk's size, or nil when it is unknown: -1 (all bits set) or 0, as streaming writers leave it,
    /// or beyond `largestSize`.
    let dataSize: Int64?

    /// The chunk's body, of at least `length` bytes, or nil when it is shorter.
    init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= Self.length else { return nil }
        let size = body.littleEndianUInt64(at: 8)
        dataSize = size == 0 || size >= Self.largestSize ? nil : Int64(size)
    }
}
