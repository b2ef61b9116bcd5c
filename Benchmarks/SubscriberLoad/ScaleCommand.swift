import ArgumentParser

/// `SubscriberLoad scale`: audiostreamd running S streams, each fed through a named pipe of its own, each read by
/// N subscribers on its socket or, with `--http-port`, by N HTTP listeners of its mount.
struct ScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Start audiostreamd on S streams fed through named pipes, subscribe N times to each, feed them, "
            + "measure, and follow the daemon's memory every second.",
        discussion: "Every stream gets the same frames at the same moments, written to each pipe in turn; "
            + "latency is counted as for `daemon`, from the write to the first stream's pipe.")

    @OptionGroup var load: LoadOptions
    @OptionGroup var options: DaemonOptions

    @Option(help: "Streams to run, each read from a named pipe the generator feeds.")
    var streams = 1

    func validate() throws {
        guard streams > 0 else { throw ValidationError("--streams must be 1 or more") }
    }

    func run() throws {
        let pipes = try FeedPipes(folder: options.folder, count: streams)
        let (log, frames) = try load.prepare(rule: .nextFrameHeader, subscribers: streams * load.subscribers)
        let daemon = try options.start(pipes.streams)
        let (run, memory) = try options.measure(load, daemon: daemon, streams: pipes.streams, log: log,
                                                frames: frames, feeds: pipes.descriptors, closeFeed: pipes.close)
        try ScaleReport(streams: streams, run: run, relayMemoryTimeline: memory).write(to: load.report)
    }
}
