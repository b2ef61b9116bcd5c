import AudioFileStream

/// What a writer needs to know of the packets it is given: the parser's DataFormat, MagicCookieData and
/// ChannelLayout as last announced before them.
public struct TrackFormat: Equatable, Sendable {
    public var format: AudioStreamBasicDescription
    /// The codec's setup bytes, as the parser gives them (empty when the codec has none).
    public var cookie: [UInt8]
    public var channelLayout: AudioChannelLayout?

    public init(format: AudioStreamBasicDescription, cookie: [UInt8] = [], channelLayout: AudioChannelLayout? = nil) {
        self.format = format
        self.cookie = cookie
        self.channelLayout = channelLayout
    }
}
