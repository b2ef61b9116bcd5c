/// The bytes a reader is given: a window of the stream starting at an absolute offset.
struct ReaderInput {
    var bytes: UnsafeRawBufferPointer
    /// The absolute stream offset of `bytes[0]`.
    var offset: Int64
    /// The absolute stream offset of the first byte of the file being read: 0, unless the stream went on with
    /// another file (`AudioFileStream.markNewFile()`). Positions a file states from its start (MP4 chunk
    /// offsets) lie this far into the stream.
    var fileStart: Int64
    /// True when no bytes will follow these: the reader must consume everything.
    var isEndOfInput: Bool
}

/// How far a reader got.
struct ReadProgress {
    /// Bytes taken from the start of the input; the rest is offered again, with more, on the next call.
    var consumed: Int
    /// Bytes needed from the first unconsumed one before the reader can make progress (0 when all was consumed).
    var needed: Int
    /// The reader of another format that goes on from the first unconsumed byte: the stream changed format.
    var replacement: (any FormatReader)? = nil
    /// Bytes after the consumed ones that the driver passes over before it calls the reader again (with `needed`
    /// 0 and no replacement).
    var skip: Skip? = nil
}

/// One container or elementary-stream format, as a small state machine over the bytes the stream gives it
/// (the seam of SwiftNIO's ByteToMessageDecoder and GStreamer's baseparse).
///
/// The contract: `AudioFileStream` owns the pending bytes, chunk boundaries and discontinuities, and calls
/// `read` with every byte not yet consumed. The reader consumes what it has settled, in stream order, and
/// answers how many bytes it consumed and how many it needs (counted from the first unconsumed byte) before it
/// can go on; with `isEndOfInput` it must consume everything. What it settles reaches `output`: properties
/// (the header set, then DataOffset, then ReadyToProducePackets before the first packet), whole packets by
/// their position in the input, tags, and skipped bytes. It never reports bytes that are not a whole,
/// confirmed packet of the announced format. Bytes it has no use for (a chunk it does not read, a tag) it leaves
/// to the driver with a `Skip`, however many: it is called again once they have gone by, or earlier only where
/// the input ends or breaks off inside them (then `input.offset`, or the offset a discontinuity ends at, falls
/// short of their end). Sync-word formats (MPEG audio, ADTS, AC-3) are read by
/// `SyncFrameReader`, which asks a `SyncFormat` only what a header is and what a frame holds; containers
/// consume their structures the same way ("consume N / need more").
protocol FormatReader {
    /// Emits every complete packet, property, tag and skip found in `input` into `output`, in stream order.
    mutating func read(_ input: ReaderInput, into output: ParserOutput) -> ReadProgress
    /// The bytes fed so far end at stream offset `offset` and the next ones do not follow them: report what was
    /// skipped up to there and what a tag cut short there holds, drop any partial unit, and look for a boundary
    /// again.
    mutating func resetForDiscontinuity(endingAt offset: Int64, into output: ParserOutput)
}
