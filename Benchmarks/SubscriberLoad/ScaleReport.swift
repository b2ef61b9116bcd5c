import Foundation

/// What `SubscriberLoad scale` measured, as JSON for Benchmarks/scale_report.py: the run's report as `daemon`
/// writes it, with how many streams it had, the daemon's memory through it, and how busy the machine was.
struct ScaleReport: Encodable {
    let streams: Int
    let run: RunReport
    let relayMemoryTimeline: MemoryTimeline
    /// The 1, 5 and 15-minute load averages of /proc/loadavg once the run was over: the CPU figures' context.
    let loadAverage: [Double]

    init(streams: Int, run: RunReport, relayMemoryTimeline: MemoryTimeline) {
        self.streams = streams
        self.run = run
        self.relayMemoryTimeline = relayMemoryTimeline
        let loadavg = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        loadAverage = loadavg.split(separator: " ").prefix(3).compactMap { Double($0) }
    }

    /// Writes the report as JSON to `path` and a summary to standard output.
    func write(to path: String) throws {
        try writeJSON(to: path)
        let memory = relayMemoryTimeline
        print("\(streams) streams, \(run.summary)")
        print("RSS KiB: \(memory.beforeSubscribersKiB) before subscribers, \(memory.subscribedKiB) subscribed, "
            + "\(memory.windowStartKiB) after the warm-up, \(memory.windowEndKiB) at the end (peak \(memory.peakKiB)); "
            + "load average \(loadAverage)")
    }
}
