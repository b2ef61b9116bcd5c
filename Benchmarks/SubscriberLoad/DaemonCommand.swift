import ArgumentParser

/// `SubscriberLoad daemon`: audiostreamd, fed on its standard input, read by N subscribers on its stream socket
/// or, with `--http-port`, by N HTTP listeners of its mount.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Start audiostreamd on a stdin stream, subscribe N times for packets, feed it, measure.",
        discussion: "Latency of a packet is counted from the write that carried the next frame's header: the "
            + "parser emits a frame only once its successor's header confirms it.")

    @OptionGroup var load: LoadOptions
    @OptionGroup var options: DaemonOptions

    func run() throws {
        let (log, frames) = try load.prepare(rule: .nextFrameHeader, subscribers: load.subscribers)
        let stream = BenchStream(name: "bench", source: .standardInput)
        let daemon = try options.start([stream])
        let (report, _) = try options.measure(load, daemon: daemon, streams: [stream], log: log, frames: frames,
                                              feeds: [daemon.inputDescriptor], closeFeed: daemon.closeInput)
        try report.write(to: load.report)
    }
}
