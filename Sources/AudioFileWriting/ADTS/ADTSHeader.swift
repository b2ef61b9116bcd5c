import AudioFileStream

/// The 7-byte ADTS header without CRC (ISO/IEC 13818-7 §6.2) that carries one AAC access unit, built from the
/// stream's format: what an `.aac` file and an HTTP listener's `audio/aac` get before each unit.
public struct ADTSHeader: Sendable {
    /// The header of the last unit described; every field but the length is the format's.
    public private(set) var bytes: [UInt8]

    /// ADTS frames are at most 8191 bytes long, header included.
    public static let largestFrame = (1 << 13) - 1

    /// Nil when ADTS cannot say the format: an object type beyond the four ADTS profiles, a rate outside its
    /// table, or channels its configurations do not name.
    public init?(format: AudioStreamBasicDescription) {
        let objectType = Int(format.formatFlags)
        guard (1...4).contains(objectType),
              let rateIndex = ADTSFrameHeader.sampleRates.firstIndex(of: Int(exactly: format.sampleRate) ?? 0)
        else { return nil }
        let channelConfiguration: Int
        switch format.channelsPerFrame {
        case 1...6: channelConfiguration = Int(format.channelsPerFrame)
        case 8: channelConfiguration = 7
        default: return nil
        }
        // Sync word, MPEG-4, layer 0, no CRC; profile, rate index, private bit 0, channel configuration;
        // originality, home and copyright bits 0; the length; buffer fullness 0x7FF (VBR); one raw data block.
        bytes = [
            0xFF, 0xF1,
            UInt8((objectType - 1) << 6 | rateIndex << 2 | channelConfiguration >> 2),
            UInt8((channelConfiguration & 3) << 6),
            0, 0x1F, 0xFC,
        ]
    }

    /// Sets the frame length for a unit of `unitLength` bytes; false, leaving the header as it was, when the
    /// frame would pass `largestFrame`.
    public mutating func describe(unitLength: Int) -> Bool {
        let length = unitLength + bytes.count
        guard length <= Self.largestFrame else { return false }
        bytes[3] = bytes[3] & 0xFC | UInt8(length >> 11)
        bytes[4] = UInt8(length >> 3 & 0xFF)
        bytes[5] = UInt8((length & 7) << 5 | 0x1F)
        return true
    }
}
