import AudioLoudness

/// What a stream's sound is measured for, on the side, without touching what it sends: its loudness (EBU R128),
/// and silence that counts as dead air. The stream is decoded for it only while either is asked for.
public struct MonitorConfig: Equatable, Sendable {
    /// Whether the loudness figures are published (metrics, `status`, `levels` events).
    public var loudness: Bool
    /// When the source on the air counts as silent, if silence is watched.
    public var silence: SilenceRule?

    public init(loudness: Bool = false, silence: SilenceRule? = nil) {
        self.loudness = loudness
        self.silence = silence
    }

    /// Whether anything is measured: the stream is decoded for it.
    public var isActive: Bool { loudness || silence != nil }
}
