/// FLAC frames for `SyncFrameReader`: each whole frame, header included, is a packet of its block size, as
/// FFmpeg's flac parser gives it.
///
/// A frame's length is not in its header: it ends where the CRC-16 run from its first byte comes to 0 and, at
/// that very position, a header that follows it (`FLACFrameHeader.follows`), a tag or the end of the input
/// sits. Bytes in the audio that look like a sync therefore never end a frame, and a frame whose CRC-16 fails
/// has no end and is skipped. The search is bounded by the header's own verbatim size, never by STREAMINFO,
/// which may lie: its sizes are checked against the frames and a broken promise is reported once.
struct FLACFormat: SyncFormat {
    static let headerLength = FLACFrameHeader.maximumLength
    /// A header reads only its own bytes, and a frame of silence may end the stream in fewer than 16.
    static let shortestHeaderLength = FLACFrameHeader.minimumLength
    /// The longest frame framed (512 KiB, above any encoder's: libFLAC's largest blocks of 32768 24-bit stereo
    /// samples stay under 200 KiB verbatim), so that a false header in junk never holds megabytes back.
    static let largestFrame = 1 << 19

    /// The stream's STREAMINFO, when a `fLaC` header gave one: the cookie, the totals, and the rate and depth
    /// of headers that defer to it.
    private let streamInfo: FLACStreamInfo?
    /// The format of the last announced DataFormat.
    private var announced: Format?
    /// The PacketSizeUpperBound announced last.
    private var packetSizeBound = 0
    /// True once a frame broke a STREAMINFO size and it was said.
    private var reportedMismatch = false

    private struct Format: Equatable {
        var sampleRate: Int
        var channels: Int
        var bitsPerSample: Int
    }

    init(streamInfo: FLACStreamInfo? = nil) {
        self.streamInfo = streamInfo
    }

    @inline(__always)
    static func mayStartFrame(_ byte: UInt8) -> Bool {
        byte == 0xFF
    }

    func frameLength(of header: FLACFrameHeader) -> FrameLength {
        // At least a one-byte subframe per channel and the CRC-16.
        .untilNextFrame(minimum: header.length + header.channelCount + 2,
                        maximum: min(header.maximumFrameLength(), Self.largestFrame), expected: nil)
    }

    /// Where the CRC-16 comes to 0 with a following header, a tag or the end of the bytes right there. Header
    /// positions are found first, by their sync, and the CRC is run only up to those that follow this frame.
    /// When the bytes end first, the frame's longest length is asked for at once, so that a frame arriving in
    /// small chunks is scanned once or twice, not once per chunk (it is given out a frame or so later).
    func end(ofFrame header: FLACFrameHeader, at position: Int, in bytes: UnsafeRawBufferPointer) -> FrameEnd {
        guard case .untilNextFrame(let minimum, let maximum, _) = frameLength(of: header) else { return .none }
        // Bytes that end before its shortest length cannot tell: all the bytes that can are asked for at once.
        guard position + minimum <= bytes.count else { return .beyondInput(position + maximum + Self.headerLength) }
        let searchEnd = min(bytes.count, position + maximum)
        var crc: UInt16 = 0
        var checked = position
        /// True when the CRC-16 from the frame's start comes to 0 at `end`.
        func isWhole(to end: Int) -> Bool {
            if end < checked { (crc, checked) = (0, position) }
            crc = FrameCRC.crc16(crc, bytes, from: checked, to: end)
            checked = end
            return crc == 0
        }
        var candidate = position + minimum
        while let sync = Self.nextSync(in: bytes, from: candidate, through: searchEnd) {
            candidate = sync + 1
            let following = FLACFrameHeader(bytes: bytes, at: sync)
            let isCut = following == nil && sync + Self.headerLength > bytes.count
            guard isCut || following?.follows(header) == true, isWhole(to: sync) else { continue }
            return isCut ? .beyondInput(sync + Self.headerLength) : .at(sync)
        }
        // No following header: a tag, or the end of the input, may end the frame.
        for tag in position + minimum..<min(searchEnd + 1, bytes.count) where bytes.mayStartTag(at: tag) {
            let isCut = tag + 4 > bytes.count
            guard isCut || bytes.startsTag(at: tag), isWhole(to: tag) else { continue }
            return isCut ? .beyondInput(tag + Self.headerLength) : .at(tag)
        }
        if searchEnd == bytes.count, searchEnd >= position + minimum, isWhole(to: searchEnd) { return .at(searchEnd) }
        guard searchEnd == bytes.count, searchEnd < position + maximum else { return .none }
        // All the bytes that can tell, asked for at once: each further call would scan the frame again.
        return .beyondInput(position + maximum + Self.headerLength)
    }

    /// The first position from `start` through `last` holding a frame sync (0xFFF8 or 0xFFF9, or 0xFF as the
    /// input's last byte), skipping 32 bytes at a time while none of them is 0xFF.
    private static func nextSync(in bytes: UnsafeRawBufferPointer, from start: Int, through last: Int) -> Int? {
        /// Nonzero when a byte of the word is 0xFF: a word without one has no zero byte once inverted.
        @inline(__always) func hasFF(_ offset: Int) -> UInt64 {
            let inverted = ~bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
        }
        let end = min(last + 1, bytes.count)
        var position = start
        while position < end {
            if position &+ 32 <= end,
               hasFF(position) | hasFF(position &+ 8) | hasFF(position &+ 16) | hasFF(position &+ 24) == 0 {
                position &+= 32
                continue
            }
            if bytes[position] == 0xFF, position + 1 == bytes.count || bytes[position + 1] & 0xFE == 0xF8 {
                return position
            }
            position += 1
        }
        return nil
    }

