/// What the shared chunk reader does with a chunk, as its container decides from the chunk's header.
enum ChunkPlan: Equatable {
    /// Streams past unread.
    case skip
    /// Its first `limit` bytes are kept (the rest streams past unread) and given to the container's
    /// `read(_:body:at:)` once the chunk has gone by.
    case keep(limit: Int)
    /// Its body is an ID3v2 tag, read as it streams past within `MetadataLimits`.
    case id3
    /// Its body holds the samples, after `prefixLength` bytes the container's `soundStart(prefix:)` reads.
    /// `size` is the body's size, or nil when the samples run to the end of the input (a streaming writer's).
    case sound(prefixLength: Int, size: Int64?)
}

/// The samples a container holds: their format and channel layout.
struct PCMSound: Equatable {
    var format: AudioStreamBasicDescription
    var layout: AudioChannelLayout
}

/// One chunked container format of interleaved samples (RIFF/WAVE and its 64-bit forms, AIFF and AIFC): what
/// its file header and chunks mean. `ChunkedPCMReader` walks the chunks, buffers what the container keeps,
/// streams tags and delivers the frames; the container only reads headers and decides, so the walking rules
/// (pad bytes, skipping across reads, bounded keeping, cut input) are written once for every such format.
protocol ChunkedContainer {
    /// Sizes are big-endian (IFF) or little-endian (RIFF).
    static var isBigEndian: Bool { get }
    /// The container's name in messages (`WAVE`, `AIFF`).
    static var name: String { get }

    init(limits: MetadataLimits)

    /// Whether `bytes` (the file header's 12, all given) start a file of this container.
    static func startsFile(_ bytes: UnsafeRawBufferPointer) -> Bool

    /// Reads the file header (the outer chunk's id and size, and the form type: 12 bytes, all given) found at
    /// stream offset `offset`, and returns the file type it names.
    /// - Throws: a failure when the bytes are not this container's header.
    mutating func readFileHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> AudioFileType

    /// What to do with the chunk whose header is at `offset`.
    /// - Throws: a failure when the chunk makes the file unreadable (a data chunk before the format).
    mutating func plan(for chunk: ChunkHeader, at offset: Int64) throws(AudioFileStreamFailure) -> ChunkPlan

    /// Reads the kept bytes of a chunk planned `.keep` whose header is at `offset`; returns a tag to report there.
    /// - Throws: a failure when the chunk states a format this library cannot read or a malformed one.
    mutating func read(_ chunk: ChunkHeader, body: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> Metadata?

    /// Bytes between the sound chunk's prefix (`prefixLength` bytes, given) and its first frame.
    func soundStart(prefix: UnsafeRawBufferPointer) -> Int

    /// The samples' format, once the chunk stating it was read.
    var sound: PCMSound? { get }
}
