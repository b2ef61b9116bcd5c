/// What a Xing/Info or VBRI frame says about the stream segment it starts: packet and byte counts, a seek table
/// and (from a LAME tag) the priming and remainder frames for gapless playback.
struct StreamSegment: Equatable {
    let packetCount: UInt64?
    let byteCount: UInt64?
    /// The byte count as the tag states it, its own frame included.
    let statedByteCount: UInt64?
    let seekTable: SeekTable?
    let packetTableInfo: PacketTableInfo?
    /// True for an Info tag: every frame has the header's bit rate.
    let isConstantBitRate: Bool

    /// The decoder delay of Layer III (a polyphase filterbank and an overlap), which LAME's delay excludes.
    static let decoderDelay = 529

    /// Reads the segment information from a whole Layer III frame, or nil when the frame is audio.
    init?(frame: UnsafeRawBufferPointer, header: MPEGFrameHeader) {
        guard header.layer == 3, Self.mayHoldTag(frame, header: header) else { return nil }
        let frames: UInt32?
        let bytes: UInt32?
        let lame: LAMETag?
        if let xing = XingHeader(frame: frame, header: header) {
            (frames, bytes, lame, seekTable) = (xing.frames, xing.bytes, xing.lame, xing.seekTable(tagFrameLength: frame.count))
            isConstantBitRate = xing.isInfo
        } else if let vbri = VBRIHeader(frame: frame) {
            (frames, bytes, lame, seekTable) = (vbri.frames, vbri.bytes, nil, vbri.seekTable)
            isConstantBitRate = false
        } else {
            return nil
        }
        packetCount = frames.map { UInt64($0) }
        statedByteCount = bytes.map { UInt64($0) }
        // Encoders count the tag's own frame in the byte count.
        byteCount = bytes.flatMap { $0 >= frame.count ? UInt64($0) - UInt64(frame.count) : nil }
        let total = Int64(frames ?? 0) * Int64(header.samplesPerFrame)
        if let lame, total >= Int64(lame.encoderDelay + lame.encoderPadding) {
            packetTableInfo = PacketTableInfo(
                validFrames: total - Int64(lame.encoderDelay) - Int64(lame.encoderPadding),
                primingFrames: Int32(lame.encoderDelay + Self.decoderDelay),
                remainderFrames: Int32(lame.encoderPadding - Self.decoderDelay))
        } else if let lame, frames == nil {
            // A tag written before its stream's end (a recording under way) counts no frames yet: its start is
            // known, as decoders take it, and its end is not.
            packetTableInfo = PacketTableInfo(
                validFrames: 0, primingFrames: Int32(lame.encoderDelay + Self.decoderDelay), remainderFrames: 0)
        } else {
            // No LAME tag, or one claiming more padding than the segment has frames: nothing to trust.
            packetTableInfo = nil
        }
    }

    /// A quick look for the tags' magic words where they would start, since every audio frame is asked.
    private static func mayHoldTag(_ frame: UnsafeRawBufferPointer, header: MPEGFrameHeader) -> Bool {
        func word(at offset: Int) -> UInt32 { offset + 4 <= frame.count ? frame.bigEndianUInt32(at: offset) : 0 }
        let afterSideInfo = 4 + header.sideInfoSize
        let xing: UInt32 = 0x5869_6E67, info: UInt32 = 0x496E_666F, vbri: UInt32 = 0x5642_5249
        let first = word(at: afterSideInfo)
        let second = word(at: afterSideInfo + 2)
        return first == xing || first == info || second == xing || second == info || word(at: 36) == vbri
    }

    /// Announces the counts and packet table; each segment re-announces them, even when equal to the last.
    func announce(to output: ParserOutput) {
        if let byteCount { output.announce(.audioDataByteCount, .uint64(byteCount), force: true) }
        if let packetCount { output.announce(.audioDataPacketCount, .uint64(packetCount), force: true) }
        if let packetTableInfo { output.announce(.packetTableInfo, .packetTableInfo(packetTableInfo), force: true) }
    }

    /// The segment's average bit rate from its stated counts (as FFmpeg and LAME compute it), for VBR streams
    /// whose headers do not tell it.
    func averageBitRate(header: MPEGFrameHeader) -> UInt32? {
        guard !isConstantBitRate, let packetCount, let statedByteCount, packetCount > 0 else { return nil }
        let seconds = Double(packetCount) * Double(header.samplesPerFrame) / Double(header.sampleRate)
        // A damaged tag can claim any count: an average beyond what a UInt32 holds is no bit rate.
        return UInt32(exactly: (Double(statedByteCount) * 8 / seconds).rounded())
    }
}
