import ArgumentParser

/// `SubscriberLoad`: the load generator of `make bench`'s daemon benchmark.
///
/// Feeds one 128 kb/s MP3 at real-time pace to a relay (audiostreamd or Icecast), frame by frame, while N
/// subscribers read it back over local sockets (`scale`: to each of S streams of audiostreamd, each read by N);
/// writes what it measured as JSON for Benchmarks/bench.sh.
@main
struct SubscriberLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "SubscriberLoad",
        abstract: "Measure a live audio relay's latency, drops, CPU and memory under N local subscribers.",
        subcommands: [DaemonCommand.self, ScaleCommand.self, IcecastCommand.self, FloorCommand.self, HLSCommand.self,
                      TreeCommand.self]
    )
}
