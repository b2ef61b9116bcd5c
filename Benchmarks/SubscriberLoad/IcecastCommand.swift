import ArgumentParser
import Glibc

/// `SubscriberLoad icecast`: a running Icecast 2.4, fed as its source, read by N HTTP listeners on loopback TCP.
struct IcecastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icecast",
        abstract: "Feed a running Icecast as the mount's source, listen N times over HTTP, measure.",
        discussion: "Icecast must be running with burst-on-connect off and room for N listeners. Latency of a "
            + "frame is counted from the write that completed the Icecast block holding its last byte.")

    @OptionGroup var load: LoadOptions

    @Option(help: "Icecast's port on 127.0.0.1.")
    var port: Int

    @Option(help: "The process to measure: Icecast's.")
    var pid: Int32

    @Option(help: "The mount to create as source and to listen to.")
    var mount = "/bench.mp3"

    @Option(help: "The source password; the admin user 'admin' has the same one.")
    var password: String

    @Option(help: "Bytes per block Icecast sends MP3 in (REFBUF_SIZE in Icecast 2.4's format_mp3.c).")
    var blockSize = 1400

    @Flag(help: "Listeners ask for ICY metadata (Icy-MetaData: 1), as players that show titles do.")
    var icyMetadata = false

    @Option(help: ArgumentHelp(
        "Seconds between listener connects.",
        discussion: "Icecast 2.4 listens with a backlog of 5 (ICECAST_LISTEN_QUEUE): a burst of connects "
            + "overflows it and each overflow costs a 1 s SYN retry."))
    var connectInterval = 0.001

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let (log, frames) = try load.prepare(rule: .block(bytes: blockSize), subscribers: load.subscribers)
        let source = try IcecastSource.connect(port: port, mount: mount, password: password)
        let stats = { [port, mount, password] in
            try IcecastStats(port: port, mount: mount, adminPassword: password).view
        }
        // Icecast answers the source before the mount is live: a listener asking earlier gets 404.
        try MonotonicClock.wait(for: "\(mount) in Icecast's stats", timeout: 10, interval: 0.05) {
            (try? stats()) != nil
        }

        let (report, _, _) = try load.measure(
            relay: "icecast2", log: log, frames: frames, feeds: [source], relayPID: pid, drainSeconds: 10,
            view: stats, closeFeed: { close(source) }
        ) { [port, mount, connectInterval, icyMetadata] index in
            defer { usleep(UInt32(connectInterval * 1e6)) }
            return try HTTPListener(port: port, mount: mount, id: index, log: log, icyMetadata: icyMetadata)
        }
        try report.write(to: load.report)
    }
}
