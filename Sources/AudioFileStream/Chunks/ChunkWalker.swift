/// Reads a chunked container, `Container` saying what its header and chunks mean and how its audio is cut.
///
/// Chunks are walked in stream order and may come before or after the audio: what follows the audio chunk is read
/// when reached. A chunk the container keeps holds at most the limit it asks for, the rest streaming past unread,
/// and an ID3v2 chunk is read within `MetadataLimits`, so no chunk size, however it lies, buffers more than that.
/// An audio chunk whose size runs past the input simply ends with it; a second one is not read, its bytes being
/// no packets of the first one's. Where the walk goes on after a cut is the container's `ChunkResync`.
struct ChunkWalker<Container: ChunkedContainer> {
    enum State {
        case fileHeader
        case chunkHeader
        /// A chunk whose first bytes go into `kept`; `remaining` counts its body and pad byte still to come.
        case keeping(ChunkHeader, offset: Int64, remaining: Int64)
        /// An ID3v2 chunk, whose tag the driver reads once its header is seen; `remaining` counts its body and pad
        /// byte.
        case tag(remaining: Int64)
        /// Inside the audio chunk, from `audio.start` to its end.
        case audio
        /// After a discontinuity in or after the audio (`ChunkResync.restart`): a new file's header, or more audio.
        case resuming
        /// The chunk structure is lost (`ChunkResync.reposition`): everything is skipped until a cut lands in the
        /// audio.
        case lost
        /// The stream cannot go on: everything streams past unread.
        case failed
    }

    var container: Container
    let limits: MetadataLimits
    var state = State.fileHeader
    private var kept = FieldBuffer(limit: 0)
    var audio: Container.Audio?
    /// Where `audio` starts and ends, kept apart: reading them from `audio` would copy it, per packet.
    private(set) var audioBounds: (start: Int64, end: Int64?)?
    /// The end of the audio chunk with its pad byte, where the next chunk starts (nil: the end of the input).
    private var audioChunkEnd: Int64?
    /// True while a restarted source's header is read, whose audio chunk replaces the first one's.
    var isRestarting = false
    /// Bytes passed over, reported where the stream goes on.
    var skipped = SkipRun()
    /// The stream offset of the next byte expected (past the bytes left to the driver to pass over), so that a
    /// cut is placed.
    var position: Int64 = 0
    /// True from a discontinuity until the next read places the walk where the bytes go on.
    var repositions = false

    init(limits: MetadataLimits) {
        container = Container(limits: limits)
        self.limits = limits
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        if case .failed = state { return ReadProgress(consumed: input.bytes.count, needed: 0) }
        do {
            if repositions {
                place(at: input.offset)
            } else if input.offset < position {
                // The input ended inside a chunk passed over.
                state = .lost
            }
            return try walk(input, into: output)
        } catch {
            output.fail(error.error, at: error.offset, error.reason)
            state = .failed
            return ReadProgress(consumed: input.bytes.count, needed: 0)
        }
    }

