/// MPEG audio elementary streams (MPEG-1/2/2.5, Layers I–III, free format) for `SyncFrameReader`.
///
/// Xing/Info/VBRI frames are read as stream information, not packets, and a change of version, layer, rate or
/// channel count is announced before its first packet.
struct MPEGAudioFormat: SyncFormat {
    static let headerLength = 4

    /// The header of the last announced DataFormat.
    private var announced: MPEGFrameHeader?
    /// For free-format streams, the frame length without padding, found from the distance between syncs.
    private var freeFormatLength: Int?
    /// Stream information from a Xing/Info/VBRI frame, announced with the next audio frame's format.
    private var segment: StreamSegment?
    /// True once a Xing/VBRI frame stated the stream's average bit rate.
    private var statesAverageBitRate = false

    @inline(__always)
    static func mayStartFrame(_ byte: UInt8) -> Bool {
        byte == 0xFF
    }

    @inline(__always)
    func frameLength(of header: MPEGFrameHeader) -> FrameLength {
        if let length = header.frameLength { return .exact(length) }
        return .untilNextFrame(minimum: 4 + header.sideInfoSize, maximum: header.maximumFrameLength,
                               expected: freeFormatLength.map { $0 + (header.hasPadding ? header.slotSize : 0) })
    }

    @inline(__always)
    func isCompatible(_ next: MPEGFrameHeader, with header: MPEGFrameHeader) -> Bool {
        next.isCompatible(with: header)
    }

    mutating func measured(_ length: Int, of header: MPEGFrameHeader) {
        freeFormatLength = length - (header.hasPadding ? header.slotSize : 0)
    }

    @inline(__always)
    mutating func announce(_ header: MPEGFrameHeader, frame: UnsafeRawBufferPointer,
                           into output: ParserOutput) -> FrameRole {
        if let information = StreamSegment(frame: frame, header: header) {
            // Once the stream is ready, a new segment's counts are announced at once. Before this reader's first
            // audio frame (the stream's, or a new file's) its average bit rate is the one that frame's format states.
            if output.isReady { information.announce(to: output) }
            if announced == nil { segment = information }
            return .streamInformation
        }
        if let announced, header.hasSameFormat(as: announced) {
            // A VBR stream without a stated average: its bit rate is the running average, not the first frame's.
            if header.bitrateIndex != announced.bitrateIndex && !statesAverageBitRate { output.measuresBitRate = true }
        } else {
            announceFormat(of: header, frameLength: frame.count, output: output)
            announced = header
        }
        return .audio
    }

    @inline(__always)
    func reportPackets(of header: MPEGFrameHeader, frameLength: Int, at position: Int, into output: ParserOutput) {
        output.packet(at: position, size: frameLength, frames: header.samplesPerFrame, variableFrames: false)
    }

    mutating func resetForDiscontinuity() {
        segment = nil
    }

    /// Announces the format of `header`; at the reader's first frame, with the average bit rate of a Xing/VBRI
    /// frame before it, and its other information when the stream is not ready yet.
    private mutating func announceFormat(of header: MPEGFrameHeader, frameLength: Int, output: ParserOutput) {
        var format = MPEGStreamFormat(header: header, frameLength: frameLength)
        if let averageBitRate = segment?.averageBitRate(header: header) {
            format.bitRate = averageBitRate
            statesAverageBitRate = true
        }
        format.announce(to: output)
        defer { self.segment = nil }
        guard !output.isReady, let segment else { return }
        segment.announce(to: output)
        output.seekTable = segment.seekTable
    }
}

extension MPEGFrameHeader: SyncFrameHeader {}
