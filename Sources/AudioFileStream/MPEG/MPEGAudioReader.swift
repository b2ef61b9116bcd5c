/// Cuts an MPEG audio elementary stream (MPEG-1/2/2.5, Layers I–III, free format) into frames.
///
/// A frame is accepted only when a header follows where its length says (compatible with it, or any valid
/// header if the frame continues the current format), a tag follows, or the input ends. Everything else is
/// skipped byte by byte and reported as a resync. Xing/Info/VBRI frames are read as stream information, tags
/// are streamed through `TagReader`, and a change of format is announced before its first packet.
struct MPEGAudioReader: FormatReader {
    private enum State {
        case scanning
        case readingTag(TagReader, offset: Int64)
    }

    private enum Step {
        case advance(Int)
        case needMore(Int)
    }

    private let limits: MetadataLimits
    private var state = State.scanning
    /// The last accepted frame's header: the stream's current format.
    private var current: MPEGFrameHeader?
    /// The header of the last announced DataFormat.
    private var announced: MPEGFrameHeader?
    /// For free-format streams, the frame length without padding, found from the distance between syncs.
    private var freeFormatLength: Int?
    private var skip = SkipRun()
    /// Stream information from a Xing/Info/VBRI frame, announced with the next audio frame's format.
    private var segment: StreamSegment?

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        skip.report(resumingAt: offset, to: output)
        endTag(output: output)
        segment = nil
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        var position = 0
        while position < bytes.count {
            if case .readingTag = state {
                position += continueTag(with: UnsafeRawBufferPointer(rebasing: bytes[position...]), output: output)
                continue
            }
            switch step(at: position, in: input, output: output) {
            case .advance(let count): position += count
            case .needMore(let count): return ReadProgress(consumed: position, needed: count)
            }
        }
        if input.isEndOfInput {
            skip.report(resumingAt: input.offset + Int64(position), to: output)
            endTag(output: output)
        }
        return ReadProgress(consumed: position, needed: 0)
    }

    /// Feeds the tag being read and returns the bytes it took: all of them while it wants more.
    private mutating func continueTag(with bytes: UnsafeRawBufferPointer, output: ParserOutput) -> Int {
        guard case .readingTag(var tag, let tagOffset) = state else { return 0 }
        state = .scanning  // so the tag's buffers are not shared while it is fed
        let consumed = tag.consume(bytes)
        state = .readingTag(tag, offset: tagOffset)
        if tag.remainingBytes == 0 { endTag(output: output) }
        return consumed
    }

    /// Reports the tag being read, if any, and goes back to scanning: at the tag's end, or where the input ended
    /// or broke off inside it, which keeps the fields read before the cut.
    private mutating func endTag(output: ParserOutput) {
        guard case .readingTag(let tag, let tagOffset) = state else { return }
        state = .scanning
        if let metadata = tag.finish() { output.metadata(metadata, at: tagOffset) }
    }

    /// Decides what starts at `position`: a frame, a tag, or a byte to skip.
    private mutating func step(at position: Int, in input: ReaderInput, output: ParserOutput) -> Step {
        let bytes = input.bytes
        let remaining = bytes.count - position
        guard remaining >= 4 else {
            return input.isEndOfInput ? skipJunk(from: position, in: input) : .needMore(4)
        }
        if bytes[position] == 0xFF, let header = MPEGFrameHeader(bytes: bytes, at: position) {
            switch frameLength(of: header, at: position, in: input) {
            case .needMore(let count): return .needMore(count)
            case .advance(let length) where length > 0:
                if remaining < length + 4 && !input.isEndOfInput { return .needMore(length + 4) }
                if isConfirmed(header, length: length, at: position, in: input) {
                    accept(header, length: length, at: position, in: input, output: output)
                    return .advance(length)
                }
            case .advance: break
            }
        } else if Self.mayStartTag(bytes[position]) {
            let candidate = UnsafeRawBufferPointer(rebasing: bytes[position...])
            switch TagReader.detect(candidate, limits: limits, isEndOfInput: input.isEndOfInput) {
            case .tag(let tag):
                skip.report(resumingAt: input.offset + Int64(position), to: output)
                state = .readingTag(tag, offset: input.offset + Int64(position))
                return .advance(0)
            case .needMoreData(let count) where !input.isEndOfInput && count > remaining:
                return .needMore(count)
            case .needMoreData, .notATag:
                break
            }
        }
        return skipJunk(from: position, in: input)
    }

    /// The length of the frame at `position`, `.advance(0)` when it cannot be a frame, or how many bytes are
    /// needed to tell (free format: up to the next sync).
    private mutating func frameLength(of header: MPEGFrameHeader, at position: Int, in input: ReaderInput) -> Step {
        if let length = header.frameLength { return .advance(length) }
        if let freeFormatLength, let current, header.isCompatible(with: current) {
            let length = freeFormatLength + (header.hasPadding ? header.slotSize : 0)
            // The measured length holds while frames follow it: a stream may change its free-format bitrate.
            if position + length + 4 > input.bytes.count || isConfirmed(header, length: length, at: position, in: input) {
                return .advance(length)
            }
        }
        let bytes = input.bytes
        let searchEnd = position + header.maximumFrameLength + 4
        var next = position + 4 + header.sideInfoSize
        while next + 4 <= min(searchEnd, bytes.count) {
            if bytes[next] == 0xFF, let candidate = MPEGFrameHeader(bytes: bytes, at: next),
               candidate.isCompatible(with: header) {
                let distance = next - position
                freeFormatLength = distance - (header.hasPadding ? header.slotSize : 0)
                return .advance(distance)
            }
            next += 1
        }
        return bytes.count < searchEnd && !input.isEndOfInput ? .needMore(searchEnd - position) : .advance(0)
    }

    /// Whether the frame at `position` is followed by what a real frame is followed by.
    private func isConfirmed(_ header: MPEGFrameHeader, length: Int, at position: Int, in input: ReaderInput) -> Bool {
        let bytes = input.bytes
        let next = position + length
        guard next + 4 <= bytes.count else {
            // The input ends within the next header: a complete frame of the current format is the last one.
            return input.isEndOfInput && next <= bytes.count && current.map { header.isCompatible(with: $0) } ?? true
        }
        if let following = MPEGFrameHeader(bytes: bytes, at: next) {
            return following.isCompatible(with: header) || current.map { header.isCompatible(with: $0) } ?? false
        }
        return Self.mayStartTag(bytes[next])
            && (bytes.matches("ID3", at: next) || bytes.matches("TAG", at: next) || bytes.matches("APET", at: next))
    }

    private mutating func accept(
        _ header: MPEGFrameHeader, length: Int, at position: Int, in input: ReaderInput, output: ParserOutput
    ) {
        let offset = input.offset + Int64(position)
        skip.report(resumingAt: offset, to: output)
        defer { current = header }
        let frame = UnsafeRawBufferPointer(rebasing: input.bytes[position..<position + length])
        if let information = StreamSegment(frame: frame, header: header) {
            if output.isReady {
                information.announce(to: output)
            } else {
                segment = information
            }
            return
        }
        if announced.map({ !header.isCompatible(with: $0) }) ?? true {
            announceFormat(of: header, frameLength: length, dataOffset: offset, output: output)
            announced = header
        }
        output.packet(at: position, size: length, frames: header.samplesPerFrame, variableFrames: false)
    }

    /// Announces the format of `header`; the first time, the rest of the header set and ReadyToProducePackets.
    private mutating func announceFormat(
        of header: MPEGFrameHeader, frameLength: Int, dataOffset: Int64, output: ParserOutput
    ) {
        var format = MPEGStreamFormat(header: header, frameLength: frameLength)
        if !output.isReady, let averageBitRate = segment?.averageBitRate(header: header) {
            format.bitRate = averageBitRate
        }
        format.announce(to: output)
        guard !output.isReady else { return }
        if let segment {
            segment.announce(to: output)
            output.seekTable = segment.seekTable
        }
        segment = nil
        output.announce(.dataOffset, .int64(dataOffset))
        output.announce(.readyToProducePackets, .uint32(1))
    }

    /// Skips junk up to the next byte that may start a frame or a tag.
    private mutating func skipJunk(from position: Int, in input: ReaderInput) -> Step {
        let bytes = input.bytes
        var next = position + 1
        while next < bytes.count, bytes[next] != 0xFF, !Self.mayStartTag(bytes[next]) { next += 1 }
        skip.add(next - position)
        return .advance(next - position)
    }

    /// The first letters of `ID3`, `TAG` and `APETAGEX`.
    private static func mayStartTag(_ byte: UInt8) -> Bool {
        byte == 0x49 || byte == 0x54 || byte == 0x41
    }
}

/// A run of skipped bytes, reported once parsing resumes.
private struct SkipRun {
    private var count: Int64 = 0

    mutating func add(_ bytes: Int) {
        count += Int64(bytes)
    }

    mutating func report(resumingAt offset: Int64, to output: ParserOutput) {
        guard count > 0 else { return }
        output.discontinuity(at: offset, skippedBytes: count, reason: .resync)
        count = 0
    }
}
