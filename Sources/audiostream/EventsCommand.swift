import ArgumentParser
import AudioFileStream
import StreamDaemon

/// `audiostream events INPUT`: every parser event as a JSON line, in order.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print every parser event as one JSON object per line, in stream order.")

    @OptionGroup var input: InputOptions

    func run() throws {
        let out = BufferedOutput()
        var icy = ICYMetadataQueue()
        let printICY = { (metadata: ICYMetadata, offset: Int64) in out.line(metadata.json(offset: offset).text) }
        let stream = try input.makeStream { event in
            switch event {
            case .packets(let batch):
                for packet in EventJSON.packets(in: batch) {
                    icy.release(upTo: packet.offset, printICY)
                    out.line(EventJSON.packet(packet).text)
                }
                return
            case .discontinuity(let discontinuity):
                icy.release(upTo: discontinuity.offset, printICY)
            case .property, .metadata:
                break
            }
            for object in EventJSON.objects(for: event) { out.line(object.text) }
        }
        try input.feed(stream) { icy.append($0, at: $1) }
        icy.release(upTo: .max, printICY)
        out.line(EventJSON.end.text)
        try out.flush()
    }
}
