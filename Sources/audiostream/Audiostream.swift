import ArgumentParser

@main
struct Audiostream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audiostream",
        abstract: "Parse audio streams into packets, properties and tags; subscribe to audiostreamd.",
        subcommands: [
            PacketsCommand.self, EventsCommand.self, ProbeCommand.self, TagsCommand.self, ScanCommand.self,
            DecodeCommand.self, SubscribeCommand.self, StatusCommand.self,
        ]
    )
}
