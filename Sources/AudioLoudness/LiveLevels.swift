import Foundation

/// A live source's levels, read every tenth of a second of its audio: its loudness figures, and its silence as
/// `SilenceRule` judges it by the momentary loudness (400 ms, so that silence shows within half a second).
///
/// Its meter is bounded (a histogram, fixed memory for a source that plays for months) and starts again when the
/// PCM's layout changes, or on `restart()`. Not for sharing between threads.
public final class LiveLevels {
    /// Seconds of audio between readings.
    public static let interval = 0.1

    /// What a tenth of a second of audio brought.
    public struct Report {
        public let reading: LevelReading
        /// The silence judgement this tenth completed, if any.
        public let change: SilenceWatch.Change?
        /// Seconds of audio that became silence with this tenth.
        public let silentSeconds: Double
    }

    private let rule: SilenceRule?
    private var watch: SilenceWatch?
    private var meter: LoudnessMeter?
    /// Frames added since the last reading.
    private var framesSinceReading = 0

    /// Levels judged by `rule`, when silence is watched.
    public init(rule: SilenceRule?) {
        self.rule = rule
        watch = rule.map { SilenceWatch(rule: $0) }
    }

    /// Whether the source is judged silent now.
    public var isSilent: Bool { watch?.isSilent ?? false }

    /// Forgets everything measured: a new source begins, not silent so far.
    public func restart() {
        meter = nil
        watch = rule.map { SilenceWatch(rule: $0) }
        framesSinceReading = 0
    }

    /// Takes the source as `silent` from now on, or not, as judged elsewhere (a source that must show its sound to
    /// be heard again); a judgement under way starts again when this changes it.
    public func assume(silent: Bool) {
        guard let rule, watch?.isSilent != silent else { return }
        watch = SilenceWatch(rule: rule, silent: silent)
    }

    /// Adds interleaved samples of `channels` at `sampleRate`, handing `report` a report for each tenth of a second
    /// they complete.
    /// - Throws: `LoudnessError.unsupported` for a layout the meter does not measure; the samples are left out.
    public func add(_ samples: UnsafeBufferPointer<Float>, channels: Int, sampleRate: Int,
                    report: (Report) -> Void) throws(LoudnessError) {
        let meter = try meter(channels: channels, sampleRate: sampleRate)
        let frames = samples.count / channels
        let framesPerReading = max(1, Int((Double(sampleRate) * Self.interval).rounded()))
        var start = 0
        while start < frames {
            let count = min(frames - start, framesPerReading - framesSinceReading)
            meter.add(UnsafeBufferPointer(rebasing: samples[(start * channels)..<((start + count) * channels)]))
            start += count
            framesSinceReading += count
            guard framesSinceReading == framesPerReading else { continue }
            framesSinceReading = 0
            let reading = LevelReading(meter)
            let seconds = Double(framesPerReading) / Double(sampleRate)
            let judged = watch?.note(level: reading.momentary, seconds: seconds) ?? (change: nil, silentSeconds: 0)
            report(Report(reading: reading, change: judged.change, silentSeconds: judged.silentSeconds))
        }
    }

    private func meter(channels: Int, sampleRate: Int) throws(LoudnessError) -> LoudnessMeter {
        if let meter, meter.channels == channels, meter.sampleRate == sampleRate { return meter }
        let meter = try LoudnessMeter(channels: channels, sampleRate: sampleRate, bounded: true)
        self.meter = meter
        framesSinceReading = 0
        return meter
    }
}

/// A meter's figures at one moment.
public struct LevelReading: Equatable, Sendable {
    /// Loudness of the last 400 ms and the last 3 s, in LUFS; -infinity in silence.
    public let momentary: Double
    public let shortTerm: Double
    /// Gated loudness since the meter began, in LUFS; -infinity before a gating block was loud enough.
    public let integrated: Double
    /// Loudness range since the meter began, in LU.
    public let range: Double
    /// Each channel's true peak since the meter began, in dBTP; -infinity for a channel of zeros.
    public let truePeaks: [Double]

    public init(momentary: Double, shortTerm: Double, integrated: Double, range: Double, truePeaks: [Double]) {
        self.momentary = momentary
        self.shortTerm = shortTerm
        self.integrated = integrated
        self.range = range
        self.truePeaks = truePeaks
    }

    /// What `meter` reads now.
    public init(_ meter: LoudnessMeter) {
        self.init(momentary: meter.momentary, shortTerm: meter.shortTerm, integrated: meter.integrated,
                  range: meter.range,
                  truePeaks: (0..<meter.channels).map { 20 * log10(meter.truePeak(channel: $0)) })
    }
}
