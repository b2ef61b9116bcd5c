/// A native FLAC file: the `fLaC` marker (after an ID3v2 tag, which some taggers put first), the metadata
/// blocks (RFC 9639 §8), then frames, which `SyncFrameReader` with `FLACFormat` reads from the first one on.
///
/// STREAMINFO gives the format its cookie, totals and the rate and depth headers defer to; VORBIS_COMMENT and
/// PICTURE blocks become one `Metadata` event (source `flac`) once the header ends; every other block streams
/// past unread. What is kept is bounded by `MetadataLimits`: a comment block above `maxTagBytes` is skipped, a
/// picture keeps its description and at most `maxArtworkBytes` of data, so a 16 MB picture streams past. A
/// stream that does not start with `fLaC` (a hinted stream joined mid-way), a forbidden block type or input
/// that ends inside a block hands over to the frame reader, which resyncs on the first frame.
struct FLACReader: FormatReader {
    private enum State {
        /// Before `fLaC`, where an ID3v2 tag may come first.
        case start
        case blockHeader
        /// A STREAMINFO block of `length` bytes, read whole.
        case streamInfo(length: Int)
        /// A VORBIS_COMMENT or PICTURE block whose bytes stream into `kept`.
        case keeping(Block, remaining: Int)
        /// The driver passes over the rest of the last block, which ends at stream offset `end`: the frames follow.
        case lastBlockPassed(end: Int64)

        var isLastBlockPassed: Bool {
            if case .lastBlockPassed = self { true } else { false }
        }
    }

    /// A block being kept, and where its header was.
    private struct Block {
        let type: UInt8
        let length: Int
        let offset: Int64
    }

    private static let streamInfoType: UInt8 = 0
    private static let commentType: UInt8 = 4
    private static let pictureType: UInt8 = 6
    /// RFC 9639 §8.1: type 127 is forbidden, as its header would look like a frame sync.
    private static let forbiddenType: UInt8 = 127

