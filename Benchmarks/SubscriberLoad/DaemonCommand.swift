import ArgumentParser
import Glibc

/// `SubscriberLoad daemon`: audiostreamd, fed on its standard input, read by N subscribers on its stream socket
/// or, with `--http-port`, by N HTTP listeners of its mount.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Start audiostreamd on a stdin stream, subscribe N times for packets, feed it, measure.",
        discussion: "Latency of a packet is counted from the write that carried the next frame's header: the "
            + "parser emits a frame only once its successor's header confirms it.")

    @OptionGroup var load: LoadOptions

    @Option(help: "The audiostreamd executable.")
    var daemon = ".build/release/audiostreamd"

    @Option(help: "An empty folder for the daemon's configuration, sockets and log (short: socket paths are limited).")
    var folder: String

    @Option(help: "Serve the stream over HTTP on this loopback port and connect the subscribers as HTTP listeners.")
    var httpPort: Int?

    @Option(help: "The stream's writeInterval in seconds (default: audiostreamd's own).")
    var writeInterval: Double?

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let (log, frames) = try load.prepare(rule: .nextFrameHeader)
        let daemon = try DaemonProcess(executable: daemon, folder: folder, httpPort: httpPort,
                                       writeInterval: writeInterval)
        let status = { try DaemonStatus(controlSocket: daemon.controlSocket).view }
        try MonotonicClock.wait(for: "audiostreamd's control socket", timeout: 10) { (try? status()) != nil }

        func measure<Subscriber: Receiver>(
            _ relay: String, connect: (Int) throws -> Subscriber
        ) throws -> (RunReport, [Subscriber]) {
            let (report, subscribers) = try load.measure(
                relay: relay, log: log, frames: frames, feed: daemon.inputDescriptor, relayPID: daemon.pid,
                drainSeconds: 15, view: status, closeFeed: daemon.closeInput, connect: connect)
            guard daemon.waitForExit(timeout: 15) == 0 else {
                throw LoadError("audiostreamd did not exit cleanly; see \(folder)")
            }
            return (report, subscribers)
        }
        let report: RunReport
        if let httpPort {
            (report, _) = try measure("audiostreamd-http") { index in
                try HTTPListener(port: httpPort, mount: "/bench", id: index, log: log)
            }
        } else {
            let subscribers: [WireSubscriber]
            (report, subscribers) = try measure("audiostreamd") { index in
                try WireSubscriber(path: daemon.streamSocket, id: index, log: log)
            }
            let unended = subscribers.filter { !$0.sawEnd }.count
            if unended > 0 { print("warning: \(unended) subscribers did not get the end event") }
        }
        try report.write(to: load.report)
    }
}
