/// Core Audio's linear PCM format flags (`kAudioFormatFlagIsFloat` …), for an ASBD's `formatFlags`.
public enum LinearPCMFormatFlag {
    public static let isFloat: UInt32 = 1 << 0
    public static let isBigEndian: UInt32 = 1 << 1
    public static let isSignedInteger: UInt32 = 1 << 2
    /// The sample's bits fill its bytes.
    public static let isPacked: UInt32 = 1 << 3
    /// The sample's bits lie in the high bits of its bytes (when not packed).
    public static let isAlignedHigh: UInt32 = 1 << 4
}

extension AudioStreamBasicDescription {
    /// Interleaved samples as PCM containers (WAVE, AIFF, CAF) store them: one frame per packet, each sample
    /// `bytesPerSample` bytes holding `bitsPerChannel` significant bits in its high bits.
    public static func linearPCM(
        sampleRate: Double, channels: UInt32, bitsPerChannel: UInt32, bytesPerSample: UInt32, isFloat: Bool,
        isBigEndian: Bool, isSigned: Bool
    ) -> AudioStreamBasicDescription {
        var flags: UInt32 = UInt64(bitsPerChannel) == UInt64(bytesPerSample) * 8
            ? LinearPCMFormatFlag.isPacked : LinearPCMFormatFlag.isAlignedHigh
        if isFloat { flags |= LinearPCMFormatFlag.isFloat }
        if isSigned && !isFloat { flags |= LinearPCMFormatFlag.isSignedInteger }
        // Core Audio leaves the byte order flag off where there is a single byte.
        if isBigEndian && bytesPerSample > 1 { flags |= LinearPCMFormatFlag.isBigEndian }
        return interleaved(AudioFormatID.linearPCM, sampleRate: sampleRate, channels: channels,
                         bitsPerChannel: bitsPerChannel, bytesPerSample: bytesPerSample, flags: flags)
    }

    /// Interleaved samples of a fixed size, one frame per packet: linear PCM, or G.711 µ-law and A-law
    /// (`AudioFormatID.uLaw`, `.aLaw`: one byte a sample, no flags).
    public static func interleaved(
        _ formatID: FourCharCode, sampleRate: Double, channels: UInt32, bitsPerChannel: UInt32 = 8,
        bytesPerSample: UInt32 = 1, flags: UInt32 = 0
    ) -> AudioStreamBasicDescription {
        let bytesPerFrame = bytesPerSample * channels
        return AudioStreamBasicDescription(
            sampleRate: sampleRate, formatID: formatID, formatFlags: flags, bytesPerPacket: bytesPerFrame,
            framesPerPacket: 1, bytesPerFrame: bytesPerFrame, channelsPerFrame: channels,
            bitsPerChannel: bitsPerChannel)
    }
}
