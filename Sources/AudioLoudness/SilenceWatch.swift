/// When a source counts as dead air: quieter than `below` for `after` seconds of its audio; and when it has sound
/// again: louder for `back` seconds.
public struct SilenceRule: Equatable, Sendable {
    /// The level, in LUFS (K-weighted dB of full scale), under which audio counts as silence.
    public var below: Double
    /// Seconds of silence before the source is silent.
    public var after: Double
    /// Seconds of sound before a silent source has sound again.
    public var back: Double

    public init(below: Double = -50, after: Double = 10, back: Double = 2) {
        self.below = below
        self.after = after
        self.back = back
    }
}

/// Judges a source by its levels as they come, in order, by `SilenceRule`: pure, so its every step is tested
/// without audio.
public struct SilenceWatch: Sendable {
    public enum Change: Equatable, Sendable {
        /// Quieter than the rule's level for its `after` seconds.
        case silent
        /// Louder again for the rule's `back` seconds.
        case sounding
    }

    public let rule: SilenceRule
    /// Whether the source is judged silent now.
    public private(set) var isSilent = false
    /// Seconds in a row on the other side of the level than the judgement, so far.
    private var against = 0.0

    /// A watch by `rule` of a source judged `silent` or not so far.
    public init(rule: SilenceRule, silent: Bool = false) {
        self.rule = rule
        isSilent = silent
    }

    /// Takes the level of the source's next `seconds` of audio.
    /// - Returns: the change, when these seconds complete one; and the seconds of audio that became silence by
    ///   them: on the change to silent, the quiet seconds that made it.
    public mutating func note(level: Double, seconds: Double) -> (change: Change?, silentSeconds: Double) {
        let quiet = !(level >= rule.below)
        guard quiet != isSilent else {
            against = 0
            return (nil, isSilent ? seconds : 0)
        }
        against += seconds
        guard against >= (isSilent ? rule.back : rule.after) - 1e-9 else { return (nil, 0) }
        defer { against = 0 }
        isSilent.toggle()
        return isSilent ? (.silent, against) : (.sounding, 0)
    }
}
