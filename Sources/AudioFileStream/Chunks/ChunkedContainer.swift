/// What the chunk walker does with a chunk, as its container decides from the chunk's header.
enum ChunkPlan: Equatable {
    /// Streams past unread.
    case skip
    /// Its first `limit` bytes are kept (the rest streams past unread) and given to the container's
    /// `read(_:body:at:into:)` once the chunk has gone by.
    case keep(limit: Int)
    /// Its body is an ID3v2 tag, read as it streams past within `MetadataLimits`.
    case id3
    /// Its body holds the audio, after `prefixLength` bytes the container's `startAudio` reads. `size` is the
    /// body's size, or nil when the audio runs to the end of the input (a streaming writer's).
    case audio(prefixLength: Int, size: Int64?)
}

/// How a container's walk goes on after a cut: a discontinuity, or the end of the input inside a structure.
enum ChunkResync {
    /// RIFF and IFF: a cut before the audio loses the chunks after it, and the stream fails, unless it falls
    /// between chunks and the bytes jump to another chunk's header (a file given out of order, its format chunk
    /// first); a cut in or after the audio goes on with a restarted file, when the bytes start one, or with more
    /// audio. A structure the input ends inside streams past unreported.
    case restart
    /// CAF: the walk goes on where a cut lands when that can be placed: at a chunk header between chunks before
    /// the audio (a file given out of order, its packet table first), or inside the audio at its next packet.
    /// Elsewhere the chunk structure is lost and everything is skipped until a cut lands in the audio. What is
    /// lost, a structure the input ends inside too, is reported as skipped where the stream goes on.
    case reposition
}

/// The audio of a container's audio chunk: where it lies and how its packets are cut as its bytes arrive.
protocol ChunkAudio {
    /// The stream offset of the first packet.
    var start: Int64 { get }
    /// The stream offset of the byte after the audio, or nil when it runs to the end of the input.
    var end: Int64? { get }

    /// Delivers the packets at the start of `rest`, whose first byte is at `position` in the input and stream
    /// offset `offset`, inside the audio; returns the bytes consumed and, when a packet is cut by the read, the
    /// bytes needed to complete it. After a cut, `offset` is where the bytes go on, and the packets with it: bytes
    /// before the next whole packet are dropped. Bytes passed over go into `skipped`, reported where a packet
    /// follows, or are reported at once.
    mutating func deliver(_ rest: UnsafeRawBufferPointer, at position: Int, offset: Int64, input: ReaderInput,
                          skipped: inout SkipRun, into output: ParserOutput) -> ReadProgress
}

/// One chunked container format (RIFF/WAVE and its 64-bit forms, AIFF and AIFC, CAF): what its file header and
/// chunks mean. `ChunkWalker` walks the chunks, buffers what the container keeps, streams tags, starts the audio
/// and hands its bytes to the container's `Audio`; the container only reads headers and decides, so the walking
/// rules (header and size layouts, pad bytes, skipping across reads, bounded keeping, cut input) are written once
/// for every such format.
protocol ChunkedContainer {
    associatedtype Audio: ChunkAudio

    /// The container's name in messages (`WAVE`, `AIFF`, `CAF`).
    static var name: String { get }
    static var layout: ChunkLayout { get }
    static var resync: ChunkResync { get }

    init(limits: MetadataLimits)

    /// Whether `bytes` (the file header's `layout.fileHeaderLength`, all given) start a file of this container.
    static func startsFile(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// Reads the file header (`layout.fileHeaderLength` bytes, all given) found at stream offset `offset`, and
    /// returns the file type it names.
    /// - Throws: a failure when the bytes are not this container's header.
    mutating func readFileHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> AudioFileType

    /// What to do with the chunk whose header is at `offset`. It may be asked again about the same audio chunk,
    /// until its prefix has arrived.
    /// - Throws: a failure when the chunk makes the file unreadable (an audio chunk before the format, a size
    ///   no file has).
    mutating func plan(for chunk: ChunkHeader, at offset: Int64, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ChunkPlan

    /// Reads the kept bytes of a chunk planned `.keep` whose header is at `offset`, reporting what it states.
    /// - Throws: a failure when the chunk states a format this library cannot read or a malformed one.
    mutating func read(_ chunk: ChunkHeader, body: UnsafeRawBufferPointer, at offset: Int64,
                       into output: ParserOutput) throws(AudioFileStreamFailure)

    /// Starts the audio of the chunk planned `.audio` whose header is at `offset`: its body starts at stream
    /// offset `bodyStart` with `prefix` and holds `size` bytes (nil: up to the end of the input). What the audio
    /// tells (totals, DataOffset, readiness) is announced.
    /// - Throws: a failure when the audio cannot be cut as it streams.
    mutating func startAudio(prefix: UnsafeRawBufferPointer, bodyStart: Int64, size: Int64?, at offset: Int64,
                             into output: ParserOutput) throws(AudioFileStreamFailure) -> Audio
}
