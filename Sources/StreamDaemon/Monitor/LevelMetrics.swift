import AudioLoudness
import Metrics

/// A monitored stream's sound for Prometheus: its loudness gauges (with `monitor: {loudness: true}`) and the
/// seconds its sources were silent.
final class LevelMetrics {
    private let stream: String
    private let loudness: [Gauge]
    /// One gauge per channel, as many as the source on the air has.
    private var truePeaks: [Gauge] = []
    let silenceSeconds: FloatingPointCounter

    init(stream: String, loudness: Bool) {
        self.stream = stream
        let dimensions = [("stream", stream)]
        self.loudness = loudness ? [
            "audiostream_loudness_momentary_lufs", "audiostream_loudness_shortterm_lufs",
            "audiostream_loudness_integrated_lufs", "audiostream_loudness_range_lu",
        ].map { Gauge(label: $0, dimensions: dimensions) } : []
        silenceSeconds = FloatingPointCounter(label: "audiostream_silence_seconds_total", dimensions: dimensions)
    }

    /// Sets the loudness gauges, when the stream has them, to `reading`.
    func record(_ reading: LevelReading) {
        guard !loudness.isEmpty else { return }
        for (gauge, value) in zip(loudness, [reading.momentary, reading.shortTerm, reading.integrated, reading.range]) {
            gauge.record(value)
        }
        if truePeaks.count != reading.truePeaks.count {
            for gauge in truePeaks { gauge.destroy() }
            truePeaks = reading.truePeaks.indices.map {
                Gauge(label: "audiostream_true_peak_dbtp", dimensions: [("stream", stream), ("channel", String($0))])
            }
        }
        for (gauge, value) in zip(truePeaks, reading.truePeaks) { gauge.record(value) }
    }

    /// Forgets the stream's series, when it stops.
    func destroy() {
        for gauge in loudness + truePeaks { gauge.destroy() }
        truePeaks = []
        silenceSeconds.destroy()
    }
}
