import Glibc

extension DaemonOptions {
    /// The run every audiostreamd command shares: waits for `daemon` to run each of `streams`, connects the log's
    /// subscribers to them in turn (to the stream sockets, or as HTTP listeners of `/NAME` with `--http-port`),
    /// runs the load on `feeds`, one per stream, and waits for the daemon to exit once `closeFeed` has ended them.
    /// - Returns: what `LoadOptions.measure` does, but the subscribers.
    func measure(
        _ load: LoadOptions, daemon: DaemonProcess, streams: [BenchStream], log: DeliveryLog, frames: Int,
        feeds: [Int32], closeFeed: () throws -> Void
    ) throws -> (report: RunReport, memory: MemoryTimeline) {
        signal(SIGPIPE, SIG_IGN)
        let status = { try DaemonStatus(controlSocket: daemon.controlSocket) }
        try MonotonicClock.wait(for: "audiostreamd's \(streams.count) streams", timeout: 10) {
            (try? status())?.streams == streams.count
        }

        func measure<Subscriber: Receiver>(
            _ relay: String, connect: (Int) throws -> Subscriber
        ) throws -> (RunReport, MemoryTimeline, [Subscriber]) {
            let measured = try load.measure(
                relay: relay, log: log, frames: frames, feeds: feeds, relayPID: daemon.pid, drainSeconds: 15,
                view: { try status().view }, closeFeed: closeFeed, connect: connect)
            guard daemon.waitForExit(timeout: 15) == 0 else {
                throw LoadError("audiostreamd did not exit cleanly; see \(folder)")
            }
            return measured
        }
        if let httpPort {
            let (report, memory, _) = try measure("audiostreamd-http") { index in
                try HTTPListener(port: httpPort, mount: "/" + streams[index % streams.count].name, id: index,
                                 log: log, icyMetadata: icyMetadata)
            }
            return (report, memory)
        }
        let (report, memory, subscribers) = try measure("audiostreamd") { index in
            try WireSubscriber(path: daemon.streamSockets[index % streams.count], id: index, log: log)
        }
        let unended = subscribers.filter { !$0.sawEnd }.count
        if unended > 0 { print("warning: \(unended) subscribers did not get the end event") }
        return (report, memory)
    }
}
