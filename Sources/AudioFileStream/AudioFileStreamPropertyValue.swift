/// The value of a property, typed as Core Audio types it.
public enum AudioFileStreamPropertyValue: Equatable, Sendable {
    /// ReadyToProducePackets, MaximumPacketSize, PacketSizeUpperBound, BitRate, RestrictsRandomAccess.
    case uint32(UInt32)
    /// AudioDataByteCount, AudioDataPacketCount.
    case uint64(UInt64)
    /// DataOffset.
    case int64(Int64)
    /// AverageBytesPerPacket.
    case float64(Double)
    /// FileFormat.
    case fileType(AudioFileType)
    /// DataFormat.
    case format(AudioStreamBasicDescription)
    /// FormatList, richest format first.
    case formatList([AudioFormatListItem])
    /// MagicCookieData.
    case data([UInt8])
    /// ChannelLayout.
    case channelLayout(AudioChannelLayout)
    /// PacketTableInfo.
    case packetTableInfo(PacketTableInfo)
    /// InfoDictionary, with Core Audio's kAFInfoDictionary key names.
    case dictionary([String: String])
}

/// One entry of the FormatList property.
public struct AudioFormatListItem: Equatable, Sendable {
    public var format: AudioStreamBasicDescription
    public var channelLayoutTag: UInt32

    public init(format: AudioStreamBasicDescription, channelLayoutTag: UInt32) {
        self.format = format
        self.channelLayoutTag = channelLayoutTag
    }
}
