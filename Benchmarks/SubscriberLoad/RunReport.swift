import Foundation

/// Everything one run measured, written as JSON for Benchmarks/daemon_report.py.
struct RunReport: Encodable {
    let relay: String
    let subscribers: Int
    /// Seconds from the first connect until the relay counted every subscriber.
    let connectSeconds: Double
    /// Frames the parser found in the whole input file, for checking against an independent count.
    let inputFrames: Int
    let frameSeconds: Double
    /// Frames in the measured window: what each subscriber should receive of it.
    let windowFrames: Int
    /// Wall time of the window, from its first write to the write after it.
    let windowSeconds: Double
    let receivedFrames: Int
    let fewestFramesReceived: Int
    let subscribersMissingFrames: Int
    /// Connections that ended before the feed did.
    let closedEarly: Int
    let refused: Int
    let mismatches: Int
    let overflowEvents: Int
    let droppedPacketsReported: Int
    /// Frames that arrived before the write the emit rule says they need: should be 0.
    let earlyFrames: Int
    /// From the write that made each frame sendable to its receipt.
    let relayLatency: LatencySummary
    /// From the write that carried each frame's own bytes to its receipt.
    let ownBytesLatency: LatencySummary
    let relayCPUPercent: Double
    /// The part of `relayCPUPercent` spent in the kernel.
    let relaySystemCPUPercent: Double
    let generatorCPUPercent: Double
    let relayMemory: ProcessMemory
    let relayView: RelayView
    /// A relay tree's figures hop by hop (`SubscriberLoad tree`).
    var hops: TreeHops?
    /// The CPU of the other processes followed over the window, if any (a relay tree's relays).
    let othersCPUPercent: [Double]?

    init(relay: String, log: DeliveryLog, receivers: [Receiver], usage: LoadRun.Usage, relayView: RelayView,
         connectSeconds: Double) {
        let tallies = receivers.map(\.tally)
        let feedEnd = log.writeTimes.last { $0 != 0 } ?? .max
        self.relay = relay
        subscribers = receivers.count
        self.connectSeconds = connectSeconds
        inputFrames = log.feed.count
        frameSeconds = log.feed.frameSeconds
        windowFrames = log.window.count
        windowSeconds = usage.seconds
        receivedFrames = log.receivedInWindow.reduce(0, +)
        fewestFramesReceived = log.receivedInWindow.min() ?? 0
        subscribersMissingFrames = log.receivedInWindow.filter { $0 < log.window.count }.count
        closedEarly = tallies.filter { ($0.closedAt ?? .max) < feedEnd }.count
        refused = tallies.filter { $0.refusal != nil }.count
        mismatches = tallies.reduce(0) { $0 + $1.mismatches }
        overflowEvents = tallies.reduce(0) { $0 + $1.overflowEvents }
        droppedPacketsReported = tallies.reduce(0) { $0 + $1.droppedPackets }
        earlyFrames = log.earlyFrames
        relayLatency = LatencySummary(nanoseconds: log.relayLatencies)
        ownBytesLatency = LatencySummary(nanoseconds: log.ownBytesLatencies)
        relayCPUPercent = usage.relayCPUPercent
        relaySystemCPUPercent = usage.relaySystemCPUPercent
        generatorCPUPercent = usage.generatorCPUPercent
        relayMemory = usage.relayMemory
        othersCPUPercent = usage.othersCPUPercent.isEmpty ? nil : usage.othersCPUPercent
        self.relayView = relayView
    }

    /// Writes the report as JSON to `path` and its summary to standard output.
    func write(to path: String) throws {
        try writeJSON(to: path)
        print(summary)
    }

    /// One line: latency, frames received, and the relay's CPU and memory.
    var summary: String {
        "\(relay) ×\(subscribers): " + String(
            format: "relay latency p50 %.2f ms p99 %.2f ms max %.2f ms; frames %d/%d; "
                + "CPU %.1f %%, RSS %d KiB (peak %d); generator CPU %.1f %%",
            relayLatency.p50, relayLatency.p99, relayLatency.max, receivedFrames,
            windowFrames * subscribers, relayCPUPercent, relayMemory.residentKiB, relayMemory.peakResidentKiB,
            generatorCPUPercent)
    }
}
