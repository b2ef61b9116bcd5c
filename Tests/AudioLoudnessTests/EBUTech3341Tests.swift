import AudioLoudness
import Foundation
import Testing

/// The meter on the test signals of EBU Tech 3341 (loudness metering, "minimum requirements" cases 1–5) and EBU
/// Tech 3342 (loudness range, cases 1–4), synthesised here from the specs' tables: stereo 1 kHz sines at 48 kHz
/// whose peak is the stated level in dBFS, one after another, with the figures the specs require and their
/// tolerances (±0.1 LU; loudness range ±1 LU).
@Suite struct EBUTech3341Tests {
    static let rate = 48000

    /// Feeds `parts` (level in dBFS, seconds) as one continuous 1 kHz sine on both channels of a new meter.
    static func measure(_ parts: [(dBFS: Double, seconds: Double)]) throws -> LoudnessMeter {
        let meter = try LoudnessMeter(channels: 2, sampleRate: rate)
        var frame = 0
        for part in parts {
            let amplitude = pow(10, part.dBFS / 20)
            let end = frame + Int((part.seconds * Double(rate)).rounded())
            while frame < end {
                let count = min(4800, end - frame)
                var samples = [Float](repeating: 0, count: 2 * count)
                for index in 0..<count {
                    let value = Float(amplitude * sin(2 * Double.pi * 1000 * Double(frame + index) / Double(rate)))
                    samples[2 * index] = value
                    samples[2 * index + 1] = value
                }
                samples.withUnsafeBufferPointer { meter.add($0) }
                frame += count
            }
        }
        return meter
    }

    /// Tech 3341 cases 1 and 2: a steady sine reads its level on all three time scales.
    @Test(arguments: [-23.0, -33.0])
    func aSteadySineReadsItsLevel(_ level: Double) throws {
        let meter = try Self.measure([(level, 20)])
        #expect(abs(meter.momentary - level) <= 0.1, "momentary \(meter.momentary)")
        #expect(abs(meter.shortTerm - level) <= 0.1, "short-term \(meter.shortTerm)")
        #expect(abs(meter.integrated - level) <= 0.1, "integrated \(meter.integrated)")
    }

    /// Tech 3341 cases 3–5: the gates leave out what is quiet, and every case integrates to −23 LUFS. Each step
    /// is its level in dBFS and its seconds.
    @Test(arguments: [
        [[-36.0, 10], [-23, 60], [-36, 10]],
        [[-72.0, 10], [-36, 10], [-23, 60], [-36, 10], [-72, 10]],
        [[-26.0, 20], [-20, 20.1], [-26, 20]],
    ])
    func theGatesIntegrateToMinus23(_ steps: [[Double]]) throws {
        let meter = try Self.measure(steps.map { (dBFS: $0[0], seconds: $0[1]) })
        #expect(abs(meter.integrated - -23) <= 0.1, "integrated \(meter.integrated)")
    }

    /// Tech 3342 cases 1–4: the loudness range of level steps of 20 s each, in dBFS.
    @Test(arguments: [
        ([-20.0, -30], 10.0),
        ([-20.0, -15], 5.0),
        ([-40.0, -20], 20.0),
        ([-50.0, -35, -20, -35, -50], 15.0),
    ])
    func levelStepsHaveTheirRange(_ levels: [Double], _ range: Double) throws {
        let meter = try Self.measure(levels.map { (dBFS: $0, seconds: 20) })
        #expect(abs(meter.range - range) <= 1, "range \(meter.range)")
    }

    /// A sine's true peak is its peak: Tech 3341 allows +0.2 / −0.4 dB.
    @Test func aSinesTruePeakIsItsPeak() throws {
        let meter = try Self.measure([(-23, 5)])
        for channel in 0..<2 {
            let decibels = 20 * log10(meter.truePeak(channel: channel))
            #expect(decibels <= -23 + 0.2 && decibels >= -23 - 0.4, "channel \(channel): \(decibels) dBTP")
        }
    }

