/// Reads a chunked container of interleaved samples, `Container` saying what its header and chunks mean.
///
/// Chunks are walked in stream order and may come before or after the samples: what follows the sound chunk is
/// read when reached. A chunk the container keeps holds at most the limit it asks for, the rest streaming past
/// unread, and an ID3v2 chunk is read within `MetadataLimits`, so no chunk size, however it lies, buffers more
/// than that. Frames are whole: a frame cut by a read waits for the rest (the stream carries only those bytes),
/// one cut by the end of the input or a discontinuity is dropped and reported as skipped, never delivered. A
/// sound chunk whose size runs past the input simply ends with it. After a discontinuity, bytes that start a file
/// of the container are a restarted source (a reconnect): its header is read anew, never taken for frames, and
/// its frames go on being numbered from the first file's DataOffset; other bytes are frames at the offset given.
///
/// Batches hold at most `largestBatchFrames` frames, so a large read does not become one huge packet message on
/// the wire nor hold back the first frames' delivery; a batch never splits a frame. A compressed format of
/// constant-size packets (AIFC's IMA4) is delivered the same way, in whole packets instead of frames.
struct ChunkedPCMReader<Container: ChunkedContainer>: FormatReader {
    /// The most frames in one batch: about 0.1 s at 44.1 kHz, 16 KiB of stereo 16-bit samples.
    static var largestBatchFrames: Int { 4096 }
    /// The file header: the outer chunk's header and its form type.
    static var fileHeaderLength: Int { 12 }

    enum State {
        case fileHeader
        case chunkHeader
        /// A chunk whose first bytes go into `kept`; `remaining` counts its body and pad byte still to come.
        case keeping(ChunkHeader, offset: Int64, remaining: Int64)
        /// An ID3v2 chunk, whose tag the driver reads once its header is seen; `remaining` counts its body and pad
        /// byte.
        case tag(remaining: Int64)
        /// The prefix of the sound chunk whose header is at `offset`, before its frames.
        case soundPrefix(offset: Int64, prefixLength: Int, size: Int64?)
        /// The frames of the sound chunk, from `data.start` to its end.
        case sound
        /// After a discontinuity in or after the frames: a new file's header, or more frames.
        case resuming
        /// The stream cannot go on: everything streams past unread.
        case failed
    }

    var container: Container
    private let limits: MetadataLimits
    var state = State.fileHeader
    private var kept = FieldBuffer(limit: 0)
    var data: SoundData?
    /// True while a restarted source's header is read, whose sound chunk replaces the first one's.
    var isRestarting = false

