/// AAC in ADTS framing for `SyncFrameReader`: each frame's raw access unit, without the ADTS header and CRC, is
/// a packet of 1024 frames, and the AudioSpecificConfig the headers imply is the magic cookie.
///
/// A frame of several raw data blocks is left out and reported (`unsupportedFrame`): the stream does not say
/// where its blocks start, and one packet of several blocks would carry a wrong frame count.
struct ADTSFormat: SyncFormat {
    static let headerLength = 7
    /// Samples per raw data block of AAC LC, Main and LTP as ADTS carries them (no 960-sample framing).
    static let framesPerPacket = 1024

    /// The header of the last announced DataFormat.
    private var announced: ADTSFrameHeader?

    @inline(__always)
    static func mayStartFrame(_ byte: UInt8) -> Bool {
        byte == 0xFF
    }

    func frameLength(of header: ADTSFrameHeader) -> FrameLength {
        .exact(header.frameLength)
    }

    @inline(__always)
    func isCompatible(_ next: ADTSFrameHeader, with header: ADTSFrameHeader) -> Bool {
        next.isCompatible(with: header)
    }

    func measured(_ length: Int, of header: ADTSFrameHeader) {}

    mutating func announce(_ header: ADTSFrameHeader, frame: UnsafeRawBufferPointer,
                           into output: ParserOutput) -> FrameRole {
        guard header.rawDataBlocks == 1 else { return .unsupported }
        guard announced.map({ !header.isCompatible(with: $0) }) ?? true else { return .audio }
        announced = header
        let format = AudioStreamBasicDescription(
            sampleRate: Double(header.sampleRate), formatID: AudioFormatID.mpeg4AAC,
            formatFlags: UInt32(header.audioObjectType), framesPerPacket: UInt32(Self.framesPerPacket),
            channelsPerFrame: UInt32(header.channelCount))
        let layout = AudioChannelLayout(aacChannelConfiguration: header.channelConfiguration)
        output.measuresBitRate = true
        output.announce(.fileFormat, .fileType(.adts))
        output.announce(.dataFormat, .format(format))
        output.announce(.formatList, .formatList([AudioFormatListItem(format: format, channelLayoutTag: layout.tag)]))
        output.announce(.magicCookieData, .data(header.audioSpecificConfig))
        output.announce(.channelLayout, .channelLayout(layout))
        output.announce(.restrictsRandomAccess, .uint32(0))
        // The 13-bit frame length bounds every frame.
        output.announce(.packetSizeUpperBound, .uint32(UInt32((1 << 13) - 1 - header.headerLength)))
        return .audio
    }

    @inline(__always)
    func reportPackets(of header: ADTSFrameHeader, frameLength: Int, at position: Int, into output: ParserOutput) {
        output.packet(at: position + header.headerLength, size: frameLength - header.headerLength,
                      frames: Self.framesPerPacket, variableFrames: false)
    }

    func resetForDiscontinuity() {}
}

extension ADTSFrameHeader: SyncFrameHeader {}
