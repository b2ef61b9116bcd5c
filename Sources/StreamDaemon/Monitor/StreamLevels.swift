import AudioDecoding
import AudioLoudness
import AudioStreamProtocol
import Logging
import NIOCore

/// A monitored stream's sound as it goes on the air, measured on the PCM its pipeline decodes (once, for this
/// and PCM subscribers together): its loudness figures, published as metrics, in `status` and as `levels` events
/// (at most ten a second), and the silence of the source on the air, told to `onSilence`.
///
/// Starts again at each source that takes the air: integrated loudness is per source. Confined to the stream's
/// loop, as the pipeline that feeds it.
final class StreamLevels {
    let config: MonitorConfig
    private let levels: LiveLevels
    private let metrics: LevelMetrics
    private let logger: Logger
    private let allocator = ByteBufferAllocator()
    /// What the meter read last, since the source on the air took it.
    private var reading: LevelReading?
    /// When the last `levels` event went out.
    private var lastEvent: NIODeadline?
    /// Whether the meter refused the PCM's layout, said once per source.
    private var refusedLayout = false
    /// Told when the source on the air falls silent or has sound again (set by the stream's source switch).
    var onSilence: ((SilenceWatch.Change) -> Void)?

    /// The least time between two `levels` events.
    static let eventInterval = TimeAmount.milliseconds(100)

    init(config: MonitorConfig, stream: String, logger: Logger) {
        self.config = config
        levels = LiveLevels(rule: config.silence)
        metrics = LevelMetrics(stream: stream, loudness: config.loudness)
        self.logger = logger
    }

    /// Whether the source on the air is judged silent.
    var isSilent: Bool { levels.isSilent }

    /// Measures decoded `pcm` (32-bit float); `send` takes the `levels` events it brings.
    func measure(_ pcm: PCMBuffer, send: (HubMessage) -> Void) {
        let samples = pcm.bytes.assumingMemoryBound(to: Float.self)
        do {
            try levels.add(samples, channels: pcm.format.channels, sampleRate: pcm.format.sampleRate) { report in
                take(report, send: send)
            }
        } catch {
            guard !refusedLayout else { return }
            refusedLayout = true
            logger.warning("sound not measured: \(error)")
        }
    }

    /// The stream ends: its last figures go out once more, with loudness.
    func finish(send: (HubMessage) -> Void) {
        if config.loudness, let reading { sendEvent(reading, send: send) }
    }

    /// Another source takes the air: what was measured of the last one is forgotten.
    func restart() {
        levels.restart()
        reading = nil
        refusedLayout = false
    }

    /// Takes the source on the air as `silent`, or not, as its switch judged it: see `LiveLevels.assume(silent:)`.
    func assume(silent: Bool) {
        levels.assume(silent: silent)
    }

    /// Seconds of a source's audio that became silence, wherever it was judged.
    func noteSilence(seconds: Double) {
        if seconds > 0 { metrics.silenceSeconds.increment(by: seconds) }
    }

    /// The stream's part of `audiostream status`: the figures, with loudness.
    var status: [(String, JSON)] {
        guard config.loudness else { return [] }
        return [("loudness", .optional(reading) { .object($0.figures(silent: isSilent)) })]
    }

    /// What the meter read last, with loudness; nil before any, or without.
    var loudness: LevelReading? { config.loudness ? reading : nil }

    func destroy() {
        metrics.destroy()
    }

    private func take(_ report: LiveLevels.Report, send: (HubMessage) -> Void) {
        noteSilence(seconds: report.silentSeconds)
        if let change = report.change { onSilence?(change) }
        guard config.loudness else { return }
        reading = report.reading
        metrics.record(report.reading)
        if let lastEvent, .now() - lastEvent < Self.eventInterval { return }
        sendEvent(report.reading, send: send)
    }

    private func sendEvent(_ reading: LevelReading, send: (HubMessage) -> Void) {
        lastEvent = .now()
        let json = EventJSON.levels(reading.figures(silent: isSilent))
        send(.levels(WireEncoding.message(.event, json: json, allocator: allocator)))
    }
}

extension LevelReading {
    /// The figures of a `levels` event and of `status`.
    func figures(silent: Bool) -> [(String, JSON)] {
        [
            ("momentary", .level(momentary)), ("shortTerm", .level(shortTerm)), ("integrated", .level(integrated)),
            ("range", .level(range)), ("truePeak", .array(truePeaks.map(JSON.level))), ("silent", .bool(silent)),
        ]
    }
}
