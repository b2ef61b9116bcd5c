import Metrics

/// One stream's metrics for Prometheus, through swift-metrics: counters kept as things happen, gauges set when
/// the metrics are read. Without a metrics backend they cost nothing.
final class StreamMetrics {
    let bytesIn: Counter
    let packets: Counter
    let resyncs: Counter
    let skippedBytes: Counter
    let reconnects: Counter
    let decodeErrors: Counter
    let droppedPackets: Counter
    private let subscribers: Gauge
    private let listeners: Gauge
    private let hlsListeners: Gauge
    private let name: String
    /// Each subscriber's lag gauge, by subscriber id.
    private var lags: [Int: Gauge] = [:]
    /// Set by `destroy()`: a reading that comes later must not bring the series back.
    private var destroyed = false

    init(stream name: String) {
        self.name = name
        let dimensions = [("stream", name)]
        bytesIn = Counter(label: "audiostream_bytes_in_total", dimensions: dimensions)
        packets = Counter(label: "audiostream_packets_total", dimensions: dimensions)
        resyncs = Counter(label: "audiostream_resyncs_total", dimensions: dimensions)
        skippedBytes = Counter(label: "audiostream_skipped_bytes_total", dimensions: dimensions)
        reconnects = Counter(label: "audiostream_reconnects_total", dimensions: dimensions)
        decodeErrors = Counter(label: "audiostream_decode_errors_total", dimensions: dimensions)
        droppedPackets = Counter(label: "audiostream_dropped_packets_total", dimensions: dimensions)
        subscribers = Gauge(label: "audiostream_subscribers", dimensions: dimensions)
        listeners = Gauge(label: "audiostream_http_listeners", dimensions: dimensions)
        hlsListeners = Gauge(label: "audiostream_hls_listeners", dimensions: dimensions)
    }

    /// Sets the subscriber and listener gauges from the current subscribers' ids, lags and transports, and the
    /// HLS sessions listening when the stream has HLS; call on the stream's loop.
    func update(lags current: [(id: Int, seconds: Double, transport: Subscriber.Transport)], hlsListeners hls: Int? = nil) {
        guard !destroyed else { return }
        subscribers.record(current.count { $0.transport == .socket })
        listeners.record(current.count { $0.transport == .http })
        if let hls { hlsListeners.record(hls) }
        let ids = Set(current.map(\.id))
        for (id, gauge) in lags where !ids.contains(id) {
            gauge.destroy()
            lags[id] = nil
        }
        for (id, seconds, _) in current {
            let gauge = lags[id] ?? Gauge(
                label: "audiostream_subscriber_lag_seconds", dimensions: [("stream", name), ("subscriber", String(id))])
            lags[id] = gauge
            gauge.record(seconds)
        }
    }

    /// Forgets the stream's metrics, when it stops or fails to start; call on the stream's loop.
    func destroy() {
        guard !destroyed else { return }
        update(lags: [])
        destroyed = true
        for metric in [bytesIn, packets, resyncs, skippedBytes, reconnects, decodeErrors, droppedPackets] { metric.destroy() }
        subscribers.destroy()
        listeners.destroy()
        hlsListeners.destroy()
    }
}
