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
        // The bit reservoir (up to 511 bytes of main data before a frame, 255 in MPEG-2 and 2.5) and the
        // transform's overlap. Measured with FFmpeg: 3 frames at 128 kbit/s, 4 at 64, 9 at about 30 (MPEG-1); 4 at
        // 24 kbit/s in MPEG-2. Enough for the smallest MPEG-1 frames (96 bytes at 32 kbit/s) and for MPEG-2 and
        // 2.5 down to 16 kbit/s; `MPEGWriter` folds what only the reservoir needs into one frame.
        case AudioFormatID.mpegLayer3: DecoderLeadIn(packets: 10, frames: 9_216)
        // Only the filter bank's overlap: 1 frame, measured with FFmpeg's floating-point decoder (its default
        // fixed-point one dithers, so no cut gives the whole's samples).
        case AudioFormatID.mpegLayer2, AudioFormatID.mpegLayer1: DecoderLeadIn(packets: 1)
        // Measured with ffmpeg: AAC-LC decodes to the whole's samples from the 2nd packet of a cut on (the
        // filter bank's overlap), HE-AAC from the 3rd (SBR's filter bank), which the DataFormat (the core's) does
        // not tell apart. Bands coded as noise (PNS) and HE-AACv2's parametric stereo never decode alike in a
        // cut: their generators run through the whole stream.
        case AudioFormatID.mpeg4AAC: DecoderLeadIn(packets: 2)
        // RFC 7845 §4.6 asks for 80 ms, after which ffmpeg's decode still differs from the whole's by up to 0.07
        // of full scale; the error about halves every 20 ms: 480 ms (23,040 frames at 48 kHz) leave under 1e-6.
        case AudioFormatID.opus: DecoderLeadIn(frames: 23_040)
        // The first packet only primes the overlap: from the second on, ffmpeg gives the whole's very samples.
        case AudioFormatID.vorbis: DecoderLeadIn(packets: 1, firstPacketDecodesToNothing: true)
        default: DecoderLeadIn()
        }
    }
}