    /// Reads the input state by state, each state's reader answering how far it got from where it started.
    private mutating func walk(_ input: ReaderInput, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ReadProgress
    {
        var consumed = 0
        while consumed < input.bytes.count || isAudioDone(at: input.offset + Int64(consumed)) {
            let rest = UnsafeRawBufferPointer(rebasing: input.bytes[consumed...])
            let offset = input.offset + Int64(consumed)
            let step = switch state {
            case .fileHeader: try readFileHeader(rest, at: offset, into: output)
            case .chunkHeader: try readChunkHeader(rest, at: offset, into: output)
            case .keeping(let chunk, let chunkOffset, let remaining):
                try keep(rest, of: chunk, at: chunkOffset, remaining: remaining, into: output)
            case .tag(let remaining): detectTag(rest, at: offset, remaining: remaining, input)
            case .audio: deliverAudio(rest, at: consumed, offset: offset, input: input, into: output)
            case .resuming: resume(rest, input)
            case .lost, .failed: pass(rest)
            }
            consumed += step.consumed
            if let skip = step.skip, skip.count > 0 {
                position = input.offset + Int64(consumed) + skip.count
                return ReadProgress(consumed: consumed, needed: 0, skip: skip)
            }
            if step.needed > 0 {
                guard input.isEndOfInput else {
                    position = input.offset + Int64(consumed)
                    return ReadProgress(consumed: consumed, needed: step.needed)
                }
                // The input ends inside a structure or a packet: what is left is not a whole one.
                loseAtEnd(input.bytes.count - consumed)
                consumed = input.bytes.count
                break
            }
        }
        position = input.offset + Int64(consumed)
        if input.isEndOfInput { skipped.report(resumingAt: position, to: output) }
        return ReadProgress(consumed: consumed, needed: 0)
    }

    // Each state's reader is given the input's unconsumed bytes, `rest`, whose first is at stream offset `offset`,
    // and answers how many of them it consumed, how many it needs from there, or what it leaves to the driver.

    private mutating func readFileHeader(_ rest: UnsafeRawBufferPointer, at offset: Int64,
                                         into output: ParserOutput) throws(AudioFileStreamFailure) -> ReadProgress {
        let length = Container.layout.fileHeaderLength
        guard rest.count >= length else { return ReadProgress(consumed: 0, needed: length) }
        let fileType = try container.readFileHeader(rest, at: offset)
        output.announce(.fileFormat, .fileType(fileType))
        state = .chunkHeader
        return ReadProgress(consumed: length, needed: 0)
    }

    private mutating func readChunkHeader(_ rest: UnsafeRawBufferPointer, at offset: Int64,
                                          into output: ParserOutput) throws(AudioFileStreamFailure) -> ReadProgress {
        let length = Container.layout.headerLength
        guard rest.count >= length else { return ReadProgress(consumed: 0, needed: length) }
        let chunk = ChunkHeader(rest, layout: Container.layout)
        var plan = try container.plan(for: chunk, at: offset, into: output)
        if case .audio = plan, audio != nil, !isRestarting {
            // The packets are numbered from the first audio chunk's start: a second one is not read.
            plan = .skip
        }
        switch plan {
        case .skip:
            return ReadProgress(consumed: length, needed: 0, skip: .bytes(chunk.paddedSize))
        case .keep(let limit):
            kept = FieldBuffer(limit: Int(min(Int64(limit), chunk.size)))
            state = .keeping(chunk, offset: offset, remaining: chunk.paddedSize)
        case .id3:
            state = .tag(remaining: chunk.paddedSize)
        case .audio(let prefixLength, let size):
            // The prefix comes with the header, so that a header is never half read.
            guard rest.count >= length + prefixLength else {
                return ReadProgress(consumed: 0, needed: length + prefixLength)
            }
            let bodyStart = offset + Int64(length)
            let prefix = UnsafeRawBufferPointer(rebasing: rest[length..<length + prefixLength])
            let started = try container.startAudio(prefix: prefix, bodyStart: bodyStart, size: size, at: offset,
                                                   into: output)
            audioBounds = (started.start, started.end)
            audio = started
            audioChunkEnd = size.map { bodyStart + Container.layout.padded($0) }
            isRestarting = false
            state = .audio
            return ReadProgress(consumed: length + prefixLength, needed: 0)
        }
        return ReadProgress(consumed: length, needed: 0)
    }

    /// Keeps the next bytes of a chunk planned `.keep`, and has the container read them once the chunk has gone by.
    private mutating func keep(_ rest: UnsafeRawBufferPointer, of chunk: ChunkHeader, at chunkOffset: Int64,
                               remaining: Int64, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ReadProgress
    {
        let taken = Int(min(remaining, Int64(rest.count)))
        kept.append(UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
        guard Int64(taken) == remaining else {
            state = .keeping(chunk, offset: chunkOffset, remaining: remaining - Int64(taken))
            return ReadProgress(consumed: taken, needed: 0)
        }
        state = .chunkHeader
        let body = kept
        kept = FieldBuffer(limit: 0)
        let read = body.kept.withUnsafeBytes { body in
            Result { () throws(AudioFileStreamFailure) in
                try container.read(chunk, body: body, at: chunkOffset, into: output)
            }
        }
        try read.get()
        return ReadProgress(consumed: taken, needed: 0)
    }

    /// Leaves an ID3v2 chunk of `remaining` bytes to the driver: its tag, once its header is seen, or all of it
    /// unread when it holds none.
    private mutating func detectTag(_ rest: UnsafeRawBufferPointer, at offset: Int64, remaining: Int64,
                                    _ input: ReaderInput) -> ReadProgress {
        let chunkRest = UnsafeRawBufferPointer(rebasing: rest.prefix(Int(min(remaining, Int64(rest.count)))))
        switch TagReader.detect(chunkRest, limits: limits,
                                isEndOfInput: input.isEndOfInput || Int64(chunkRest.count) == remaining) {
        case .needMoreData(let count) where Int64(count) <= remaining:
            return ReadProgress(consumed: 0, needed: count)
        case .tag(let found):
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .tag(found, offset: offset, count: remaining))
        case .needMoreData, .notATag:
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .bytes(remaining))
        }
    }

    /// Hands the audio's bytes to `audio`; before its start (joined inside the header) they are passed over, and
    /// past its end the walk goes on to the next chunk.
    private mutating func deliverAudio(_ rest: UnsafeRawBufferPointer, at index: Int, offset: Int64,
                                       input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        let (start, end) = audioBounds!
        if offset < start {
            return ReadProgress(consumed: Int(min(start - offset, Int64(rest.count))), needed: 0)
        }
        if let end, offset >= end {
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .bytes(max((audioChunkEnd ?? end) - offset, 0)))
        }
        return audio!.deliver(rest, at: index, offset: offset, input: input, skipped: &skipped, into: output)
    }

    /// True when the audio ends at `offset`, so the walk goes on to the next chunk even when no byte is left.
    private func isAudioDone(at offset: Int64) -> Bool {
        guard case .audio = state, let end = audioBounds?.end else { return false }
        return offset >= end
    }

    /// Passes over everything: the stream failed, or its chunk structure is lost.
    private mutating func pass(_ rest: UnsafeRawBufferPointer) -> ReadProgress {
        if case .lost = state { skipped.add(rest.count) }
        return ReadProgress(consumed: rest.count, needed: 0)
    }
}
