/// The `ds64` chunk of an RF64 or BW64 file (EBU Tech 3306, ITU-R BS.2088): the 64-bit sizes of the RIFF and
/// `data` chunks, whose 32-bit size fields then hold 0xFFFFFFFF. Its table of other large chunks is not read.
struct DataSize64Chunk {
    /// riffSize, dataSize and sampleCount, each 64 bits.
    static let length = 24

    /// The `data` chunk's size, or nil when it is unknown: -1 (all bits set) or 0, as streaming writers leave it.
    let dataSize: Int64?

    /// The chunk's body, of at least `length` bytes, or nil when it is shorter.
    init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= Self.length else { return nil }
        let size = body.littleEndianUInt64(at: 8)
        dataSize = size == 0 || size > UInt64(Int64.max) ? nil : Int64(size)
    }
}
