/// How decoded samples are encoded: interleaved, native byte order.
public enum PCMSampleFormat: String, Sendable, CaseIterable {
    /// Signed 16-bit integers.
    case int16 = "s16"
    /// 32-bit IEEE floats in [-1, 1].
    case float32 = "f32"

    public var bytesPerSample: Int {
        switch self {
        case .int16: 2
        case .float32: 4
        }
    }
}

/// The samples a codec itself gives, which decide how ffmpeg converts them further: 16-bit output from float is
/// rounded, from wider integers truncated, and integers of 16 bits or fewer are resampled as such.
public enum CodecSamples: Sendable {
    /// Integers of 16 bits or fewer: 16-bit output holds them exactly.
    case shortInteger
    /// Integers of 17 to 32 bits.
    case wideInteger
    case float
}

/// The shape of the PCM the decoder produces.
public struct PCMFormat: Equatable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: PCMSampleFormat
    /// What the codec's own samples were, before they became `sampleFormat`.
    public var codecSamples: CodecSamples

    public init(sampleRate: Int, channels: Int, sampleFormat: PCMSampleFormat, codecSamples: CodecSamples = .float) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.codecSamples = codecSamples
    }

    /// Whether PCM of `other` is laid out as this: the same rate, channel count and encoding, whatever the
    /// codec's own samples were.
    public func isLaidOut(as other: PCMFormat) -> Bool {
        sampleRate == other.sampleRate && channels == other.channels && sampleFormat == other.sampleFormat
    }

    /// Bytes in one frame: one sample of every channel.
    public var bytesPerFrame: Int { channels * sampleFormat.bytesPerSample }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.rawValue)" }
}
