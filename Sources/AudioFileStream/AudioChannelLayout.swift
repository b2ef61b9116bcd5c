/// A channel layout named by Core Audio's layout tag.
public struct AudioChannelLayout: Equatable, Sendable {
    /// Core Audio's AudioChannelLayoutTag: the layout family in the high 16 bits, the channel count in the low 16.
    public var tag: UInt32

    public init(tag: UInt32) {
        self.tag = tag
    }

    public static let mono = AudioChannelLayout(tag: 100 << 16 | 1)
    public static let stereo = AudioChannelLayout(tag: 101 << 16 | 2)

    /// The number of channels the tag names.
    public var channelCount: Int { Int(tag & 0xFFFF) }
}
