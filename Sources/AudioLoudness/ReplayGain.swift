/// ReplayGain 2.0: the gain that brings a track or an album to -18 LUFS, as loudgain and rsgain compute it from
/// EBU R128 loudness, and the R128 gains of Opus (RFC 7845 §5.2.1).
public enum ReplayGain {
    /// The loudness ReplayGain 2.0 brings everything to, in LUFS.
    public static let reference = -18.0
    /// The loudness Opus's R128 gains bring a track to, in LUFS (EBU R128's target).
    public static let r128Reference = -23.0

    /// The gain, in dB, that brings `loudness` (LUFS) to the reference.
    public static func gain(loudness: Double) -> Double {
        reference - loudness
    }

    /// The gain that brings `loudness` to -23 LUFS in Q7.8 (256ths of a dB), as an Opus `R128_TRACK_GAIN` or
    /// `R128_ALBUM_GAIN` states it: relative to the header's output gain, which `loudness` was measured with.
    public static func r128Gain(loudness: Double) -> Int {
        Int(max(-32768, min(32767, ((r128Reference - loudness) * 256).rounded())))
    }
}
