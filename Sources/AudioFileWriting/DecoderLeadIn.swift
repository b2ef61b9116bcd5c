import AudioFileStream

/// What a decoder must be given before a cut so that, from the cut on, it gives the very samples it gives when
/// decoding the whole stream: measured against ffmpeg's decodes of cut streams, codec by codec.
public struct DecoderLeadIn: Equatable, Sendable {
    /// Packets to give before the first one kept.
    public var packets: Int
    /// Frames the packets given before the first one kept must hold at least, when that asks for more packets.
    public var frames: Int64
    /// True when a decoder gives nothing for the first packet it gets, whose frames only overlap the next
    /// (Vorbis): a file's decoded output then starts at its second packet.
    public var firstPacketDecodesToNothing: Bool

    public init(packets: Int = 0, frames: Int64 = 0, firstPacketDecodesToNothing: Bool = false) {
        self.packets = packets
        self.frames = frames
        self.firstPacketDecodesToNothing = firstPacketDecodesToNothing
    }

    /// The lead-in for packets of `format`; none for codecs whose packets decode on their own (PCM, FLAC).
    public static func of(_ format: AudioStreamBasicDescription) -> DecoderLeadIn {
        switch format.formatID {
        // The bit reservoir and the filter bank's overlap reach back two frames.
        case AudioFormatID.mpegLayer3, AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer1: DecoderLeadIn(packets: 3)
        // Measured with ffmpeg: AAC-LC decodes to the whole's samples from the 2nd packet of a cut on (the
        // filter bank's overlap), HE-AAC from the 3rd (SBR's filter bank), which the DataFormat (the core's) does
        // not tell apart. Bands coded as noise (PNS) and HE-AACv2's parametric stereo never decode alike in a
        // cut: their generators run through the whole stream.
        case AudioFormatID.mpeg4AAC: DecoderLeadIn(packets: 2)
        // RFC 7845 §4.2: 80 ms (3,840 frames at 48 kHz) to converge.
        case AudioFormatID.opus: DecoderLeadIn(frames: 3_840)
        case AudioFormatID.vorbis: DecoderLeadIn(packets: 1, firstPacketDecodesToNothing: true)
        default: DecoderLeadIn()
        }
    }
}
