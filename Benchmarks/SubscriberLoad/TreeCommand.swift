import ArgumentParser
import Foundation
import Glibc

/// `SubscriberLoad tree`: a relay tree of audiostreamd on loopback. An origin fed on its standard input, and two
/// relays of it (`relay:`), each read by N HTTP listeners; a few listeners of the origin itself are the baseline
/// of the hop. The origin's CPU is the run's; each relay's is sampled over the same window.
struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "An origin audiostreamd and two audiostreamd relays of it, N HTTP listeners at each relay.",
        discussion: "--subscribers is the listeners at each relay. Latency of a frame is counted from the write "
            + "that carried the next frame's header, for every listener; the hop adds the relay's own parse, "
            + "which emits a frame once the next one's header has come from the origin.")

    @OptionGroup var load: LoadOptions

    @Option(help: "The audiostreamd executable.")
    var daemon = ".build/release/audiostreamd"

    @Option(help: "An empty folder for the daemons' folders (short: socket paths are limited).")
    var folder: String

    @Option(help: "Loopback ports of the origin and of the two relays.")
    var ports: [Int]

    @Option(help: "Listeners of the origin itself: the hop's baseline.")
    var originListeners = 20

    func validate() throws {
        guard ports.count == 3 else { throw ValidationError("--ports takes three ports: the origin's, then each relay's") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let relays = ports.count - 1
        let total = originListeners + relays * load.subscribers
        // Group 0 listens to the origin; group R to relay R.
        let groups = (0..<total).map { $0 < originListeners ? 0 : 1 + ($0 - originListeners) % relays }
        let (log, frames) = try load.prepare(rule: .nextFrameHeader, subscribers: total, groups: groups)
        let stream = BenchStream(name: "bench", source: .standardInput)
        try FileManager.default.createDirectory(atPath: folder + "/origin", withIntermediateDirectories: true)
        let origin = try DaemonProcess(executable: daemon, folder: folder + "/origin", streams: [stream],
                                       httpPort: ports[0], httpOptions: ", relayPassword: bench")
        let relayDaemons = try (1...relays).map { index in
            let relayFolder = folder + "/relay\(index)"
            try FileManager.default.createDirectory(atPath: relayFolder, withIntermediateDirectories: true)
            return try DaemonProcess(
                executable: daemon, folder: relayFolder, streams: [], httpPort: ports[index],
                relay: "{master: \"http://127.0.0.1:\(ports[0])\", password: bench, interval: 1, sockets: \(relayFolder)}")
        }
        let statuses = ([origin] + relayDaemons).map { daemon in { try DaemonStatus(controlSocket: daemon.controlSocket) } }
        try MonotonicClock.wait(for: "each relay to relay the origin's stream", timeout: 20) {
            statuses.dropFirst().allSatisfy { (try? $0())?.streams == 1 }
        }
        // The origin counts each relay as a listener.
        let view = {
            let views = try statuses.map { try $0().view }
            var sum = RelayView(subscribers: views.reduce(0) { $0 + $1.subscribers } - relays)
            sum.droppedPackets = views.reduce(0) { $0 + ($1.droppedPackets ?? 0) }
            sum.slowDisconnects = views.reduce(0) { $0 + ($1.slowDisconnects ?? 0) }
            sum.maxLagSeconds = views.compactMap(\.maxLagSeconds).max()
            return sum
        }
        var (report, _, _) = try load.measure(
            relay: "audiostreamd-tree", log: log, frames: frames, feeds: [origin.inputDescriptor],
            relayPID: origin.pid, otherPIDs: relayDaemons.map(\.pid), drainSeconds: 5, view: view,
            closeFeed: origin.closeInput
        ) { index in
            try HTTPListener(port: ports[groups[index]], mount: "/bench", id: index, log: log)
        }
        report.hops = TreeHops(latencies: log.groupLatencies, relayCPUPercent: report.othersCPUPercent ?? [])
        try report.write(to: load.report)
    }
}

/// What the tree measured hop by hop: the latency of the origin's listeners and of each relay's, and each
/// relay's CPU over the run.
struct TreeHops: Encodable {
    let origin: LatencySummary
    let relays: [LatencySummary]
    let relayCPUPercent: [Double]

    init(latencies: [[Int64]], relayCPUPercent: [Double]) {
        origin = LatencySummary(nanoseconds: latencies[0])
        relays = latencies.dropFirst().map { LatencySummary(nanoseconds: $0) }
        self.relayCPUPercent = relayCPUPercent
    }
}
