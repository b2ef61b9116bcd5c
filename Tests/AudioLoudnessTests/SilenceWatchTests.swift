import AudioLoudness
import Testing

/// The silence rule's judgements, level by level: a tenth of a second at a time, as the live meter reads.
@Suite struct SilenceWatchTests {
    static let rule = SilenceRule(below: -50, after: 1, back: 0.5)

    /// Feeds `steps` (level, tenths of a second) and gives what each tenth brought.
    static func judge(_ steps: [(level: Double, tenths: Int)]) -> [(change: SilenceWatch.Change?, silent: Double)] {
        var watch = SilenceWatch(rule: rule)
        return steps.flatMap { step in
            (0..<step.tenths).map { _ in
                let result = watch.note(level: step.level, seconds: 0.1)
                return (result.change, result.silentSeconds)
            }
        }
    }

    @Test func quietForTheWholeDelayIsSilent() {
        let results = Self.judge([(-20, 5), (-70, 10), (-70, 3)])
        #expect(results.indices.filter { results[$0].change != nil } == [14])
        #expect(results[14].change == .silent)
        // The tenths that made the judgement count as silence when it comes, and each one after it.
        #expect(abs(results.map(\.silent).reduce(0, +) - 1.3) < 1e-9)
    }

    @Test func soundWithinTheDelayStartsItAgain() {
        let results = Self.judge([(-70, 9), (-40, 1), (-70, 9)])
        #expect(results.allSatisfy { $0.change == nil && $0.silent == 0 })
    }

    @Test func silenceEndsAfterSoundForItsOwnDelay() {
        let results = Self.judge([(-70, 10), (-30, 4), (-70, 1), (-30, 5)])
        #expect(results.compactMap(\.change) == [.silent, .sounding])
        #expect(results.lastIndex { $0.change == .sounding } == 19)
    }

    /// Digital silence reads -infinity: below any level.
    @Test func digitalSilenceIsQuiet() {
        #expect(Self.judge([(-.infinity, 10)]).last?.change == .silent)
    }

    /// The level itself is not quiet: only what is under it.
    @Test func theLevelItselfIsSound() {
        #expect(Self.judge([(-50, 20)]).allSatisfy { $0.change == nil })
    }
}
