/// A channel layout named by Core Audio's layout tag, or by a bitmap of speaker positions.
public struct AudioChannelLayout: Equatable, Sendable {
    /// Core Audio's AudioChannelLayoutTag: the layout family in the high 16 bits, the channel count in the low 16.
    public var tag: UInt32
    /// Core Audio's AudioChannelBitmap, one bit per speaker position in WAVE's channel mask order (left, right,
    /// centre, LFE, left surround, …); used only with `useChannelBitmap`, 0 otherwise.
    public var channelBitmap: UInt32

    public init(tag: UInt32, channelBitmap: UInt32 = 0) {
        self.tag = tag
        self.channelBitmap = channelBitmap
    }

    /// kAudioChannelLayoutTag_UseChannelBitmap: the channels are the bitmap's positions, in bit order.
    public static let useChannelBitmap: UInt32 = 1 << 16

    public static let mono = AudioChannelLayout(tag: 100 << 16 | 1)
    public static let stereo = AudioChannelLayout(tag: 101 << 16 | 2)

    /// The layout of an MPEG-4 channel configuration (ISO/IEC 14496-3 Table 1.19), as Core Audio's
    /// kAudioChannelLayoutTag_AAC_* tags name them: centre first, then the fronts, the surrounds and LFE.
    init(aacChannelConfiguration configuration: Int) {
        switch configuration {
        case 1: self = .mono
        case 2: self = .stereo
        case 3: self.init(tag: 114 << 16 | 3)  // AAC_3_0 (MPEG_3_0_B)
        case 4: self.init(tag: 116 << 16 | 4)  // AAC_4_0 (MPEG_4_0_B)
        case 5: self.init(tag: 120 << 16 | 5)  // AAC_5_0 (MPEG_5_0_D)
        case 6: self.init(tag: 124 << 16 | 6)  // AAC_5_1 (MPEG_5_1_D)
        default: self.init(tag: 127 << 16 | 8)  // AAC_7_1 (MPEG_7_1_B)
        }
    }

    /// The layout a container implies by its channel count alone (WAVE without a channel mask, AIFF): mono,
    /// stereo, or kAudioChannelLayoutTag_DiscreteInOrder, channels without positions.
    init(impliedByCount channels: UInt32) {
        switch channels {
        case 1: self = .mono
        case 2: self = .stereo
        default: self.init(tag: 147 << 16 | channels)
        }
    }

    /// The number of channels the tag, or its bitmap, names.
    public var channelCount: Int {
        tag == Self.useChannelBitmap ? channelBitmap.nonzeroBitCount : Int(tag & 0xFFFF)
    }
}
