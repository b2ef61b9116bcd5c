/// A WAVE `fmt ` chunk (WAVEFORMATEX, and WAVEFORMATEXTENSIBLE's subformat, valid bits and channel mask) as the
/// samples it describes. Integer PCM (8-bit unsigned, wider signed), IEEE float, µ-law and A-law are read; any
/// other format tag is refused.
enum WAVEFormatChunk {
    /// WAVEFORMAT without `wBitsPerSample` is the shortest form (ffmpeg's reader takes it too).
    static let shortestLength = 14
    /// WAVEFORMATEXTENSIBLE: WAVEFORMATEX's 18 bytes, then 22 bytes of extension.
    static let extensibleLength = 40
    /// The bytes kept of a `fmt ` chunk: what the extensible form holds; any extra is unread.
    static let keptLength = extensibleLength

    private static let pcm: UInt16 = 0x0001
    private static let float: UInt16 = 0x0003
    private static let aLaw: UInt16 = 0x0006
    private static let uLaw: UInt16 = 0x0007
    private static let extensible: UInt16 = 0xFFFE
    /// KSDATAFORMAT_SUBTYPE_*: the format tag in the first two bytes, then these fourteen.
    private static let subformatSuffix: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA,
                                                   0x00, 0x38, 0x9B, 0x71]

    /// The samples the chunk (`body`, its size `size`, its header at `offset`) describes.
    /// - Throws: `.unsupportedDataFormat` for another format tag or depth, `.invalidFile` for a chunk too short
    ///   for its form, no channels, no sample rate, or a block alignment that does not hold the samples.
    static func sound(_ body: UnsafeRawBufferPointer, size: Int64, at offset: Int64)
        throws(AudioFileStreamFailure) -> PCMSound
    {
        func invalid(_ reason: String) -> AudioFileStreamFailure {
            AudioFileStreamFailure(.invalidFile, at: offset, "the WAVE fmt chunk at \(offset) \(reason)")
        }
        guard size >= shortestLength, body.count >= shortestLength else {
            throw invalid("holds \(size) bytes, fewer than the \(shortestLength) of the shortest format")
        }
        var tag = body.littleEndianUInt16(at: 0)
        let channels = UInt32(body.littleEndianUInt16(at: 2))
        let sampleRate = body.littleEndianUInt32(at: 4)
        let blockAlign = UInt32(body.littleEndianUInt16(at: 12))
        guard channels > 0 else { throw invalid("states 0 channels") }
        guard sampleRate > 0, Double(sampleRate) <= AudioStreamBasicDescription.maximumSampleRate else {
            throw invalid("states a sample rate of \(sampleRate)")
        }
        guard blockAlign > 0, blockAlign % channels == 0 else {
            throw invalid("states a block of \(blockAlign) bytes, which \(channels) channels cannot share")
        }
        let bytesPerSample = blockAlign / channels
        var bits = body.count >= 16 ? UInt32(body.littleEndianUInt16(at: 14)) : bytesPerSample * 8
        var layout = AudioChannelLayout(impliedByCount: channels)
        if tag == extensible {
            guard size >= extensibleLength, body.count >= extensibleLength else {
                throw invalid("is WAVE_FORMAT_EXTENSIBLE in \(size) bytes, fewer than its \(extensibleLength)")
            }
            guard body[26..<40].elementsEqual(subformatSuffix) else {
                throw AudioFileStreamFailure(.unsupportedDataFormat, at: offset, "the WAVE fmt chunk at \(offset) "
                    + "has a subformat GUID that is not a WAVE format tag; only PCM, float, µ-law and A-law are read")
            }
            tag = body.littleEndianUInt16(at: 24)
            let validBits = UInt32(body.littleEndianUInt16(at: 18))
            if validBits > 0 && validBits <= bits { bits = validBits }
            layout = AudioChannelLayout(waveChannelMask: body.littleEndianUInt32(at: 20), channels: channels)
        }
        guard bits > 0, bits <= bytesPerSample * 8 else {
            throw invalid("states \(bits)-bit samples in \(bytesPerSample)-byte slots")
        }
        let rate = Double(sampleRate)
        let format: AudioStreamBasicDescription
        switch (tag, bytesPerSample) {
        case (pcm, 1...4):
            format = .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bits,
                                bytesPerSample: bytesPerSample, isFloat: false, isBigEndian: false,
                                isSigned: bytesPerSample > 1)
        case (float, 4), (float, 8):
            format = .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bytesPerSample * 8,
                                bytesPerSample: bytesPerSample, isFloat: true, isBigEndian: false, isSigned: true)
        case (uLaw, 1), (aLaw, 1):
            format = .interleaved(tag == uLaw ? AudioFormatID.uLaw : AudioFormatID.aLaw, sampleRate: rate,
                                  channels: channels)
        default:
            throw AudioFileStreamFailure(.unsupportedDataFormat, at: offset, "the WAVE fmt chunk at \(offset) "
                + "states format tag 0x\(String(tag, radix: 16, uppercase: true)) with \(bytesPerSample)-byte "
                + "samples; only integer PCM, float, µ-law and A-law are read")
        }
        return PCMSound(format: format, layout: layout)
    }
}
