import ArgumentParser
import Glibc

/// `SubscriberLoad hls`: audiostreamd serving a stdin stream as Low-Latency HLS, played by N players over
/// loopback HTTP.
struct HLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hls",
        abstract: "Start audiostreamd with Low-Latency HLS on a stdin stream, play it with N players, feed it, "
            + "measure.",
        discussion: "Each player (HLSPlayer) holds back PART-HOLD-BACK, fetches every part and waits for the "
            + "next with blocking playlist reloads on one kept-alive connection. Availability latency runs from "
            + "the write that let the daemon confirm a part's last frame to the reload answer listing the part, as "
            + "the kernel stamped its receipt (and as the players' process read it); listener-to-player latency "
            + "from the write that let it confirm a frame to the moment the player plays it.")

    @OptionGroup var load: LoadOptions
    @OptionGroup var options: DaemonOptions

    @Option(help: "The stream's hls: settings, as YAML.")
    var hls = "{segment: 2, part: 0.5, window: 20}"

    @Option(help: ArgumentHelp(
        "Seconds into the feed at which the first player asks for the playlist.",
        discussion: "The first playlist is served once it lists three segments (6 s of 2 s segments), and a "
            + "request waits at most three target durations."))
    var join = 7.0

    @Option(help: "Seconds over which the players join, one after another at even intervals.")
    var joinSpread = 2.0

    func validate() throws {
        guard options.httpPort != nil else { throw ValidationError("hls needs --http-port") }
        guard join >= 0, joinSpread >= 0, join + joinSpread < load.warmup else {
            throw ValidationError("--join and --join-spread must end within --warmup")
        }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        guard let port = options.httpPort else { return }
        let (log, frames) = try load.prepare(rule: .nextFrameHeader, subscribers: load.subscribers)
        let stream = BenchStream(name: "bench", source: .standardInput, hls: hls)
        let daemon = try options.start([stream])
        let status = { try DaemonStatus(controlSocket: daemon.controlSocket) }
        try MonotonicClock.wait(for: "audiostreamd's stream", timeout: 10) { (try? status())?.streams == 1 }

        let availability = HLSAvailability(log: log)
        let connectStart = MonotonicClock.now
        let players = try (0..<load.subscribers).map {
            try HLSPlayer(port: port, stream: stream.name, id: $0, log: log, availability: availability)
        }
        let connectSeconds = Double(MonotonicClock.now - connectStart) / 1e9
        // Player i joins with write joinWrite(i).
        let firstJoin = Int((join / log.feed.frameSeconds).rounded())
        let spread = Int((joinSpread / log.feed.frameSeconds).rounded())
        let joinWrite = { (player: Int) in firstJoin + player * spread / players.count }
        var finalView = RelayView(subscribers: 0)
        let run = LoadRun(log: log, feeds: [daemon.inputDescriptor], frames: frames, receivers: players,
                          relayPID: daemon.pid, windowCommand: load.windowCommand) { write in
            for (index, player) in players.enumerated() where joinWrite(index) == write { player.start() }
        }
        let usage = try run.run(drainSeconds: 15) {
            finalView = try status().view
            try daemon.closeInput()
        }
        guard daemon.waitForExit(timeout: 15) == 0 else {
            throw LoadError("audiostreamd did not exit cleanly; see \(options.folder)")
        }
        let report = HLSReport(
            run: RunReport(relay: "audiostreamd-hls", log: log, receivers: players, usage: usage,
                           relayView: finalView, connectSeconds: connectSeconds),
            availability: LatencySummary(nanoseconds: availability.delivered),
            availabilityRead: LatencySummary(nanoseconds: availability.read),
            stalls: players.reduce(0) { $0 + $1.stalls })
        try report.write(to: load.report)
    }
}
