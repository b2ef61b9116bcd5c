import ArgumentParser
import AudioFileStream
import AudioStreamProtocol

/// `audiostream events INPUT`: every parser event as a JSON line, in order.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print every parser event as one JSON object per line, in stream order.")

    @OptionGroup var input: InputOptions

    func run() throws {
        let out = BufferedOutput()
        var sourceMetadata = SourceMetadataQueue()
        let printMetadata = { (metadata: SourceMetadata, offset: Int64) in out.line(metadata.json(offset: offset).text) }
        try input.parse { event in
            switch event {
            case .packets(let batch):
                for packet in MessagePackets(batch) {
                    sourceMetadata.release(upTo: packet.offset, printMetadata)
                    out.line(EventJSON.packet(packet).text)
                }
                return
            case .discontinuity(let discontinuity):
                sourceMetadata.release(upTo: discontinuity.offset - 1, printMetadata)
            case .property, .metadata, .warning:
                break
            }
            for object in EventJSON.objects(for: event) { out.line(object.text) }
        } metadata: {
            sourceMetadata.append($0, at: $1, overflow: printMetadata)
        } eachChunk: {
            // A live stream's lines go out as they come; once the reader is gone there is no reason to read on.
            if input.isNetwork { try out.flush() } else { try out.throwIfFailed() }
        }
        sourceMetadata.release(upTo: .max, printMetadata)
        out.line(EventJSON.end(.sourceEnded(failure: nil)).text)
        try out.flush()
    }
}
