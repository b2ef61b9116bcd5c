import ArgumentParser
import AudioStreamProtocol
#if canImport(Glibc)
import Glibc
#endif

@main
struct Audiostream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiostream",
        abstract: "Parse audio streams into packets, properties and tags; subscribe to audiostreamd.",
        version: packageVersion,
        subcommands: [
            PacketsCommand.self, EventsCommand.self, ProbeCommand.self, TagsCommand.self, ScanCommand.self,
            DecodeCommand.self, RecordCommand.self, CutCommand.self, ConcatCommand.self, HLSCommand.self,
            SubscribeCommand.self, StatusCommand.self, LoudnessCommand.self,
        ]
    )

    static func main() {
        // A closed pipe (`| head`) is then a failed write, which `BufferedOutput` ends on quietly, not a signal.
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}