    private let limits: MetadataLimits
    private var state = State.start
    private var streamInfo: FLACStreamInfo?
    /// True when the block being read is the last before the frames.
    private var isLastBlock = false
    /// Where the block being read starts, for a report if the input ends inside it.
    private var blockOffset: Int64 = 0
    private var blockBytes = FieldBuffer(limit: 0)
    private var fields = KeptFields()
    /// Where the first block that gave a field starts: the metadata event's offset.
    private var metadataOffset: Int64?

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let bytes = input.bytes
        var position = 0
        while position < bytes.count || state.isLastBlockPassed {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[position...])
            let offset = input.offset + Int64(position)
            switch state {
            case .start:
                if rest.starts(with: "fLaC".utf8) {
                    position += 4
                    state = .blockHeader
                    continue
                }
                return leadingTag(rest, at: offset, consumed: position, input: input, output: output)
            case .blockHeader:
                guard rest.count >= 4 else { return needMore(4, consumed: position, input: input, output: output) }
                blockOffset = offset
                isLastBlock = rest[0] & 0x80 != 0
                let type = rest[0] & 0x7F
                guard type != Self.forbiddenType else { return handOver(consumed: position, output: output) }
                position += 4
                let length = rest.bigEndianInteger(at: 1, count: 3)
                guard let next = nextState(type: type, length: length, offset: offset) else {
                    if let progress = endBlock(passing: length, from: position, in: input, output: output) {
                        return progress
                    }
                    continue
                }
                state = next
            case .streamInfo(let length):
                guard rest.count >= FLACStreamInfo.length else {
                    return needMore(FLACStreamInfo.length, consumed: position, input: input, output: output)
                }
                streamInfo = FLACStreamInfo(rest)
                position += FLACStreamInfo.length
                let unread = length - FLACStreamInfo.length
                if let progress = endBlock(passing: unread, from: position, in: input, output: output) {
                    return progress
                }
            case .keeping(let block, let remaining):
                let taken = min(remaining, rest.count)
                blockBytes.append(UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
                position += taken
                state = .keeping(block, remaining: remaining - taken)
                guard taken == remaining else { continue }
                keep(block)
                if let progress = endBlock(passing: 0, from: position, in: input, output: output) { return progress }
            case .lastBlockPassed(let end):
                // Called before the end only where the input ends inside it.
                guard offset >= end else { return needMore(1, consumed: position, input: input, output: output) }
                return handOver(consumed: position, output: output)
            }
        }
        if input.isEndOfInput { return needMore(1, consumed: position, input: input, output: output) }
        return ReadProgress(consumed: position, needed: 0)
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        // The header is cut: what it gave so far is reported, and frames are looked for from here on, by the
        // frame reader that takes over at the next read.
        reportMetadata(output: output)
        state = .start
    }

    /// Before `fLaC`: a leading tag, left to the driver, or else the frames.
    private mutating func leadingTag(_ rest: UnsafeRawBufferPointer, at offset: Int64, consumed position: Int,
                                     input: ReaderInput, output: ParserOutput) -> ReadProgress {
        guard rest.count >= 4 || input.isEndOfInput else { return ReadProgress(consumed: position, needed: 4) }
        switch TagReader.detect(rest, limits: limits, isEndOfInput: input.isEndOfInput) {
        case .tag(let tag):
            let skip = Skip.tag(tag, offset: offset, count: Int64(tag.remainingBytes))
            return ReadProgress(consumed: position, needed: 0, skip: skip)
        case .needMoreData(let count) where !input.isEndOfInput:
            return ReadProgress(consumed: position, needed: count)
        case .needMoreData, .notATag:
            return handOver(consumed: position, output: output)
        }
    }

    /// The state reading a block of `type` and `length` bytes whose header is at `offset`, or nil when the block
    /// is passed over unread.
    private mutating func nextState(type: UInt8, length: Int, offset: Int64) -> State? {
        guard length > 0 else { return nil }
        switch type {
        case Self.streamInfoType where streamInfo == nil && length >= FLACStreamInfo.length:
            return .streamInfo(length: length)
        case Self.commentType where length <= limits.maxTagBytes:
            blockBytes = FieldBuffer(limit: length)
        case Self.pictureType:
            blockBytes = FieldBuffer(limit: min(length, limits.keepLimit(isPicture: true, keptSoFar: fields.byteCount)))
        default:
            return nil
        }
        return .keeping(Block(type: type, length: length, offset: offset), remaining: length)
    }

    /// The block being read ends `count` bytes after `position`, bytes the driver passes over: the next block's
    /// header follows, or after the last block the frames. Returns the progress when the reader stops here.
    private mutating func endBlock(passing count: Int, from position: Int, in input: ReaderInput,
                                   output: ParserOutput) -> ReadProgress? {
        if count > 0 {
            state = isLastBlock ? .lastBlockPassed(end: input.offset + Int64(position + count)) : .blockHeader
            return ReadProgress(consumed: position, needed: 0, skip: .bytes(Int64(count)))
        }
        guard !isLastBlock else { return handOver(consumed: position, output: output) }
        state = .blockHeader
        return nil
    }

    /// Reads a kept block once all its bytes went past.
    private mutating func keep(_ block: Block) {
        let kept = blockBytes
        blockBytes = FieldBuffer(limit: 0)
        let before = fields.fields.count
        kept.kept.withUnsafeBytes { body in
            if block.type == Self.commentType {
                let comments = VorbisComment.metadata(body, limits: limits)
                for field in comments?.raw ?? [] { fields.record(field, limits: limits) }
            } else if let artwork = FLACPicture.artwork(body, blockLength: block.length, limits: limits) {
                fields.record(RawTagField(key: VorbisComment.pictureKey, value: .picture(artwork)), limits: limits)
            }
        }
        if fields.fields.count > before, metadataOffset == nil { metadataOffset = block.offset }
    }

    /// Asks for `count` bytes from `position`; at the end of the input, reports the block it ends inside as
    /// skipped, announces what STREAMINFO states, and consumes everything.
    private mutating func needMore(_ count: Int, consumed position: Int, input: ReaderInput,
                                   output: ParserOutput) -> ReadProgress {
        guard input.isEndOfInput else { return ReadProgress(consumed: position, needed: count) }
        reportMetadata(output: output)
        // The frames were never reached (a block cut short, or one whose size lies, as a tagger's short PICTURE
        // block does): the stream is still the one STREAMINFO states.
        announceStreamInfo(output: output)
        let end = input.offset + Int64(input.bytes.count)
        if case .start = state {} else if end > blockOffset {
            output.discontinuity(at: end, skippedBytes: end - blockOffset, reason: .resync)
            // Reported once: the end of the input may be given again, with nothing more (a discontinuity's flush).
            blockOffset = end
        }
        return ReadProgress(consumed: input.bytes.count, needed: 0)
    }

    /// The header ends at `position`: the tags are reported and the frames' reader goes on from there.
    private mutating func handOver(consumed position: Int, output: ParserOutput) -> ReadProgress {
        reportMetadata(output: output)
        return ReadProgress(consumed: position, needed: 0,
                            replacement: SyncFrameReader(announceStreamInfo(output: output), limits: limits))
    }

    /// Announces the format and totals STREAMINFO states; returns the frames' format, which starts from them.
    @discardableResult
    private func announceStreamInfo(output: ParserOutput) -> FLACFormat {
        var format = FLACFormat(streamInfo: streamInfo)
        format.announceStreamInfo(into: output)
        return format
    }

    private mutating func reportMetadata(output: ParserOutput) {
        guard let metadataOffset, !fields.fields.isEmpty else { return }
        output.metadata(Metadata(source: .vorbisComment, tags: MetadataNormalizer.tags(from: fields.fields),
                                 raw: fields.fields), at: metadataOffset)
        fields = KeptFields()
        self.metadataOffset = nil
    }
}
