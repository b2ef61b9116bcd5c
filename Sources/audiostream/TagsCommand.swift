import ArgumentParser
import AudioFileStream
import StreamDaemon

/// `audiostream tags INPUT`: the input's tags, normalised, with the raw fields.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Print the input's tags as one JSON object: the normalised keys and the raw fields.")

    @Argument(help: "The input: a file path, or - for standard input.")
    var input: String

    func run() throws {
        var found: [MetadataEvent] = []
        let stream = try AudioFileStream { event in
            if case .metadata(let metadata) = event { found.append(metadata) }
        }
        var chunks = ChunkSizes.fixed(64 * 1024)
        try InputFile(path: input).forEachChunk(sizes: &chunks) { chunk, offset in try stream.parse(chunk, offset: offset) }
        try stream.finish()
        // The first tag to state a key wins: a leading ID3v2 tag is richer than a truncated ID3v1 trailer.
        var tags = NormalizedTags()
        for event in found.reversed() { tags.merge(event.metadata.tags) }
        guard case .object(let members) = EventJSON.tags(tags) else { return }
        let raw = found.map { event in
            JSON.object([
                ("source", .string(event.metadata.source)), ("offset", .number(event.offset)),
                ("frames", .array(event.metadata.raw.map(EventJSON.field))),
            ])
        }
        let out = BufferedOutput()
        out.line(JSON.object(members + [("raw", .array(raw))]).text)
        try out.flush()
    }
}
