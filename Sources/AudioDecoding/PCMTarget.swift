/// The PCM a consumer wants: an encoding, and optionally a fixed rate and channel count that the stream's own
/// are converted to (a player then gets one steady format however the station changes).
public struct PCMTarget: Hashable, Sendable, CustomStringConvertible {
    public var sampleFormat: PCMSampleFormat
    /// The rate wanted, or nil for the stream's own.
    public var sampleRate: Int?
    /// The channel count wanted, or nil for the stream's own.
    public var channels: Int?

    /// The rates a target may ask for.
    public static let sampleRates = 8_000...192_000
    /// The channel counts a target may ask for: mono or stereo.
    public static let channelCounts = 1...2

    public init(sampleFormat: PCMSampleFormat, sampleRate: Int? = nil, channels: Int? = nil) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Whether the stream's PCM goes through a resampler for this target: a rate or channel count is fixed.
    public var converts: Bool { sampleRate != nil || channels != nil }

    /// The format of this target's PCM when the decoder's is `format`.
    public func output(for format: PCMFormat) -> PCMFormat {
        PCMFormat(sampleRate: sampleRate ?? format.sampleRate, channels: channels ?? format.channels,
                  sampleFormat: sampleFormat)
    }

    public var description: String {
        [sampleFormat.rawValue, sampleRate.map { "\($0) Hz" }, channels.map { "\($0) ch" }]
            .compactMap { $0 }.joined(separator: ", ")
    }
}
