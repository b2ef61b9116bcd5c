/// The reader of RIFF/WAVE, RF64 and BW64 files.
struct WAVEReader: ChunkedReader {
    var walker: ChunkWalker<WAVEContainer>
}

/// RIFF/WAVE and its 64-bit forms, RF64 (EBU Tech 3306) and BW64 (ITU-R BS.2088), for `ChunkWalker`.
///
/// `fmt ` gives the samples (`WAVEFormatChunk`), `data` holds them, `ds64` gives the 64-bit sizes an RF64 or
/// BW64 file must state first, `LIST`/`INFO` and `id3 `/`ID3 ` chunks are tags; every other chunk streams past.
/// A `data` size of 0 or 0xFFFFFFFF, as streaming writers leave it (`ffmpeg -f wav -`), or a ds64 data size
/// of -1 or 0, means the samples run to the end of the input. A `data` chunk before `fmt ` cannot be read as it
/// streams and is refused (`notOptimized`). The samples are delivered as `PCMFrames`.
struct WAVEContainer: ChunkedContainer {
    static let name = "WAVE"
    static let layout = ChunkLayout.riff
    static let resync = ChunkResync.restart

    /// What a 32-bit size field holds when the real size is in `ds64`, or unknown.
    private static let sizeInDataSize64: Int64 = 0xFFFF_FFFF

    private let limits: MetadataLimits
    /// True for RF64 and BW64, whose first chunk must be `ds64`.
    private var needsDataSize64 = false
    private var dataSize64: DataSize64Chunk?
    private var sound: PCMSound?

    init(limits: MetadataLimits) {
        self.limits = limits
    }

    static func startsFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        fileType(of: bytes) != nil
    }

    private static func fileType(of bytes: UnsafeRawBufferPointer) -> AudioFileType? {
        guard bytes.matches("WAVE", at: 8) else { return nil }
        return if bytes.matches("RIFF", at: 0) { .wave }
            else if bytes.matches("RF64", at: 0) { .rf64 }
            else if bytes.matches("BW64", at: 0) { .bw64 }
            else { nil }
    }

    mutating func readFileHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int64)
        throws(AudioFileStreamFailure) -> AudioFileType
    {
        guard let fileType = Self.fileType(of: bytes) else {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "the stream does not start with a RIFF, RF64 "
                + "or BW64 header of form WAVE")
        }
        needsDataSize64 = fileType != .wave
        return fileType
    }

    func plan(for chunk: ChunkHeader, at offset: Int64, into output: ParserOutput)
        throws(AudioFileStreamFailure) -> ChunkPlan
    {
        if needsDataSize64 && dataSize64 == nil && chunk.id != "ds64" {
            throw AudioFileStreamFailure(.invalidFile, at: offset, "this RF64/BW64 file has a '\(chunk.id)' chunk "
                + "at \(offset) where its ds64 chunk must come first: its 64-bit sizes are missing")
        }
        switch chunk.id {
        case "fmt ": return .keep(limit: WAVEFormatChunk.keptLength)
        case "ds64": return .keep(limit: DataSize64Chunk.length)
        case "LIST": return .keep(limit: limits.maxTagBytes)
        case "id3 ", "ID3 ": return .id3
        case "data":
            return try PCMFrames.plan(after: sound, prefixLength: 0, size: dataSize(chunk), in: Self.name, at: offset)
        default: return .skip
        }
    }

    mutating func read(_ chunk: ChunkHeader, body: UnsafeRawBufferPointer, at offset: Int64,
                       into output: ParserOutput) throws(AudioFileStreamFailure)
    {
        switch chunk.id {
        case "fmt ":
            sound = try WAVEFormatChunk.sound(body, size: chunk.size, at: offset)
        case "ds64":
            guard let sizes = DataSize64Chunk(body) else {
                throw AudioFileStreamFailure(.invalidFile, at: offset, "the ds64 chunk at \(offset) holds "
                    + "\(chunk.size) bytes, fewer than the \(DataSize64Chunk.length) of its sizes")
            }
            dataSize64 = sizes
        case "LIST":
            if let metadata = RIFFInfoList.metadata(body, limits: limits) { output.metadata(metadata, at: offset) }
        default:
            break
        }
    }

    func startAudio(prefix: UnsafeRawBufferPointer, bodyStart: Int64, size: Int64?, at offset: Int64,
                    into output: ParserOutput) -> PCMFrames {
        PCMFrames(sound!, bodyStart: bodyStart, size: size, skipping: prefix.count, into: output)
    }

    /// The `data` chunk's size, or nil when its samples run to the end of the input.
    private func dataSize(_ chunk: ChunkHeader) -> Int64? {
        if let dataSize64, chunk.size == Self.sizeInDataSize64 { return dataSize64.dataSize }
        return chunk.size == 0 || chunk.size == Self.sizeInDataSize64 ? nil : chunk.size
    }
}
