/// Opus in Ogg (RFC 7845): the OpusHead and OpusTags headers, and each packet's frames from its TOC byte
/// (RFC 6716 §3.1), always at 48 kHz.
struct OpusCodec: OggCodec {
    private let head: [UInt8]
    let format: AudioStreamBasicDescription
    let primingFrames: Int

    init?(identification packet: UnsafeRawBufferPointer) {
        // Magic, version (major 0), channels, pre-skip, input rate, gain, mapping family.
        guard packet.count >= 19, packet.matches("OpusHead", at: 0), packet[8] & 0xF0 == 0 else { return nil }
        let channels = Int(packet[9])
        let family = packet[18]
        guard channels > 0, family != 0 || channels <= 2, family == 0 || packet.count >= 21 + channels else {
            return nil
        }
        head = Array(packet)
        primingFrames = Int(packet.littleEndianUInt16(at: 10))
        format = AudioStreamBasicDescription(sampleRate: 48000, formatID: AudioFormatID.opus, framesPerPacket: 0,
                                             channelsPerFrame: UInt32(channels))
    }

    var magicCookie: [UInt8] { head }

    func take(header packet: UnsafeRawBufferPointer) -> OggHeaderStep {
        packet.matches("OpusTags", at: 0) ? .complete : .invalid
    }

    func metadata(in header: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        // After "OpusTags"; padding may follow the comments.
        VorbisComment.metadata(UnsafeRawBufferPointer(rebasing: header[8...]), limits: limits)
    }

    func frames(ofAudio packet: UnsafeRawBufferPointer) -> Int? {
        guard packet.count > 0 else { return nil }
        let toc = packet[0]
        let configuration = Int(toc >> 3)
        // 48 kHz samples per frame: SILK 10/20/40/60 ms, hybrid 10/20 ms, CELT 2.5/5/10/20 ms.
        let frameSize = switch configuration {
        case 0..<12: [480, 960, 1920, 2880][configuration & 3]
        case 12..<16: configuration & 1 == 0 ? 480 : 960
        default: [120, 240, 480, 960][configuration & 3]
        }
        let count: Int
        switch toc & 3 {
        case 0: count = 1
        case 1, 2: count = 2
        default:
            guard packet.count >= 2 else { return nil }
            count = Int(packet[1] & 0x3F)
        }
        // A packet holds at least one frame and at most 120 ms.
        guard count > 0, count * frameSize <= 5760 else { return nil }
        return count * frameSize
    }

    func resetForDiscontinuity() {}
}
