/// A channel layout named by Core Audio's layout tag.
public struct AudioChannelLayout: Equatable, Sendable {
    /// Core Audio's AudioChannelLayoutTag: the layout family in the high 16 bits, the channel count in the low 16.
    public var tag: UInt32

    public init(tag: UInt32) {
        self.tag = tag
    }

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

    /// The number of channels the tag names.
    public var channelCount: Int { Int(tag & 0xFFFF) }
}
