/// The VBRI tag Fraunhofer encoders put 32 bytes after the header of the first frame: frame and byte counts and
/// a table of contents of byte sizes per group of frames.
struct VBRIHeader: Equatable {
    let frames: UInt32
    let bytes: UInt32
    let seekTable: SeekTable?

    private static let tagOffset = 36

    /// Reads the tag from a whole frame, or nil when the frame is audio.
    init?(frame: UnsafeRawBufferPointer) {
        let start = Self.tagOffset
        guard frame.matches("VBRI", at: start), start + 26 <= frame.count else { return nil }
        bytes = frame.bigEndianUInt32(at: start + 10)
        frames = frame.bigEndianUInt32(at: start + 14)
        let entryCount = Int(frame.bigEndianUInt16(at: start + 18))
        let scale = Int64(frame.bigEndianUInt16(at: start + 20))
        let entrySize = Int(frame.bigEndianUInt16(at: start + 22))
        let framesPerEntry = Int64(frame.bigEndianUInt16(at: start + 24))
        let tableStart = start + 26
        guard (1...4).contains(entrySize), entryCount > 0, tableStart + entryCount * entrySize <= frame.count else {
            seekTable = nil
            return
        }
        var points: [(packet: Int64, byte: Int64)] = [(0, 0)]
        for entry in 0..<entryCount {
            let position = tableStart + entry * entrySize
            let size = (0..<entrySize).reduce(Int64(0)) { $0 << 8 | Int64(frame[position + $1]) }
            points.append((points[points.count - 1].packet + framesPerEntry, points[points.count - 1].byte + size * scale))
        }
        seekTable = SeekTable(points: points)
    }
}
