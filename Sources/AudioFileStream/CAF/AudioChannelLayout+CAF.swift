extension AudioChannelLayout {
    /// Bytes of a CAF `chan` body read: the layout tag, the channel bitmap and the count of channel descriptions
    /// that follow (Core Audio's AudioChannelLayout, stored as is).
    static let cafHeaderLength = 12

    /// The layout a CAF `chan` chunk names by its tag, whose channel count must be `channels`; nil for a layout
    /// given by a bitmap or by channel descriptions (kAudioChannelLayoutTag_UseChannelBitmap and
    /// _UseChannelDescriptions), which this model, a layout tag, does not hold.
    init?(caf bytes: UnsafeRawBufferPointer, channels: UInt32) {
        let tag = bytes.bigEndianUInt32(at: 0)
        let layout = AudioChannelLayout(tag: tag)
        guard tag >> 16 >= 100, layout.channelCount == Int(channels) else { return nil }
        self = layout
    }
}
