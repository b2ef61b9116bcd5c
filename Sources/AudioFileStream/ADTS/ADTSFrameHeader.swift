/// An AAC ADTS frame header (ISO/IEC 13818-7 §6.2, 14496-3 §1.A.2), decoded from its first 7 bytes.
///
/// Only what a parser can frame is a header: sampling indices 13–15 (reserved), channel configuration 0
/// (the layout would come in a program config element, which is not read) and a frame length shorter than the
/// header are refused, so junk and damage are skipped instead of framed.
public struct ADTSFrameHeader: Equatable, Sendable {
    /// The sampling frequencies of `samplingFrequencyIndex` 0…12 (ISO/IEC 14496-3 Table 1.18); ADTS can say no
    /// other rate.
    public static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Bytes 1…3: everything but the frame length and fullness, for comparing formats.
    private let fixedBits: UInt32
    /// The whole frame's length, header included.
    public let frameLength: Int
    /// raw_data_block()s in the frame.
    public let rawDataBlocks: Int

    public init?(bytes: UnsafeRawBufferPointer, at position: Int) {
        guard position + 7 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] & 0xF6 == 0xF0 else {
            return nil
        }
        let b1 = UInt32(bytes[position + 1]), b2 = UInt32(bytes[position + 2]), b3 = UInt32(bytes[position + 3])
        fixedBits = b1 << 16 | b2 << 8 | b3
        frameLength = Int(b3 & 0x03) << 11 | Int(bytes[position + 4]) << 3 | Int(bytes[position + 5]) >> 5
        rawDataBlocks = Int(bytes[position + 6] & 0x03) + 1
        guard samplingFrequencyIndex < Self.sampleRates.count, channelConfiguration != 0,
              frameLength > headerLength else { return nil }
    }

    /// True when the frame carries a CRC (protection_absent is 0).
    public var isProtected: Bool { fixedBits >> 16 & 0x01 == 0 }
    /// The MPEG-4 audio object type: the header's profile plus one (2 is AAC LC).
    public var audioObjectType: Int { Int(fixedBits >> 14 & 0x03) + 1 }
    public var samplingFrequencyIndex: Int { Int(fixedBits >> 10 & 0x0F) }
    public var sampleRate: Int { Self.sampleRates[samplingFrequencyIndex] }
    /// ISO/IEC 14496-3 Table 1.19: 1…6 channels as numbered, 7 is 7.1 (eight channels).
    public var channelConfiguration: Int { Int(fixedBits >> 6 & 0x07) }
    public var channelCount: Int { channelConfiguration == 7 ? 8 : channelConfiguration }
    /// The header's bytes: 7, or 9 with the CRC of a single-block frame.
    public var headerLength: Int { isProtected ? 9 : 7 }

    /// True when `other` continues the same stream: MPEG version, protection, object type, rate and channels
    /// agree (private, original and home bits may change).
    func isCompatible(with other: ADTSFrameHeader) -> Bool {
        fixedBits & Self.formatMask == other.fixedBits & Self.formatMask
    }

    /// ID, protection_absent, profile, sampling index and channel configuration.
    private static let formatMask: UInt32 = 0x09_FD_C0

    /// The AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) the header implies: object type, sampling index and
    /// channel configuration, then a GASpecificConfig of 1024-sample frames, no core coder, no extension.
    var audioSpecificConfig: [UInt8] {
        let bits = audioObjectType << 11 | samplingFrequencyIndex << 7 | channelConfiguration << 3
        return [UInt8(bits >> 8), UInt8(bits & 0xFF)]
    }
}
