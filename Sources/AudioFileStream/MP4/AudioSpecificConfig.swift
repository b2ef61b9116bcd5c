/// The start of an MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1), as an MP4 `esds` carries it: enough
/// to state the DataFormat. Explicitly signalled SBR (object type 5) and PS (29) give HE-AAC at the extension's
/// rate, 2048 frames a packet, as Core Audio describes it; otherwise the core rate and 1024 frames, or 960 when
/// the GASpecificConfig's frameLengthFlag says so.
struct AudioSpecificConfig: Equatable {
    /// ISO/IEC 14496-3 Table 1.1 (2 is AAC LC; 5 SBR and 29 PS when signalled explicitly), the DataFormat's flags.
    let audioObjectType: Int
    /// The core rate, or the extension's for HE-AAC.
    let sampleRate: Int
    /// ISO/IEC 14496-3 Table 1.19; 0 when a program config element gives the channels.
    let channelConfiguration: Int
    /// 1024 or 960, doubled for HE-AAC.
    let framesPerPacket: Int

    init?(_ bytes: UnsafeRawBufferPointer) {
        var bits = BitCursor(bytes)
        guard let objectType = bits.objectType(), var rate = bits.samplingRate(),
              let configuration = bits.read(4) else { return nil }
        var coreType = objectType
        let isExtended = objectType == 5 || objectType == 29
        if isExtended {
            guard let extensionRate = bits.samplingRate(), let core = bits.objectType() else { return nil }
            rate = extensionRate
            coreType = core
        }
        // GASpecificConfig's first bit, for the general audio object types (Table 1.1).
        let isGeneralAudio = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(coreType)
        let shortFrames = isGeneralAudio && bits.read(1) == 1
        guard rate > 0 else { return nil }
        audioObjectType = objectType
        sampleRate = rate
        channelConfiguration = configuration
        framesPerPacket = (shortFrames ? 960 : 1024) * (isExtended ? 2 : 1)
    }

    /// AAC, or HE-AAC (v2) when SBR (and PS) are signalled.
    var formatID: FourCharCode {
        switch audioObjectType {
        case 5: AudioFormatID.mpeg4AACHighEfficiency
        case 29: AudioFormatID.mpeg4AACHighEfficiencyV2
        default: AudioFormatID.mpeg4AAC
        }
    }

    /// The channels of the configuration (7 is 7.1), or nil for 0 and the reserved ones.
    var channelCount: Int? {
        switch channelConfiguration {
        case 1...6: channelConfiguration
        case 7: 8
        default: nil
        }
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
