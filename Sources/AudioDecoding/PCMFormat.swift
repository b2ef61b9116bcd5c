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

/// The shape of the PCM the decoder produces.
public struct PCMFormat: Equatable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int
    public var sampleFormat: PCMSampleFormat
    /// Whether the codec's own samples are integers of 16 bits or fewer, so 16-bit output loses nothing of
    /// them; libswresample then resamples them as 16-bit integers, as ffmpeg does.
    public var isShortInteger: Bool

    public init(sampleRate: Int, channels: Int, sampleFormat: PCMSampleFormat, isShortInteger: Bool = false) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.isShortInteger = isShortInteger
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
