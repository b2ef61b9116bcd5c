extension AudioChannelLayout {
    /// Channel masks with a Core Audio layout tag of their own, in the same channel order; other masks are
    /// given as the bitmap itself (Core Audio's channel bits are WAVE's speaker bits).
    private static let namedMasks: [UInt32: UInt32] = [
        0x4: mono.tag,
        0x3: stereo.tag,
        0x7: 113 << 16 | 3,  // MPEG_3_0_A: L R C
        0x33: 108 << 16 | 4,  // Quad: L R Ls Rs
        0x107: 115 << 16 | 4,  // MPEG_4_0_A: L R C Cs
        0x37: 117 << 16 | 5,  // MPEG_5_0_A: L R C Ls Rs
        0x3F: 121 << 16 | 6,  // MPEG_5_1_A: L R C LFE Ls Rs
    ]

    /// The layout of a WAVE_FORMAT_EXTENSIBLE channel mask: a named tag where one matches, else the bitmap. A
    /// mask that does not name one position per channel (0, as writers put when they do not know) gives the
    /// layout implied by the channel count.
    init(waveChannelMask mask: UInt32, channels: UInt32) {
        guard mask.nonzeroBitCount == channels else {
            self.init(impliedByCount: channels)
            return
        }
        if let tag = Self.namedMasks[mask] {
            self.init(tag: tag)
        } else {
            self.init(tag: Self.useChannelBitmap, channelBitmap: mask)
        }
    }

    /// The WAVE_FORMAT_EXTENSIBLE channel mask of this layout, the inverse of `init(waveChannelMask:channels:)`:
    /// the bitmap, or the mask of a named tag; 0 (positions not stated) for a layout without speaker positions.
    public var waveChannelMask: UInt32 {
        if tag == Self.useChannelBitmap { return channelBitmap }
        return Self.namedMasks.first { $0.value == tag }?.key ?? 0
    }
}
