import AudioLoudness
import Foundation
import Testing

/// The live meter of a stream: a reading each tenth of a second of audio, however the PCM is cut, and silence
/// judged by the momentary loudness.
@Suite struct LiveLevelsTests {
    static let rate = 48000

    /// A stereo 1 kHz sine of peak `dBFS` (nil: digital silence), `seconds` long, starting at frame `start`.
    static func tone(_ dBFS: Double?, seconds: Double, start: Int = 0) -> [Float] {
        let frames = Int(seconds * Double(rate))
        let amplitude = dBFS.map { pow(10, $0 / 20) } ?? 0
        return (0..<frames).flatMap { index -> [Float] in
            let value = Float(amplitude * sin(2 * Double.pi * 1000 * Double(start + index) / Double(rate)))
            return [value, value]
        }
    }

    @Test func aReadingComesEachTenthOfASecondHoweverThePCMIsCut() throws {
        let levels = LiveLevels(rule: nil)
        let samples = Self.tone(-23, seconds: 1)
        var readings: [LevelReading] = []
        // Pieces of 1,000 frames: no tenth (4,800 frames) falls on a piece's end.
        for start in stride(from: 0, to: samples.count, by: 2000) {
            try samples[start..<min(start + 2000, samples.count)].withUnsafeBufferPointer {
                try levels.add($0, channels: 2, sampleRate: Self.rate) { readings.append($0.reading) }
            }
        }
        #expect(readings.count == 10)
        // Tech 3341 case 1: a -23 dBFS sine reads -23 LUFS momentary, within 0.1 LU.
        #expect(abs(readings[9].momentary - -23) <= 0.1, "\(readings[9])")
        #expect(readings[9].truePeaks.allSatisfy { $0 <= -23 + 0.2 && $0 >= -23 - 0.4 }, "\(readings[9])")
    }

    /// A source that falls silent is judged so within half a second of the rule's delay: the 400 ms window of
    /// momentary loudness empties.
    @Test func silenceIsJudgedByTheMomentaryLoudness() throws {
        let levels = LiveLevels(rule: SilenceRule(below: -50, after: 2, back: 1))
        var changes: [(SilenceWatch.Change, Int)] = []
        var tenths = 0
        func feed(_ samples: [Float]) throws {
            try samples.withUnsafeBufferPointer {
                try levels.add($0, channels: 2, sampleRate: Self.rate) { report in
                    tenths += 1
                    if let change = report.change { changes.append((change, tenths)) }
                }
            }
        }
        try feed(Self.tone(-20, seconds: 5))
        try feed(Self.tone(nil, seconds: 5))
        try feed(Self.tone(-20, seconds: 3))
        #expect(changes.map(\.0) == [.silent, .sounding])
        // Silent from tenth 51 on; judged within 2.5 s of it. Sound from tenth 101: back at its tenth tenth, 110.
        #expect(changes[0].1 > 70 && changes[0].1 <= 75, "\(changes)")
        #expect(changes[1].1 >= 110 && changes[1].1 <= 111, "\(changes)")
        #expect(levels.isSilent == false)
    }

    /// A new source starts from nothing: what the last one measured is gone.
    @Test func aRestartForgetsTheLastSource() throws {
        let levels = LiveLevels(rule: nil)
        var last: LevelReading?
        try Self.tone(-10, seconds: 1).withUnsafeBufferPointer {
            try levels.add($0, channels: 2, sampleRate: Self.rate) { last = $0.reading }
        }
        levels.restart()
        try Self.tone(-30, seconds: 5).withUnsafeBufferPointer {
            try levels.add($0, channels: 2, sampleRate: Self.rate) { last = $0.reading }
        }
        let reading = try #require(last)
        #expect(abs(reading.integrated - -30) <= 0.1, "\(reading)")
        #expect(reading.truePeaks.allSatisfy { $0 < -29 }, "\(reading)")
    }
}
