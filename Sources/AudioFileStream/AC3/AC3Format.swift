/// AC-3 and E-AC-3 syncframes for `SyncFrameReader`: each whole frame, header included, is a packet, as FFmpeg's
/// ac3 parser gives it. One reader serves both syntaxes, which share the sync word; a change from one to the
/// other is a change of format, announced before its first packet.
///
/// A frame of an E-AC-3 dependent substream is not framed. With the independent frame before it, it makes one
/// access unit (FFmpeg's packet), which a length read from one header cannot span; so it is skipped as damage,
/// and the independent frame it follows is not confirmed, rather than given out as a packet without its
/// dependent channels.
struct AC3Format: SyncFormat {
    static let headerLength = AC3FrameHeader.length

    /// The header of the last announced DataFormat.
    private var announced: AC3FrameHeader?

    @inline(__always)
    static func mayStartFrame(_ byte: UInt8) -> Bool {
        byte == 0x0B
    }

    func frameLength(of header: AC3FrameHeader) -> FrameLength {
        header.streamType == .dependent ? .invalid : .exact(header.frameLength)
    }

    @inline(__always)
    func isCompatible(_ next: AC3FrameHeader, with header: AC3FrameHeader) -> Bool {
        next.isCompatible(with: header)
    }

    func measured(_ length: Int, of header: AC3FrameHeader) {}

    /// A frame found after a loss of sync is believed only whole: the CRC-16 run from after its sync word to its
    /// end, its own CRC words included, comes to 0 (A/52 §7.10: crc1 and crc2 of AC-3, crc2 of E-AC-3), as
    /// FFmpeg's ac3 demuxer probes it. Rows of a program's tables chain as such headers; their bytes never pass.
    func confirmsResync(_ header: AC3FrameHeader, frame: UnsafeRawBufferPointer?,
                        startedBy first: AC3FrameHeader) -> Bool {
        frame.map { FrameCRC.crc16(0, $0, from: 2, to: $0.count) == 0 } ?? true
    }

    mutating func announce(_ header: AC3FrameHeader, frame: UnsafeRawBufferPointer, into output: ParserOutput) -> FrameRole {
        // Frames per packet is part of DataFormat: a change of E-AC-3's block count is announced too.
        guard announced.map({ !header.isCompatible(with: $0) || header.blocks != $0.blocks }) ?? true else {
            return .audio
        }
        announced = header
        let format = AudioStreamBasicDescription(
            sampleRate: Double(header.sampleRate),
            formatID: header.isEnhanced ? AudioFormatID.enhancedAC3 : AudioFormatID.ac3,
            framesPerPacket: UInt32(header.framesPerPacket), channelsPerFrame: UInt32(header.channelCount))
        let layout = AudioChannelLayout(ac3CodingMode: header.audioCodingMode, hasLFE: header.hasLFE)
        output.announce(.fileFormat, .fileType(header.isEnhanced ? .eac3 : .ac3))
        output.announce(.dataFormat, .format(format))
        output.announce(.formatList, .formatList([AudioFormatListItem(format: format, channelLayoutTag: layout.tag)]))
        output.announce(.channelLayout, .channelLayout(layout))
        output.announce(.restrictsRandomAccess, .uint32(0))
        output.announce(.packetSizeUpperBound, .uint32(UInt32(header.maximumFrameLength)))
        output.announce(.bitRate, .uint32(UInt32(header.bitRate)))
        return .audio
    }

    @inline(__always)
    func reportPackets(of header: AC3FrameHeader, frameLength: Int, at position: Int, into output: ParserOutput) {
        output.packet(at: position, size: frameLength, frames: header.framesPerPacket, variableFrames: false)
    }

    func resetForDiscontinuity() {}
}
