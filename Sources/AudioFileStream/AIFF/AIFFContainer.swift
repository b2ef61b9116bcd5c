/// The reader of AIFF and AIFC files.
struct AIFFReader: ChunkedReader {
    var walker: ChunkWalker<AIFFContainer>
}

/// AIFF and AIFF-C (Apple's "Audio Interchange File Format" 1.3 and its AIFF-C draft) for `ChunkWalker`.
///
/// `COMM` gives the samples (`AIFFCommonChunk`) and their length, announced as it is read; `SSND` holds them
/// after its offset and block size fields, the offset saying how many bytes come before the first frame.
/// `ID3 `/`id3 ` chunks are ID3v2 tags; `NAME`, `AUTH`, `(c) ` and `ANNO` are text, each reported as a tag of
/// source `aiffText` whose raw key is the chunk id; every other chunk streams past. An `SSND` size of 0 or
/// 0xFFFFFFFF, as a writer to a pipe leaves it, means the samples run to the end of the input. An `SSND` before
/// `COMM` cannot be read as it streams and is refused (`notOptimized`). The samples are delivered as
/// `PCMFrames`.
struct AIFFContainer: ChunkedContainer {
    static let name = "AIFF"
    static let layout = ChunkLayout.iff
    static let resync = ChunkResync.restart

    /// SSND's offset and blockSize fields.
    private static let soundPrefixLength = 8
    private static let textChunks: Set<FourCharCode> = ["NAME", "AUTH", "(c) ", "ANNO"]

    private let limits: MetadataLimits
    private var isCompressible = false
    private var sound: PCMSound?

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    static func startsFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.matches("FORM", at: 0) && (bytes.matches("AIFF", at: 8) || bytes.matches("AIFC", at: 8))
    }

    mutating func readFileHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> AudioFileType
    {
        guard Self.startsFile(bytes) else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the stream does not start with a FORM header "
                + "of form AIFF or AIFC")
        }
        isCompressible = bytes.matches("AIFC", at: 8)
        return isCompressible ? .aifc : .aiff
    }

    func plan(for chunk: ChunkHeader, at offset: Int64, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ChunkPlan
    {
        switch chunk.id {
        case "COMM":
            return .keep(limit: AIFFCommonChunk.keptLength)
        case "SSND":
            let isOpenEnded = chunk.size == 0 || chunk.size == 0xFFFF_FFFF
            guard isOpenEnded || chunk.size >= Self.soundPrefixLength else {
                throw AudioFileStreamFailure(.invalidFile, at: offset, "the SSND chunk at \(offset) holds "
                    + "\(chunk.size) bytes, fewer than its \(Self.soundPrefixLength) bytes of offset and block size")
            }
            return try PCMFrames.plan(after: sound, prefixLength: Self.soundPrefixLength,
                                      size: isOpenEnded ? nil : chunk.size, in: Self.name, at: offset)
        case "ID3 ", "id3 ":
            return .id3
        case _ where Self.textChunks.contains(chunk.id):
            return .keep(limit: limits.maxFieldBytes)
        default:
            return .skip
        }
    }

    mutating func read(_ chunk: ChunkHeader, body: UnsafeRawBufferPointer, at offset: Int64,
                       into output: ParserOutput) throws(AudioFileStreamFailure)
    {
        guard chunk.id != "COMM" else {
            let sound = try AIFFCommonChunk.sound(body, isCompressible: isCompressible, at: offset)
            // COMM states the length, which a file cut before its samples (or stripped of them) tells too.
            sound.announce(into: output)
            self.sound = sound
            return
        }
        guard let field = ChunkText.field(chunk.id, body, size: chunk.size, limits: limits) else { return }
        output.metadata(Metadata(source: .aiffText, tags: MetadataNormalizer.tags(from: [field]), raw: [field]),
                        at: offset)
    }

    /// The frames start past SSND's offset and block size, by the offset: the bytes block-aligning writers fill.
    func startAudio(prefix: UnsafeRawBufferPointer, bodyStart: Int64, size: Int64?, at offset: Int64,
                    into output: ParserOutput) -> PCMFrames {
        let skipping = prefix.count + Int(prefix.bigEndianUInt32(at: 0))
        return PCMFrames(sound!, bodyStart: bodyStart, size: size, skipping: skipping, into: output)
    }
}
