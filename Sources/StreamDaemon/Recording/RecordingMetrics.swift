import Metrics

/// A recording's metrics for Prometheus: bytes and pieces written, and failures to write.
struct RecordingMetrics: Sendable {
    private let bytes: Counter
    private let pieces: Counter
    private let errors: Counter

    init(stream: String) {
        let dimensions = [("stream", stream)]
        bytes = Counter(label: "audiostream_record_bytes_total", dimensions: dimensions)
        pieces = Counter(label: "audiostream_record_pieces_total", dimensions: dimensions)
        errors = Counter(label: "audiostream_record_errors_total", dimensions: dimensions)
    }

    func noteFinished(bytes count: Int64) {
        bytes.increment(by: Int(count))
        pieces.increment()
    }

    func noteError() {
        errors.increment()
    }

    func destroy() {
        bytes.destroy()
        pieces.destroy()
        errors.destroy()
    }
}
