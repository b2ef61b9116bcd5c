import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// The input and how it is fed to the parser, shared by every subcommand that parses.
struct InputOptions: ParsableArguments {
    @Argument(help: "The input: a file path, - for standard input, or an http(s) URL.")
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
        if isNetwork {
            // The server says where ICY blocks are, and a live stream cannot be cut.
            guard icyMetaint == nil, skip.isEmpty, randomChunks == nil else {
                throw ValidationError("--icy-metaint, --skip and --random-chunks apply to files only")
            }
        }
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

    /// Whether the input is an HTTP(S) URL rather than a file.
    var isNetwork: Bool { input.hasPrefix("http://") || input.hasPrefix("https://") }

    /// Parses the whole input as the options say, then finishes the parser.
    /// - Parameters:
    ///   - handler: takes the parser's events.
    ///   - metadata: takes the source's own metadata (an HTTP station, ICY blocks) with the count of audio bytes
    ///     before it.
    ///   - eachChunk: called after each chunk is parsed.
    ///   - limits: what the parser keeps of the tags.
    ///   - madeStream: takes the parser once it is made, so that what it read stays at hand when it fails.
    /// - Returns: the finished parser, for its properties.
    @discardableResult
    func parse(
        limits: MetadataLimits = MetadataLimits(), handler: @escaping AudioFileStream.EventHandler,
        metadata: @escaping (SourceMetadata, Int64) -> Void = { _, _ in }, eachChunk: @escaping () throws -> Void = {},
        madeStream: (AudioFileStream) -> Void = { _ in }
    ) throws -> AudioFileStream {
        if isNetwork {
            return try parseNetwork(limits: limits, handler: handler, metadata: metadata, eachChunk: eachChunk,
                                    madeStream: madeStream)
        }
        let stream = try AudioFileStream(fileTypeHint: hint.flatMap(AudioFileType.init(hint:)), limits: limits, handler: handler)
        madeStream(stream)
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
                    ICYMetadata(block: block).map { metadata(.icy($0), audioBytes) }
                }
                try eachChunk()
            }
        } else {
            var plan = FeedPlan(skips: skip)
            try reader.forEachChunk(sizes: &chunks) { chunk, offset in
                for segment in plan.segments(of: chunk.count, at: offset) {
                    let bytes = UnsafeRawBufferPointer(rebasing: chunk[segment.range])
                    try stream.parse(bytes, discontinuity: segment.resumesAfterSkip, offset: segment.offset)
                }
                try eachChunk()
            }
        }
        try stream.finish()
        return stream
    }

    /// Fetches the URL once, following redirects (`FetchedInput`); the parser is made when the response says its
    /// content type, which serves as the type hint unless `--hint` gives one.
    private func parseNetwork(
        limits: MetadataLimits, handler: @escaping AudioFileStream.EventHandler, metadata: @escaping (SourceMetadata, Int64) -> Void,
        eachChunk: @escaping () throws -> Void, madeStream: (AudioFileStream) -> Void
    ) throws -> AudioFileStream {
        var stream: AudioFileStream?
        var audioBytes: Int64 = 0
        try FetchedInput.read(input) { event in
            switch event {
            case .connected(let info):
                let type = hint.flatMap(AudioFileType.init(hint:)) ?? info.contentType.flatMap(AudioFileType.init(hint:))
                stream = try AudioFileStream(fileTypeHint: type, limits: limits, handler: handler)
                stream.map(madeStream)
                metadata(.station(info), audioBytes)
            case .audio(let bytes):
                try stream?.parse(bytes)
                audioBytes += Int64(bytes.count)
                try eachChunk()
            case .metadata(let block):
                metadata(.icy(block), audioBytes)
            }
        }
        guard let stream else { throw CommandFailure("\(input): no response") }
        try stream.finish()
        return stream
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
