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
        // The bit reservoir and the overlap of the transform and filter bank: measured with FFmpeg over the
        // Layer III fixtures, MPEG-1 needed up to 3 frames, MPEG-2 and 2.5 (half as long) up to 4. A lower bit
        // rate whose reservoir reaches further back could need more.
        case AudioFormatID.mpegLayer3: DecoderLeadIn(packets: 3, frames: 2_304)
        // Only the filter bank's overlap: 1 frame, measured with FFmpeg's floating-point decoder (its default
        // fixed-point one dithers, so no cut gives the whole's samples).
        case AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer1: DecoderLeadIn(packets: 1)
        case AudioFormatID.mpeg4AAC: DecoderLeadIn(packets: 2)
        // RFC 7845 §4.2: 80 ms (3,840 frames at 48 kHz) to converge.
        case AudioFormatID.opus: DecoderLeadIn(frames: 3_840)
        case AudioFormatID.vorbis: DecoderLeadIn(packets: 1, firstPacketDecodesToNothing: true)
        default: DecoderLeadIn()
        }
    }
}
