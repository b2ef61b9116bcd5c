/// The start of an AC-3 (ATSC A/52 §5.3, §5.4) or E-AC-3 (A/52 Annex E, §E.1.2) syncframe, decoded from its
/// first 7 bytes: the sync word 0x0B77, then a bit stream information whose bsid tells the two syntaxes apart.
///
/// Only what a parser can frame is a header: bsid 9, 10 and above 16, a reserved sample rate or frame size
/// code, a reserved E-AC-3 stream type, and a frame shorter than this header are refused, so junk is skipped.
public struct AC3FrameHeader: Equatable, Sendable, SyncFrameHeader {
    /// E-AC-3's strmtyp (A/52 Table E.1.1); every AC-3 frame is independent.
    public enum StreamType: Int, Sendable {
        /// A programme of its own, or its core when dependent substreams follow.
        case independent = 0
        /// Extra channels or a replacement for the independent substream before it: decoded with it.
        case dependent = 1
        /// An independent frame converted from AC-3.
        case converted = 2
    }

    /// Bytes read: through AC-3's lfeon, which the acmod-dependent mix level fields can push into byte 6.
    static let length = 7

    /// bsid: 0…8 is AC-3, 11…16 E-AC-3.
    public let bitstreamID: Int
    public let streamType: StreamType
    /// substreamid: which independent programme, or which dependent substream of it (E-AC-3 only).
    public let substreamID: Int
    public let sampleRate: Int
    /// The whole syncframe's bytes, header included.
    public let frameLength: Int
    /// Audio blocks of 256 samples: always 6 in AC-3; 1, 2, 3 or 6 in E-AC-3.
    public let blocks: Int
    /// acmod (A/52 Table 5.8): which full-bandwidth channels are coded, and in what order.
    public let audioCodingMode: Int
    /// lfeon: a low-frequency effects channel follows the full-bandwidth ones.
    public let hasLFE: Bool
    /// AC-3's nominal bit rate from its frame size code; for E-AC-3, the rate its frame size and blocks imply.
    public let bitRate: Int

    public init?(bytes: UnsafeRawBufferPointer, at position: Int) {
        guard position + Self.length <= bytes.count, bytes.bigEndianUInt16(at: position) == 0x0B77 else {
            return nil
        }
        bitstreamID = Int(bytes[position + 5] >> 3)
        switch bitstreamID {
        case 0...8:
            // syncinfo: crc1 (16), fscod (2), frmsizecod (6); bsi: bsid (5), bsmod (3), acmod (3), then the mix
            // levels acmod calls for, then lfeon.
            let rateCode = Int(bytes[position + 4] >> 6), sizeCode = Int(bytes[position + 4] & 0x3F)
            guard rateCode < 3, sizeCode < 2 * Self.bitRates.count else { return nil }
            streamType = .independent
            substreamID = 0
            sampleRate = Self.sampleRates[rateCode]
            frameLength = 2 * Self.wordsPerSyncframe(sizeCode: sizeCode, sampleRate: sampleRate)
            bitRate = Self.bitRates[sizeCode / 2] * 1000
            blocks = 6
            audioCodingMode = Int(bytes[position + 6] >> 5)
            hasLFE = bytes[position + 6] >> (4 - Self.mixLevelBits(audioCodingMode: audioCodingMode)) & 1 == 1
        case 11...16:
            // strmtyp (2), substreamid (3), frmsiz (11), fscod (2), fscod2 or numblkscod (2), acmod (3), lfeon (1).
            guard let type = StreamType(rawValue: Int(bytes[position + 2] >> 6)) else { return nil }
            streamType = type
            substreamID = Int(bytes[position + 2] >> 3 & 0x07)
            frameLength = 2 * ((Int(bytes[position + 2] & 0x07) << 8 | Int(bytes[position + 3])) + 1)
            let rateCode = Int(bytes[position + 4] >> 6), nextCode = Int(bytes[position + 4] >> 4 & 0x03)
            if rateCode < 3 {
                sampleRate = Self.sampleRates[rateCode]
                blocks = Self.enhancedBlocks[nextCode]
            } else {
                // Reduced sample rates (Table E.1.3) come with six blocks a frame.
                guard nextCode < 3 else { return nil }
                sampleRate = Self.sampleRates[nextCode] / 2
                blocks = 6
            }
            audioCodingMode = Int(bytes[position + 4] >> 1 & 0x07)
            hasLFE = bytes[position + 4] & 0x01 == 1
            bitRate = frameLength * 8 * sampleRate / (256 * blocks)
            guard frameLength >= Self.length else { return nil }
        default:
            return nil
        }
    }

    /// True for E-AC-3 (bsid 11…16), false for AC-3.
    public var isEnhanced: Bool { bitstreamID > 10 }
    /// PCM frames the syncframe decodes to.
    public var framesPerPacket: Int { 256 * blocks }
    /// The full-bandwidth channels of the coding mode, plus LFE.
    public var channelCount: Int { Self.fullBandwidthChannels[audioCodingMode] + (hasLFE ? 1 : 0) }


    /// The largest syncframe of the syntax: AC-3's 640 kbit/s at 32 kHz, E-AC-3's 2048 words.
    var maximumFrameLength: Int { isEnhanced ? 2 * 2048 : 2 * Self.wordsPerSyncframe(sizeCode: 37, sampleRate: 32000) }

    /// True when `other` continues the same stream: the same syntax, rate and channels.
    func isCompatible(with other: AC3FrameHeader) -> Bool {
        isEnhanced == other.isEnhanced && sampleRate == other.sampleRate
            && audioCodingMode == other.audioCodingMode && hasLFE == other.hasLFE
    }

    /// fscod 0…2 (A/52 Table 5.6); E-AC-3's fscod2 halves them.
    static let sampleRates = [48000, 44100, 32000]
    /// numblkscod 0…3 (Table E.1.4).
    private static let enhancedBlocks = [1, 2, 3, 6]
    /// nfchans by acmod (Table 5.8): 1+1, 1/0, 2/0, 3/0, 2/1, 3/1, 2/2, 3/2.
    private static let fullBandwidthChannels = [2, 1, 2, 3, 3, 4, 4, 5]
    /// kbit/s of frmsizecod 0…37 (Table 5.18), two codes a rate.
    static let bitRates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640]

    /// Table 5.18: a syncframe carries 1536 samples, so its 16-bit words are kbit/s × 1536 / rate / 16. At 32 and
    /// 48 kHz that is exact; at 44.1 kHz it is rounded down and the odd code of the pair adds a word.
    static func wordsPerSyncframe(sizeCode: Int, sampleRate: Int) -> Int {
        let words = bitRates[sizeCode / 2] * 1000 * 1536 / (sampleRate * 16)
        return sampleRate == 44100 ? words + sizeCode % 2 : words
    }

    /// Bits between acmod and lfeon (§5.4.2.4–5.4.2.6): cmixlev when there are three front channels, surmixlev
    /// when there is a surround channel, dsurmod in 2/0.
    private static func mixLevelBits(audioCodingMode mode: Int) -> Int {
        (mode & 1 != 0 && mode != 1 ? 2 : 0) + (mode & 4 != 0 ? 2 : 0) + (mode == 2 ? 2 : 0)
    }
}
