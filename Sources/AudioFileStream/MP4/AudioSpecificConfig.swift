/// The start of an MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1), as an MP4 `esds` carries it: enough
/// to state the DataFormat and FormatList. HE-AAC's SBR and HE-AACv2's PS are found when signalled explicitly,
/// either way §1.6.6 allows: hierarchically (object type 5 or 29 first, then the core's) or backward-compatibly
/// (the core's config, then sync extension 0x2b7 with SBR's object type and rate, and 0x548 for PS). Implicit
/// signalling (SBR data only inside the frames) cannot be seen here.
struct AudioSpecificConfig: Equatable {
    /// The core's object type (ISO/IEC 14496-3 Table 1.1; 2 is AAC LC), the DataFormat's flags.
    let audioObjectType: Int
    /// The core's rate: the DataFormat's, as Core Audio states HE-AAC's (QA1639).
    let sampleRate: Int
    /// ISO/IEC 14496-3 Table 1.19; 0 when a program config element gives the channels.
    let channelConfiguration: Int
    /// The core's frames a packet: 1024, or 960 when the GASpecificConfig's frameLengthFlag says so.
    let framesPerPacket: Int
    /// The rate SBR outputs when it is signalled (HE-AAC), else nil.
    let sbrSampleRate: Int?
    /// Whether PS is signalled (HE-AACv2): a mono core decoded to stereo.
    let hasParametricStereo: Bool

    private static let sbrObjectType = 5
    private static let psObjectType = 29
    private static let sbrSyncExtension = 0x2B7
    private static let psSyncExtension = 0x548

    init?(_ bytes: UnsafeRawBufferPointer) {
        var bits = BitCursor(bytes)
        guard let objectType = bits.objectType(), let rate = bits.samplingRate(),
              let configuration = bits.read(4) else { return nil }
        var coreType = objectType
        var extensionRate: Int?
        let isHierarchical = objectType == Self.sbrObjectType || objectType == Self.psObjectType
        if isHierarchical {
            guard let sbrRate = bits.samplingRate(), let core = bits.objectType() else { return nil }
            extensionRate = sbrRate
            coreType = core
        }
        // GASpecificConfig (§4.4.1) of the general audio object types (Table 1.1): frameLengthFlag,
        // dependsOnCoreCoder (then a 14-bit delay), extensionFlag.
        let isGeneralAudio = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(coreType)
        let shortFrames = isGeneralAudio && bits.read(1) == 1
        guard rate > 0 else { return nil }
        var hasPS = objectType == Self.psObjectType
        // The sync extensions follow only a GASpecificConfig whose length is known: plain AAC object types
        // (1 to 4) without a program config element.
        if !isHierarchical, (1...4).contains(coreType), configuration != 0,
           let dependsOnCore = bits.read(1), dependsOnCore == 0 || bits.read(14) != nil, bits.read(1) == 0,
           bits.read(11) == Self.sbrSyncExtension, bits.objectType() == Self.sbrObjectType, bits.read(1) == 1 {
            extensionRate = bits.samplingRate()
            hasPS = bits.read(11) == Self.psSyncExtension && bits.read(1) == 1
        }
        audioObjectType = coreType
        sampleRate = rate
        channelConfiguration = configuration
        framesPerPacket = shortFrames ? 960 : 1024
        sbrSampleRate = extensionRate.flatMap { $0 > 0 ? $0 : nil }
        hasParametricStereo = hasPS && sbrSampleRate != nil
    }

    /// The channels of the configuration (7 is 7.1), or nil for 0 and the reserved ones.
    var channelCount: Int? {
        switch channelConfiguration {
        case 1...6: channelConfiguration
        case 7: 8
        default: nil
        }
    }

    /// The DataFormat of a stream with this config and `channels`: its core AAC layer, as Core Audio states
    /// HE-AAC too (QA1639).
    func dataFormat(channels: Int) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(sampleRate: Double(sampleRate), formatID: AudioFormatID.mpeg4AAC,
                                    formatFlags: UInt32(audioObjectType), framesPerPacket: UInt32(framesPerPacket),
                                    channelsPerFrame: UInt32(channels))
    }

    /// The FormatList's items before the core's DataFormat, richest first, as Core Audio lists layered AAC:
    /// HE-AACv2 ('aacp', stereo) when PS is signalled, then HE-AAC ('aach') at SBR's rate with twice the frames
    /// when SBR is; none for plain AAC. `layoutTag` is the core's channel layout.
    func extensionLayers(channels: Int, layoutTag: UInt32) -> [AudioFormatListItem] {
        guard let sbrSampleRate else { return [] }
        func layer(_ formatID: FourCharCode, objectType: Int, channels: Int, layoutTag: UInt32) -> AudioFormatListItem {
            AudioFormatListItem(format: AudioStreamBasicDescription(
                sampleRate: Double(sbrSampleRate), formatID: formatID, formatFlags: UInt32(objectType),
                framesPerPacket: UInt32(2 * framesPerPacket), channelsPerFrame: UInt32(channels)),
                channelLayoutTag: layoutTag)
        }
        let sbr = layer(AudioFormatID.mpeg4AACHighEfficiency, objectType: Self.sbrObjectType, channels: channels,
                        layoutTag: layoutTag)
        guard hasParametricStereo else { return [sbr] }
        return [layer(AudioFormatID.mpeg4AACHighEfficiencyV2, objectType: Self.psObjectType, channels: 2,
                      layoutTag: AudioChannelLayout.stereo.tag), sbr]
    }
}

/// Reads bits most significant first, as MPEG-4 audio writes them.
private struct BitCursor {
    private let bytes: UnsafeRawBufferPointer
    private var bit = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next `count` (at most 24) bits, or nil past the end.
    mutating func read(_ count: Int) -> Int? {
        guard bit + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
            bit += 1
        }
        return value
    }

    /// GetAudioObjectType(): 5 bits, 31 escaping to 32 plus 6 more.
    mutating func objectType() -> Int? {
        guard let type = read(5) else { return nil }
        return type == 31 ? read(6).map { 32 + $0 } : type
    }

    /// samplingFrequencyIndex and, for index 15, the 24-bit rate itself; 0 for the reserved indices.
    mutating func samplingRate() -> Int? {
        guard let index = read(4) else { return nil }
        if index == 15 { return read(24) }
        return index < ADTSFrameHeader.sampleRates.count ? ADTSFrameHeader.sampleRates[index] : 0
    }
}
