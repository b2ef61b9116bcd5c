import Foundation

/// What `SubscriberLoad hls` measured, written as JSON for Benchmarks/hls_report.py. In `run`, the relay latency
/// is listener-to-player latency: a frame's receipt is when its player plays it.
struct HLSReport: Encodable {
    let run: RunReport
    /// From the write that let the daemon confirm a part's last frame to a blocking reload's answer listing it,
    /// as delivered to the player's socket.
    let availability: LatencySummary
    /// The same, to when the players' process read the answer.
    let availabilityRead: LatencySummary
    /// Times a player's next part came after its turn to play.
    let stalls: Int

    func write(to path: String) throws {
        try writeJSON(to: path)
        print(run.summary.replacingOccurrences(of: "relay latency", with: "listener-to-player latency")
            + String(format: "; availability p50 %.2f ms p99 %.2f ms max %.2f ms (read: p99 %.2f ms); %d stalls",
                     availability.p50, availability.p99, availability.max, availabilityRead.p99, stalls))
    }
}
