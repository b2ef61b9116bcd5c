import ArgumentParser
import AudioFileStream
import AudioFileWriting
import AudioStreamProtocol

/// `audiostream tags INPUT`: the input's tags, normalised, with the raw fields of each tag and of each key space.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Print the input's tags as one JSON object: the common keys, each tag's raw fields, and each "
            + "key space's fields (formats); with -o, write a copy with tags set or removed.",
        discussion: """
            KEYs are the common keys (\(CommonTagKey.allCases.map(\.rawValue).joined(separator: ", "))) or raw \
            fields of the file's own key space: id3:TXXX:MOOD, id3:TPUB, itunes:----:com.apple.iTunes:MOOD, \
            vorbis:MOOD. Every tag not named is kept, and the audio is copied byte for byte.
            """)

    @Argument(help: "The input: a file path, or - for standard input (not with -o).")
    var input: String

    @Option(name: .customLong("artwork"), help: ArgumentHelp(
        "Write the chosen picture (the common artwork) to FILE; with - standard output carries it and the JSON goes "
            + "to standard error. With -o: the picture FILE holds becomes the only one, as the front cover.",
        valueName: "FILE"))
    var artworkPath: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Set each KEY to VALUE (with -o).", valueName: "KEY=VALUE"))
    var set: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Remove each KEY, or artwork for every picture (with -o).",
                                                         valueName: "KEY"))
    var remove: [String] = []

    @Option(name: .short, help: ArgumentHelp(
        "Write a copy with the tags changed to OUT, which may be the input: it is then replaced atomically.",
        valueName: "OUT"))
    var output: String?

    /// Artwork as large as this is written whole with --artwork; the parser's default keeps 4 MiB.
    static let artworkLimits = MetadataLimits(maxArtworkBytes: 64 << 20, maxTagBytes: 72 << 20)

    func validate() throws {
        if output != nil {
            _ = try edits()
            return
        }
        guard set.isEmpty, remove.isEmpty else { throw ValidationError("--set and --remove write a copy: name it with -o OUT") }
    }

    func run() throws {
        if let output { return try writeCopy(to: output) }
        let limits = artworkPath == nil ? MetadataLimits() : Self.artworkLimits
        let (found, _) = try Self.read(input, limits: limits)
        let tags = Self.commonTags(of: found)
        if let artworkPath { try write(tags.artwork, to: artworkPath) }
        guard case .object(let members) = EventJSON.tags(tags) else { return }
        let raw = found.map { event in
            JSON.object([
                ("source", .string(event.metadata.source.rawValue)), ("offset", .number(event.offset)),
                ("frames", .array(event.metadata.raw.map(EventJSON.field))),
            ])
        }
        let out = BufferedOutput(standardError: artworkPath.map(BufferedOutput.namesStandardOutput) ?? false)
        out.line(JSON.object(members + [("raw", .array(raw)), ("formats", Self.formats(of: found))]).text)
        try out.flush()
    }

    /// Parses all of `input`.
    /// - Returns: its tags, and the parser for its properties.
    static func read(_ input: String, limits: MetadataLimits) throws -> ([MetadataEvent], AudioFileStream) {
        var found: [MetadataEvent] = []
        let stream = try AudioFileStream(limits: limits) { event in
            if case .metadata(let metadata) = event { found.append(metadata) }
        }
        var chunks = ChunkSizes.fixed(64 * 1024)
        try InputFile(path: input).forEachChunk(sizes: &chunks) { chunk, offset in try stream.parse(chunk, offset: offset) }
        try stream.finish()
        return (found, stream)
    }

    /// The common keys of every tag found: the first tag to state a key wins, as a leading ID3v2 tag is richer
    /// than a truncated ID3v1 trailer.
    static func commonTags(of found: [MetadataEvent]) -> NormalizedTags {
        var tags = NormalizedTags()
        for event in found.reversed() { tags.merge(event.metadata.tags) }
        return tags
    }

    /// Each key space in the order first met, with the fields of all its tags (AVAsset's `metadataForFormat:`).
    static func formats(of found: [MetadataEvent]) -> JSON {
        var order: [MetadataFormat] = []
        var fields: [MetadataFormat: [JSON]] = [:]
        for event in found {
            let format = event.metadata.source
            if fields[format] == nil { order.append(format) }
            fields[format, default: []] += event.metadata.raw.map(EventJSON.field)
        }
        return .object(order.map { ($0.rawValue, .array(fields[$0]!)) })
    }

    private func write(_ artwork: Artwork?, to path: String) throws {
        guard let artwork else { throw CommandFailure("\(input) has no artwork") }
        guard artwork.data.count == artwork.size else {
            let most = Self.artworkLimits.maxArtworkBytes
            throw CommandFailure("the picture (\(artwork.size) bytes) is larger than the \(most) bytes --artwork writes")
        }
        let output = try BufferedOutput.opening(path)
        artwork.data.withUnsafeBytes { output.write($0) }
        try output.flush()
    }
}
