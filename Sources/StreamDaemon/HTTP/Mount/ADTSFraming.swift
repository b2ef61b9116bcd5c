import AudioFileStream

/// AAC access units as an ADTS stream (ISO/IEC 13818-7 §6.2), which players take over HTTP as `audio/aac`:
/// each unit behind a 7-byte header without CRC, built from the stream's format.
struct ADTSFraming: ListenerFraming {
    let contentType = "audio/aac"
    /// The header's bytes that every frame shares; the frame length is filled in per frame.
    private let fixedHeader: [UInt8]

    /// Nil when ADTS cannot say the format: an object type beyond the four ADTS profiles, a rate outside its
    /// table, or channels its configurations do not name.
    init?(format: AudioStreamBasicDescription) {
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
        // Sync word, MPEG-4, layer 0, no CRC; profile, rate index, private bit 0, channel configuration; the
        // rest (originality, home, copyright bits, length, buffer fullness 0x7FF for VBR, one raw data block)
        // is written per frame.
        fixedHeader = [
            0xFF, 0xF1,
            UInt8((objectType - 1) << 6 | rateIndex << 2 | channelConfiguration >> 2),
            UInt8((channelConfiguration & 3) << 6),
        ]
    }

    func frame(_ packet: UnsafeRawBufferPointer, endFrame: Int64) -> [UInt8]? {
        let length = packet.count + 7
        // ADTS frames are at most 8191 bytes long: a longer unit cannot be said, so it is left out.
        guard length < 1 << 13 else { return [] }
        var frame = fixedHeader
        frame.reserveCapacity(length)
        frame[3] |= UInt8(length >> 11)
        frame += [UInt8(length >> 3 & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC]
        frame += packet
        return frame
    }
}