    /// ITU-R BS.1770-4 weighs the surround channels 1.41 (+1.49 dB) and leaves the LFE out; in five point one
    /// as WAVE and FLAC order it, the LFE is the fourth channel and the surrounds the fifth and sixth.
    @Test func fivePointOneWeighsItsChannels() throws {
        func loudness(alone channel: Int) throws -> Double {
            let meter = try LoudnessMeter(channels: 6, sampleRate: Self.rate)
            var samples = [Float](repeating: 0, count: 6 * Self.rate * 5)
            for frame in 0..<(Self.rate * 5) {
                samples[6 * frame + channel] = Float(0.1 * sin(2 * Double.pi * 1000 * Double(frame) / Double(Self.rate)))
            }
            samples.withUnsafeBufferPointer { meter.add($0) }
            return meter.integrated
        }
        let left = try loudness(alone: 0)
        #expect(try loudness(alone: 3) == -.infinity)
        for surround in [4, 5] { #expect(abs(try loudness(alone: surround) - left - 1.49) < 0.05) }
        #expect(abs(try loudness(alone: 2) - left) < 0.05)
    }

    @Test func silenceHasNoLoudness() throws {
        let meter = try Self.measure([(-200, 5)])
        #expect(meter.integrated == -.infinity)
    }

    @Test func aRateLibebur128CannotMeasureIsRefused() {
        #expect(throws: LoudnessError.self) { _ = try LoudnessMeter(channels: 2, sampleRate: 3_000_000) }
        #expect(throws: LoudnessError.self) { _ = try LoudnessMeter(channels: 0, sampleRate: 48000) }
    }

    /// True peaks between samples, as Tech 3341's true-peak cases test them (BS.1770-4 Annex 2): a sine at a
    /// quarter, a sixth and an eighth of the rate, sampled half a step away from its crests (45°, 30° and 22.5°),
    /// reads its own peak, -6 dBTP, though its largest sample is up to 3 dB lower; and the same on the crests reads
    /// -6 too. Tolerance +0.2/-0.4 dB, on a meter bounded as the daemon's is and on an exact one.
    @Test(arguments: [(4.0, 0.0), (4.0, 45.0), (6.0, 30.0), (8.0, 22.5)], [false, true])
    func aPeakBetweenSamplesIsFound(_ signal: (divisor: Double, phase: Double), bounded: Bool) throws {
        let meter = try LoudnessMeter(channels: 2, sampleRate: Self.rate, bounded: bounded)
        let amplitude = pow(10, -6.0 / 20)
        let frequency = Double(Self.rate) / signal.divisor
        var samples = [Float](repeating: 0, count: 2 * Self.rate)
        for frame in 0..<Self.rate {
            let angle = 2 * Double.pi * frequency * Double(frame) / Double(Self.rate) + (90 - signal.phase) * .pi / 180
            // A raised-cosine fade-in over 50 ms: a sine that starts at once is not band-limited, and its onset
            // truly overshoots, by up to 0.7 dB here.
            let fade = frame < Self.rate / 20 ? (1 - cos(Double.pi * Double(frame) / Double(Self.rate / 20))) / 2 : 1
            samples[2 * frame] = Float(fade * amplitude * sin(angle))
            samples[2 * frame + 1] = samples[2 * frame]
        }
        samples.withUnsafeBufferPointer { meter.add($0) }
        for channel in 0..<2 {
            let decibels = 20 * log10(meter.truePeak(channel: channel))
            #expect(decibels <= -6 + 0.2 && decibels >= -6 - 0.4, "channel \(channel): \(decibels) dBTP")
        }
        // The samples themselves miss the crest by the phase: cos(45°) is -3 dB.
        let sampled = 20 * log10(meter.samplePeak(channel: 0))
        #expect(abs(sampled - (-6 + 20 * log10(cos(signal.phase * .pi / 180)))) < 0.01, "\(sampled) dBFS")
    }
}
