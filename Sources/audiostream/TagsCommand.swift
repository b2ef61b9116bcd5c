import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// `audiostream tags INPUT`: the input's tags, normalised, with the raw fields of each tag and of each key space.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Print the input's tags as one JSON object: the common keys, each tag's raw fields, and each "
            + "key space's fields (formats).")

    @Argument(help: "The input: a file path, or - for standard input.")
    var input: String

    @Option(name: .customLong("artwork"), help: ArgumentHelp(
        "Write the chosen picture (the common artwork) to FILE; with - standard output carries it and the JSON goes "
            + "to standard error.", valueName: "FILE"))
    var artworkPath: String?

    /// Artwork as large as this is written whole with --artwork; the parser's default keeps 4 MiB.
    private static let artworkLimits = MetadataLimits(maxArtworkBytes: 64 << 20, maxTagBytes: 72 << 20)

    func run() throws {
        var found: [MetadataEvent] = []
        let limits = artworkPath == nil ? MetadataLimits() : Self.artworkLimits
        let stream = try AudioFileStream(limits: limits) { event in
            if case .metadata(let metadata) = event { found.append(metadata) }
        }
        var chunks = ChunkSizes.fixed(64 * 1024)
        try InputFile(path: input).forEachChunk(sizes: &chunks) { chunk, offset in try stream.parse(chunk, offset: offset) }
        try stream.finish()
        // The first tag to state a key wins: a leading ID3v2 tag is richer than a truncated ID3v1 trailer.
        var tags = NormalizedTags()
        for event in found.reversed() { tags.merge(event.metadata.tags) }
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
