/// Vorbis in Ogg (Vorbis I specification §4.2, §A): the identification, comment and setup headers, and each
/// packet's frames from its own and its predecessor's block size (half of each window's overlap: `(previous +
/// current) / 4`). The first packet after the start or a discontinuity has no predecessor and decodes to none.
struct VorbisCodec: OggCodec {
    private var headers: [[UInt8]]
    let format: AudioStreamBasicDescription
    let primingFrames = 0
    /// The short and long block sizes.
    private let blockSizes: (short: Int, long: Int)
    /// Each mode's block flag (true: long blocks), from the setup header.
    private var modeIsLong: [Bool] = []
    /// Bits of a packet's mode number, after its packet-type bit.
    private var modeBits = 0
    /// The block size of the previous packet, nil when there was none.
    private var previousBlockSize: Int?

    init?(identification packet: UnsafeRawBufferPointer) {
        guard packet.count >= 30, packet[0] == 1, packet.matches("vorbis", at: 1), packet.littleEndianUInt32(at: 7) == 0
        else { return nil }
        let channels = Int(packet[11])
        let rate = packet.littleEndianUInt32(at: 12)
        let short = 1 << Int(packet[28] & 0x0F), long = 1 << Int(packet[28] >> 4)
        guard channels > 0, rate > 0, 64 <= short, short <= long, long <= 8192, packet[29] & 1 == 1 else {
            return nil
        }
        blockSizes = (short, long)
        headers = [Array(packet)]
        format = AudioStreamBasicDescription(sampleRate: Double(rate), formatID: AudioFormatID.vorbis,
                                             framesPerPacket: 0, channelsPerFrame: UInt32(channels))
    }

    /// The three headers in Xiph lacing, as FFmpeg's Vorbis extradata.
    var magicCookie: [UInt8] {
        headers.count == 3 ? XiphLacing.pack(headers) : []
    }

    mutating func take(header packet: UnsafeRawBufferPointer) -> OggHeaderStep {
        let type: UInt8 = headers.count == 1 ? 3 : 5
        guard packet.count >= 8, packet[0] == type, packet.matches("vorbis", at: 1) else { return .invalid }
        headers.append(Array(packet))
        guard type == 5 else { return .needsMore }
        guard let modes = VorbisModes(setup: packet) else { return .invalid }
        modeIsLong = modes.isLong
        modeBits = Int.bitWidth - (modes.isLong.count - 1).leadingZeroBitCount
        return .complete
    }

    func metadata(in header: UnsafeRawBufferPointer, limits: MetadataLimits) -> Metadata? {
        // After the type and magic; the framing bit's byte ends the packet.
        guard header[0] == 3 else { return nil }
        return VorbisComment.metadata(UnsafeRawBufferPointer(rebasing: header[7..<header.count - 1]), limits: limits)
    }

    mutating func frames(ofAudio packet: UnsafeRawBufferPointer) -> Int? {
        // An audio packet's first bit is 0, then its mode number.
        guard packet.count > 0, packet[0] & 1 == 0 else { return nil }
        let mode = Int(packet[0] >> 1) & (1 << modeBits - 1)
        guard mode < modeIsLong.count else { return nil }
        let blockSize = modeIsLong[mode] ? blockSizes.long : blockSizes.short
        defer { previousBlockSize = blockSize }
        return previousBlockSize.map { ($0 + blockSize) / 4 } ?? 0
    }

    mutating func resetForDiscontinuity() {
        previousBlockSize = nil
    }
}
