import AudioFileStream

extension MPEGFrameHeader {
    /// The header of a Layer III frame of silence for this header's stream (its version, rate and channel mode),
    /// without CRC or padding, whose frame holds `payload` bytes after the side information: at this header's bit
    /// rate when its frame does, else at the lowest that does. Nil for free format, or when no bit rate does.
    func silentFrameHeader(holding payload: Int) -> MPEGFrameHeader? {
        guard !isFreeFormat else { return nil }
        // Protection bit set (no CRC); padding and bit rate index cleared.
        let base = (word | 0x0001_0000) & ~0x0000_F200
        return ([bitrateIndex] + Array(1...14)).lazy
            .compactMap { MPEGFrameHeader(base | UInt32($0) << 12) }
            .first { ($0.frameLength ?? 0) >= 4 + sideInfoSize + payload }
    }

    /// Where the frame's main data starts: after the header, its CRC and the side information.
    var mainDataOffset: Int { 4 + (hasCRC ? 2 : 0) + sideInfoSize }
}
