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
        let stream = try input.makeStream { event in
            for object in EventJSON.objects(for: event) { out.line(object.text) }
        }
        try input.feed(stream)
        out.line(EventJSON.end.text)
        try out.flush()
    }
}