    @inline(__always)
    func isCompatible(_ next: FLACFrameHeader, with header: FLACFrameHeader) -> Bool {
        next.follows(header)
    }

    func measured(_ length: Int, of header: FLACFrameHeader) {}

    mutating func announce(_ header: FLACFrameHeader, frame: UnsafeRawBufferPointer,
                           into output: ParserOutput) -> FrameRole {
        announce(Format(sampleRate: header.sampleRate ?? streamInfo?.sampleRate ?? 0,
                        channels: header.channelCount,
                        bitsPerSample: header.bitsPerSample ?? streamInfo?.bitsPerSample ?? 0), into: output)
        check(header, frame: frame, output: output)
        return .audio
    }

    /// Announces the format and totals STREAMINFO states, before any frame, as Core Audio announces a file's
    /// format from its header: a file cut before its first whole frame still tells what it holds and how long
    /// it is (as AVAsset's duration and mutagen do). Frames that differ announce their own format after it.
    mutating func announceStreamInfo(into output: ParserOutput) {
        guard let streamInfo, streamInfo.sampleRate > 0 else { return }
        announce(Format(sampleRate: streamInfo.sampleRate, channels: streamInfo.channelCount,
                        bitsPerSample: streamInfo.bitsPerSample), into: output)
    }

    /// Announces `format` when it is not the one announced last, the stream's properties first.
    private mutating func announce(_ format: Format, into output: ParserOutput) {
        guard format != announced else { return }
        if announced == nil { announceStream(of: format, output: output) }
        let description = Self.dataFormat(sampleRate: format.sampleRate, channels: format.channels,
                                          bitsPerSample: format.bitsPerSample)
        output.announce(.dataFormat, .format(description))
        let layout = AudioChannelLayout(flacChannels: format.channels)
        output.announce(.formatList, .formatList([AudioFormatListItem(format: description,
                                                                      channelLayoutTag: layout.tag)]))
        output.announce(.channelLayout, .channelLayout(layout))
        announced = format
    }

    @inline(__always)
    func reportPackets(of header: FLACFrameHeader, frameLength: Int, at position: Int, into output: ParserOutput) {
        output.packet(at: position, size: frameLength, frames: header.blockSize, variableFrames: true)
    }

    func resetForDiscontinuity() {}

    /// The properties a stream states once, before its first packet.
    private mutating func announceStream(of format: Format, output: ParserOutput) {
        output.measuresBitRate = true
        output.announce(.fileFormat, .fileType(.flac))
        if let streamInfo { output.announce(.magicCookieData, .data(streamInfo.bytes)) }
        if let totalSamples = streamInfo?.totalSamples, totalSamples > 0 {
            output.announce(.packetTableInfo, .packetTableInfo(
                PacketTableInfo(validFrames: totalSamples, primingFrames: 0, remainderFrames: 0)))
        }
        let statedBound = streamInfo?.maximumFrameSize ?? 0
        packetSizeBound = statedBound > 0 ? statedBound : min(Self.largestFrame, FLACFrameHeader.verbatimFrameLength(
            blockSize: streamInfo?.maximumBlockSize ?? 0xFFFF, channels: format.channels,
            bits: format.bitsPerSample == 0 ? 32 : format.bitsPerSample))
        output.announce(.packetSizeUpperBound, .uint32(UInt32(packetSizeBound)))
        output.announce(.restrictsRandomAccess, .uint32(0))
    }

    /// Holds the frame to STREAMINFO's sizes, saying once if it breaks them, and raises PacketSizeUpperBound
    /// before a packet above it.
    private mutating func check(_ header: FLACFrameHeader, frame: UnsafeRawBufferPointer, output: ParserOutput) {
        let frameLength = frame.count
        if frameLength > packetSizeBound {
            packetSizeBound = max(frameLength, min(Self.largestFrame, header.maximumFrameLength()))
            output.announce(.packetSizeUpperBound, .uint32(UInt32(packetSizeBound)))
        }
        guard let streamInfo, !reportedMismatch else { return }
        let breaksFrameSize = (streamInfo.maximumFrameSize > 0 && frameLength > streamInfo.maximumFrameSize)
        let breaksBlockSize = header.blockSize > streamInfo.maximumBlockSize
        guard breaksFrameSize || breaksBlockSize else { return }
        reportedMismatch = true
        output.warning(.headerMismatch, at: output.offset(of: frame),
                       "a \(frameLength)-byte frame of \(header.blockSize) samples breaks STREAMINFO's maxima "
                       + "(\(streamInfo.maximumFrameSize) bytes, \(streamInfo.maximumBlockSize) samples); "
                       + "the frames are followed")
    }

    /// FLAC's DataFormat: each packet's frames in its description, as the last frame of a fixed-size stream is
    /// shorter; the format flags are Core Audio's FLAC (and ALAC) source bit depth, 1 = 16, 2 = 20, 3 = 24, 4 = 32
    /// bits.
    static func dataFormat(sampleRate: Int, channels: Int, bitsPerSample: Int) -> AudioStreamBasicDescription {
        let flags: UInt32 = switch bitsPerSample {
        case 16: 1
        case 20: 2
        case 24: 3
        case 32: 4
        default: 0
        }
        return AudioStreamBasicDescription(sampleRate: Double(sampleRate), formatID: AudioFormatID.flac,
                                           formatFlags: flags, framesPerPacket: 0, channelsPerFrame: UInt32(channels))
    }
}

extension FLACFrameHeader: SyncFrameHeader {}