    init(limits: MetadataLimits) {
        container = Container(limits: limits)
        self.limits = limits
    }

    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress {
        do {
            return try walk(input, into: output)
        } catch {
            output.fail(error.error, at: error.offset, error.reason)
            state = .failed
            return ReadProgress(consumed: input.bytes.count, needed: 0)
        }
    }

    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput) {
        switch state {
        case .failed:
            break
        default:
            guard data != nil, !isRestarting else {
                state = .failed
                return output.fail(.discontinuityCantRecover, at: offset, "the \(Container.name) header is cut at "
                    + "\(offset), before its sound chunk: the chunks after the cut cannot be found")
            }
            state = .resuming
        }
    }

    /// Reads the input state by state, each state's reader answering how far it got from where it started.
    private mutating func walk(_ input: ReaderInput, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ReadProgress
    {
        var position = 0
        while position < input.bytes.count || isSoundDone(at: input.offset + Int64(position)) {
            let rest = UnsafeRawBufferPointer(rebasing: input.bytes[position...])
            let offset = input.offset + Int64(position)
            let step = switch state {
            case .fileHeader: try readFileHeader(rest, at: offset, input, into: output)
            case .chunkHeader: try readChunkHeader(rest, at: offset, input)
            case .keeping(let chunk, let chunkOffset, let remaining):
                try keep(rest, of: chunk, at: chunkOffset, remaining: remaining, into: output)
            case .tag(let remaining): detectTag(rest, at: offset, remaining: remaining, input)
            case .soundPrefix(let chunkOffset, let prefixLength, let size):
                readSoundPrefix(rest, ofChunkAt: chunkOffset, length: prefixLength, size: size, input, into: output)
            case .resuming: resume(rest, input)
            case .sound: deliverFrames(rest, at: position, offset: offset, input: input, into: output)
            case .failed: ReadProgress(consumed: rest.count, needed: 0)
            }
            position += step.consumed
            if step.needed > 0 || step.skip != nil {
                return ReadProgress(consumed: position, needed: step.needed, skip: step.skip)
            }
        }
        return ReadProgress(consumed: position, needed: 0)
    }

    // Each state's reader is given the input's unconsumed bytes, `rest`, whose first is at stream offset `offset`,
    // and answers how many of them it consumed, how many it needs from there, or what it leaves to the driver.

    private mutating func readFileHeader(_ rest: UnsafeRawBufferPointer, at offset: Int64, _ input: ReaderInput,
                                         into output: ParserOutput) throws(AudioFileStreamFailure) -> ReadProgress {
        guard rest.count >= Self.fileHeaderLength else { return needMore(Self.fileHeaderLength, of: rest, input) }
        let fileType = try container.readFileHeader(rest, at: offset)
        output.announce(.fileFormat, .fileType(fileType))
        state = .chunkHeader
        return ReadProgress(consumed: Self.fileHeaderLength, needed: 0)
    }

    private mutating func readChunkHeader(_ rest: UnsafeRawBufferPointer, at offset: Int64, _ input: ReaderInput)
        throws(AudioFileStreamFailure) -> ReadProgress
    {
        guard rest.count >= ChunkHeader.length else { return needMore(ChunkHeader.length, of: rest, input) }
        let chunk = ChunkHeader(rest, isBigEndian: Container.isBigEndian)
        guard let next = try start(chunk, at: offset) else {
            return ReadProgress(consumed: ChunkHeader.length, needed: 0, skip: .bytes(chunk.paddedSize))
        }
        state = next
        return ReadProgress(consumed: ChunkHeader.length, needed: 0)
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
            Result { () throws(AudioFileStreamFailure) in try container.read(chunk, body: body, at: chunkOffset) }
        }
        if let metadata = try read.get() { output.metadata(metadata, at: chunkOffset) }
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
            return needMore(count, of: rest, input)
        case .tag(let found):
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .tag(found, offset: offset, count: remaining))
        case .needMoreData, .notATag:
            state = .chunkHeader
            return ReadProgress(consumed: 0, needed: 0, skip: .bytes(remaining))
        }
    }

    /// Reads the sound chunk's prefix, which says where its frames start, and starts them.
    private mutating func readSoundPrefix(_ rest: UnsafeRawBufferPointer, ofChunkAt chunkOffset: Int64, length: Int,
                                          size: Int64?, _ input: ReaderInput, into output: ParserOutput)
        -> ReadProgress
    {
        guard rest.count >= length else { return needMore(length, of: rest, input) }
        let prefix = UnsafeRawBufferPointer(rebasing: rest.prefix(length))
        begin(bodyStart: chunkOffset + Int64(ChunkHeader.length), size: size,
              skipping: length + max(container.soundStart(prefix: prefix), 0), into: output)
        state = .sound
        return ReadProgress(consumed: length, needed: 0)
    }

    /// After a discontinuity: a new file's header (a restarted source), or more frames.
    private mutating func resume(_ rest: UnsafeRawBufferPointer, _ input: ReaderInput) -> ReadProgress {
        guard rest.count >= Self.fileHeaderLength || input.isEndOfInput else {
            return ReadProgress(consumed: 0, needed: Self.fileHeaderLength)
        }
        if Container.startsFile(rest) {
            container = Container(limits: limits)
            isRestarting = true
            state = .fileHeader
        } else {
            // Frames at the offset the caller states; `deliverFrames` realigns on a frame.
            state = .sound
        }
        return ReadProgress(consumed: 0, needed: 0)
    }

    /// The state reading the chunk whose header is at `offset`, or nil when the chunk is passed over unread.
    private mutating func start(_ chunk: ChunkHeader, at offset: Int64) throws(AudioFileStreamFailure) -> State? {
        switch try container.plan(for: chunk, at: offset) {
        case .skip:
            return nil
        case .keep(let limit):
            kept = FieldBuffer(limit: Int(min(Int64(limit), chunk.size)))
            return .keeping(chunk, offset: offset, remaining: chunk.paddedSize)
        case .id3:
            return .tag(remaining: chunk.paddedSize)
        case .sound where data != nil && !isRestarting:
            // The frames are numbered from the first sound chunk's start: a second one is not read.
            return nil
        case .sound(let prefixLength, let size):
            guard container.sound != nil else {
                throw AudioFileStreamFailure(.notOptimized, at: offset, "the \(Container.name) sound chunk at "
                    + "\(offset) comes before the chunk stating its format, so its frames cannot be read as they "
                    + "stream; rewrite the file with the format first (ffmpeg -i IN -c copy OUT)")
            }
            return .soundPrefix(offset: offset, prefixLength: prefixLength, size: size)
        }
    }

    /// Asks for `count` bytes from the start of `rest`; at the end of the input, what is left is not a whole
    /// structure and streams past.
    private func needMore(_ count: Int, of rest: UnsafeRawBufferPointer, _ input: ReaderInput) -> ReadProgress {
        guard input.isEndOfInput else { return ReadProgress(consumed: 0, needed: count) }
        return ReadProgress(consumed: rest.count, needed: 0)
    }
}
