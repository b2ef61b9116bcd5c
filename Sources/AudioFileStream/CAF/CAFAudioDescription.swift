/// The body of a CAF `desc` chunk (CAFAudioDescription): the stream's format, stated once before the audio.
struct CAFAudioDescription {
    /// Bytes in the body.
    static let length = 32

    /// The format as Core Audio describes it: the fields as stored, with linear PCM's CAF flags (float, little
    /// endian) turned into Core Audio's (`LinearPCMFormatFlag`) as Apple's readers do, and `bytesPerFrame` set
    /// for formats of one frame a packet.
    let format: AudioStreamBasicDescription

    /// Reads the first `length` bytes of `bytes`; nil when they do not describe a stream packets can be cut from:
    /// no format, a rate that is not a positive number up to `maximumSampleRate`, no channels, or linear PCM whose sizes disagree.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let sampleRate = Double(bitPattern: bytes.bigEndianUInt64(at: 0))
        let formatID = FourCharCode(rawValue: bytes.bigEndianUInt32(at: 8))
        let flags = bytes.bigEndianUInt32(at: 12)
        let bytesPerPacket = bytes.bigEndianUInt32(at: 16)
        let framesPerPacket = bytes.bigEndianUInt32(at: 20)
        let channels = bytes.bigEndianUInt32(at: 24)
        let bits = bytes.bigEndianUInt32(at: 28)
        guard sampleRate.isFinite, sampleRate > 0, sampleRate <= AudioStreamBasicDescription.maximumSampleRate,
              channels > 0, formatID.rawValue != 0 else { return nil }
        if formatID == AudioFormatID.linearPCM {
            guard let format = Self.linearPCM(sampleRate: sampleRate, flags: flags, bytesPerPacket: bytesPerPacket,
                                              framesPerPacket: framesPerPacket, channels: channels, bits: bits)
            else { return nil }
            self.format = format
        } else {
            format = AudioStreamBasicDescription(
                sampleRate: sampleRate, formatID: formatID, formatFlags: flags, bytesPerPacket: bytesPerPacket,
                framesPerPacket: framesPerPacket, bytesPerFrame: framesPerPacket == 1 ? bytesPerPacket : 0,
                channelsPerFrame: channels, bitsPerChannel: bits)
        }
    }

    /// True when every packet has the same size and frames (PCM, G.711, IMA4): packets are cut without a table.
    var isConstantSize: Bool { format.bytesPerPacket > 0 && format.framesPerPacket > 0 }

    /// CAF's linear PCM flags: bit 0 float, bit 1 little endian; integer samples are signed.
    private static let isFloat: UInt32 = 1 << 0
    private static let isLittleEndian: UInt32 = 1 << 1

    /// Interleaved samples filling `bytesPerPacket / channels` bytes each, holding `bits` bits (32 or 64 when
    /// float), one frame a packet.
    private static func linearPCM(sampleRate: Double, flags: UInt32, bytesPerPacket: UInt32, framesPerPacket: UInt32,
                                  channels: UInt32, bits: UInt32) -> AudioStreamBasicDescription? {
        let isFloat = flags & Self.isFloat != 0
        guard framesPerPacket == 1, bytesPerPacket > 0, bytesPerPacket % channels == 0 else { return nil }
        let bytesPerSample = bytesPerPacket / channels
        // In 64 bits: a lying packet size makes samples of over 2^29 bytes, whose bits no UInt32 holds.
        guard bits > 0, UInt64(bits) <= UInt64(bytesPerSample) * 8, !isFloat || bits == 32 || bits == 64 else {
            return nil
        }
        return .linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: bits,
                          bytesPerSample: bytesPerSample, isFloat: isFloat,
                          isBigEndian: flags & Self.isLittleEndian == 0, isSigned: true)
    }
}
