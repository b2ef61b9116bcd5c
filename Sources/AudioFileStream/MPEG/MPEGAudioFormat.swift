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
    /// Stream information from a Xing/Info/VBRI frame, announced with the next audio frame's format, and that
    /// frame's own header and length.
    private var segment: (information: StreamSegment, header: MPEGFrameHeader, frameLength: Int)?
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

    /// Layers I and II have frames of 32 bytes and up, and free format any length: bytes of programs and tables
    /// chain as such headers often enough, so they need a longer chain than Layer III's frames, and free format
    /// the longest (as GStreamer's mpegaudioparse asks more of it).
    func headersConfirmingResync(of header: MPEGFrameHeader) -> Int {
        if header.isFreeFormat { return 8 }
        return header.layer == 3 ? 2 : 5
    }

    /// No reserved value, in Layers I and II the encoder's settings of `first` throughout, and well-formed frames.
    func confirmsResync(_ header: MPEGFrameHeader, frame: UnsafeRawBufferPointer?,
                        startedBy first: MPEGFrameHeader) -> Bool {
        guard !header.holdsReservedValue, first.layer == 3 || header.keepsEncoderSettings(of: first) else {
            return false
        }
        return frame.map { header.isWellFormed(frame: $0) } ?? true
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
            if output.isReady {
                output.endSegment()
                information.announce(to: output)
            }
            if announced == nil { segment = (information, header, frame.count) }
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

    /// A Xing/VBRI frame that no audio frame followed (a file cut short after it) still states the stream: its own
    /// header's format and the counts it holds, as AVAsset and mutagen read such a file's length.
    mutating func endOfInput(into output: ParserOutput) {
        guard announced == nil, let segment else { return }
        announceFormat(of: segment.header, frameLength: segment.frameLength, output: output)
        announced = segment.header
    }

    /// Announces the format of `header`; at the reader's first frame, with the average bit rate of a Xing/VBRI
    /// frame before it, and its other information when the stream is not ready yet.
    private mutating func announceFormat(of header: MPEGFrameHeader, frameLength: Int, output: ParserOutput) {
        var format = MPEGStreamFormat(header: header, frameLength: frameLength)
        if let averageBitRate = segment?.information.averageBitRate(header: header) {
            format.bitRate = averageBitRate
            statesAverageBitRate = true
        }
        format.announce(to: output)
        defer { self.segment = nil }
        guard !output.isReady, let information = segment?.information else { return }
        information.announce(to: output)
        output.seekTable = information.seekTable
    }
}

extension MPEGFrameHeader: SyncFrameHeader {}
