/// The properties one MPEG audio frame header determines.
struct MPEGStreamFormat {
    let fileType: AudioFileType
    let dataFormat: AudioStreamBasicDescription
    let channelLayout: AudioChannelLayout
    /// The header's bit rate; a Xing/VBRI segment's average replaces it for VBR streams.
    var bitRate: UInt32
    let packetSizeUpperBound: UInt32
    /// Layer III frames borrow bits from earlier frames (the bit reservoir), so not every packet is a sync point.
    let restrictsRandomAccess: Bool

    init(header: MPEGFrameHeader, frameLength: Int) {
        let (fileType, formatID): (AudioFileType, FourCharCode) = switch header.layer {
        case 1: (.mp1, AudioFormatID.mpegLayer1)
        case 2: (.mp2, AudioFormatID.mpegLayer2)
        default: (.mp3, AudioFormatID.mpegLayer3)
        }
        self.fileType = fileType
        dataFormat = AudioStreamBasicDescription(
            sampleRate: Double(header.sampleRate), formatID: formatID,
            framesPerPacket: UInt32(header.samplesPerFrame), channelsPerFrame: UInt32(header.channelCount))
        channelLayout = header.channelCount == 1 ? .mono : .stereo
        // Free format: the bit rate follows from the measured frame length.
        bitRate = UInt32(header.bitRate
            ?? (frameLength - (header.hasPadding ? header.slotSize : 0)) * 8 * header.sampleRate / header.samplesPerFrame)
        packetSizeUpperBound = UInt32(header.maximumFrameLength)
        restrictsRandomAccess = header.layer == 3
    }

    /// Announces every property; unchanged ones stay silent.
    func announce(to output: ParserOutput) {
        output.announce(.fileFormat, .fileType(fileType))
        output.announce(.dataFormat, .format(dataFormat))
        output.announce(.formatList, .formatList([AudioFormatListItem(format: dataFormat, channelLayoutTag: channelLayout.tag)]))
        output.announce(.channelLayout, .channelLayout(channelLayout))
        output.announce(.restrictsRandomAccess, .uint32(restrictsRandomAccess ? 1 : 0))
        output.announce(.packetSizeUpperBound, .uint32(packetSizeUpperBound))
        output.announce(.bitRate, .uint32(bitRate))
    }
}
