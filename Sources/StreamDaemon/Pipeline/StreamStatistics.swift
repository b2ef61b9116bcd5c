import AudioDecoding
import AudioFileStream
import AudioStreamProtocol

/// What `audiostream status` reports about a stream's input: counted by its pipeline, and passed on to its
/// metrics.
final class StreamStatistics {
    let metrics: StreamMetrics
    private(set) var bytesIn = 0
    private(set) var packets = 0
    private(set) var packetBytes = 0
    private(set) var audioSeconds = 0.0
    private(set) var resyncs = 0
    private(set) var skippedBytes = 0
    private(set) var decodeErrors = 0

    init(metrics: StreamMetrics) {
        self.metrics = metrics
    }

    func note(bytesIn count: Int) {
        bytesIn += count
        metrics.bytesIn.increment(by: count)
    }

    func noteDecodeError() {
        decodeErrors += 1
        metrics.decodeErrors.increment()
    }
    private(set) var format: AudioStreamBasicDescription?
    /// The rate and channels the decoder outputs, once the stream has been decoded (while a subscriber wants PCM).
    private(set) var decodedFormat: PCMFormat?

    func note(packetOf size: Int, frames: Int, sampleRate: Int) {
        packets += 1
        metrics.packets.increment()
        packetBytes += size
        if sampleRate > 0 { audioSeconds += Double(frames) / Double(sampleRate) }
    }

    func note(_ id: AudioFileStreamPropertyID, _ value: AudioFileStreamPropertyValue) {
        if id == .dataFormat, case .format(let format) = value { self.format = format }
    }

    /// Notes the decoder's output format; returns whether it is news (the decoder says it again after a reset).
    func note(decodedFormat format: PCMFormat) -> Bool {
        guard decodedFormat.map({ ($0.sampleRate, $0.channels) != (format.sampleRate, format.channels) }) ?? true
        else { return false }
        decodedFormat = format
        return true
    }

    /// A discontinuity for `reason`, after which `skipped` bytes were lost.
    func note(_ reason: Discontinuity.Reason, skipped: Int64) {
        if reason == .resync {
            resyncs += 1
            metrics.resyncs.increment()
        }
        skippedBytes += Int(skipped)
        metrics.skippedBytes.increment(by: skipped)
    }

    /// Bits per second of audio in the packets so far.
    var measuredBitRate: Int {
        audioSeconds > 0 ? Int((Double(packetBytes * 8) / audioSeconds).rounded()) : 0
    }

    var json: [(String, JSON)] {
        [
            ("format", JSON.optional(format) { format in
                .object([
                    ("formatID", .string(format.formatID.description)), ("sampleRate", .double(format.sampleRate)),
                    ("channels", .number(format.channelsPerFrame)),
                ])
            }),
            ("decodedFormat", JSON.optional(decodedFormat) {
                EventJSON.decodedFormat(sampleRate: $0.sampleRate, channels: $0.channels)
            }),
            ("bitRate", .number(measuredBitRate)), ("bytesIn", .number(bytesIn)), ("packets", .number(packets)),
            ("audioSeconds", .double((audioSeconds * 1000).rounded() / 1000)), ("resyncs", .number(resyncs)),
            ("skippedBytes", .number(skippedBytes)), ("decodeErrors", .number(decodeErrors)),
        ]
    }
}
