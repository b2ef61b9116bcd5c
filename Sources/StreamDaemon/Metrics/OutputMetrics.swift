import Metrics

/// An Icecast output's metrics for Prometheus, labelled with its stream and its mount's URL (which holds no
/// password): whether it is pushing now, how often it connected again, and the audio bytes it pushed.
struct OutputMetrics {
    private let connected: Gauge
    private let reconnects: Counter
    private let bytesOut: Counter

    init(stream: String, output: String) {
        let dimensions = [("stream", stream), ("output", output)]
        connected = Gauge(label: "audiostream_output_connected", dimensions: dimensions)
        reconnects = Counter(label: "audiostream_output_reconnects_total", dimensions: dimensions)
        bytesOut = Counter(label: "audiostream_output_bytes_total", dimensions: dimensions)
        connected.record(0)
    }

    func noteConnected() {
        connected.record(1)
    }

    /// The connection was lost, or never made; another attempt follows when `willRetry`.
    func noteLost(willRetry: Bool) {
        connected.record(0)
        if willRetry { reconnects.increment() }
    }

    func noteSent(bytes: Int) {
        bytesOut.increment(by: bytes)
    }

    /// Forgets the series, when the output stops.
    func destroy() {
        connected.destroy()
        reconnects.destroy()
        bytesOut.destroy()
    }
}
