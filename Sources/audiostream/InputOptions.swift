import ArgumentParser
import AudioFileStream
import StreamDaemon

/// The input and how it is fed to the parser, shared by every subcommand that parses.
struct InputOptions: ParsableArguments {
    @Argument(help: "The input: a file path, or - for standard input.")
    var input: String

    @Option(help: "The file type, when the bytes alone do not tell it: MPG3, mp3, audio/mpeg, …")
    var hint: String?

    @Option(help: "Feed the parser this many bytes at a time.")
    var chunkSize: Int = 64 * 1024

    @Option(help: "Feed chunks of 1…8192 bytes drawn by a generator seeded with this number.")
    var randomChunks: UInt64?

    @Option(help: ArgumentHelp(
        "Do not feed input bytes in [A,B); feed the bytes from B as a discontinuity at offset B. Repeatable.",
        valueName: "A:B"))
    var skip: [SkipRange] = []

    @Option(help: ArgumentHelp(
        "The input is an ICY body with a metadata block after every N audio bytes (the icy-metaint header).",
        valueName: "N"))
    var icyMetaint: Int?

    func validate() throws {
        if let icyMetaint {
            guard icyMetaint > 0 else { throw ValidationError("--icy-metaint must be 1 or more") }
            // Skipped bytes would lose the count that finds the next block.
            guard skip.isEmpty else { throw ValidationError("--skip cannot be combined with --icy-metaint") }
        }
        guard (1...Self.largestChunk).contains(chunkSize) else {
            throw ValidationError("--chunk-size must be between 1 and \(Self.largestChunk)")
        }
        if let hint, AudioFileType(hint: hint) == nil {
            throw ValidationError("unknown --hint '\(hint)'")
        }
    }

    /// 64 MiB: chunks are read into one buffer of this size.
    static let largestChunk = 64 << 20

    /// Opens a parser for this input with the hinted type.
    func makeStream(handler: @escaping AudioFileStream.EventHandler) throws -> AudioFileStream {
        try AudioFileStream(fileTypeHint: hint.flatMap(AudioFileType.init(hint:)), handler: handler)
    }

    /// Reads the whole input into `stream` as the options say, then finishes it.
    /// - Parameter metadata: takes each ICY metadata block with the count of audio bytes before it.
    func feed(_ stream: AudioFileStream, metadata: (ICYMetadata, Int64) -> Void = { _, _ in }) throws {
        var chunks: ChunkSizes = randomChunks.map { .random(SplitMix64(seed: $0)) } ?? .fixed(chunkSize)
        let reader = try InputFile(path: input)
        if let icyMetaint {
            var demuxer = ICYDemuxer(metaint: icyMetaint)
            var audioBytes: Int64 = 0
            try reader.forEachChunk(sizes: &chunks) { chunk, _ in
                try demuxer.split(chunk) { audio in
                    try stream.parse(audio)
                    audioBytes += Int64(audio.count)
                } metadata: { block in
                    ICYMetadata(block: block).map { metadata($0, audioBytes) }
                }
            }
        } else {
            var plan = FeedPlan(skips: skip)
            try reader.forEachChunk(sizes: &chunks) { chunk, offset in
                for segment in plan.segments(of: chunk.count, at: offset) {
                    let bytes = UnsafeRawBufferPointer(rebasing: chunk[segment.range])
                    try stream.parse(bytes, discontinuity: segment.resumesAfterSkip,
                                     offset: segment.resumesAfterSkip ? segment.offset : nil)
                }
            }
        }
        try stream.finish()
    }
}

/// `A:B`: a half-open range of input bytes.
struct SkipRange: ExpressibleByArgument {
    let range: Range<Int64>

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let lower = Int64(parts[0]), let upper = Int64(parts[1]), 0 <= lower, lower < upper
        else { return nil }
        range = lower..<upper
    }
}
