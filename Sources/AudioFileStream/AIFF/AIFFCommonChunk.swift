/// An AIFF or AIFC `COMM` chunk as the samples it describes: channels, frames (IMA4's packets), sample size, the
/// 80-bit sample rate, and in AIFC the compression type, of which the uncompressed ones, G.711 and Apple's IMA4
/// are read.
enum AIFFCommonChunk {
    /// numChannels, numSampleFrames, sampleSize, sampleRate: AIFF's COMM.
    static let aiffLength = 18
    /// AIFC adds the compression type (its name, a Pascal string, is not read).
    static let aifcLength = 22
    /// The bytes kept of a `COMM` chunk: what AIFC's fields hold; the compression name is unread.
    static let keptLength = aifcLength

    /// How a compression type stores its samples.
    private enum Encoding {
        case integer(isBigEndian: Bool)
        /// 8-bit offset binary (`raw `).
        case unsigned
        case float(bytes: UInt32)
        case companded(FourCharCode)
        /// Apple's IMA4 ADPCM (`ima4`): constant-size packets of 64 frames, 34 bytes a channel (a 2-byte
        /// predictor and step index, then 64 4-bit samples), the channels' blocks one after the other.
        case ima4
    }

    /// IMA4's frames in a packet and bytes per channel in a packet, as Apple's Sound Manager defined them.
    private static let ima4FramesPerPacket: UInt32 = 64
    private static let ima4BytesPerChannel: UInt32 = 34

    /// The AIFC compression types read, by their codes as Apple's and ffmpeg's writers spell them.
    private static let encodings: [FourCharCode: Encoding] = [
        "NONE": .integer(isBigEndian: true), "twos": .integer(isBigEndian: true),
        "in24": .integer(isBigEndian: true), "in32": .integer(isBigEndian: true),
        "sowt": .integer(isBigEndian: false), "raw ": .unsigned,
        "fl32": .float(bytes: 4), "FL32": .float(bytes: 4), "fl64": .float(bytes: 8), "FL64": .float(bytes: 8),
        "ulaw": .companded(AudioFormatID.uLaw), "ULAW": .companded(AudioFormatID.uLaw),
        "alaw": .companded(AudioFormatID.aLaw), "ALAW": .companded(AudioFormatID.aLaw),
        "ima4": .ima4,
    ]

    /// The samples the chunk (`body`, its header at `offset`) describes; `isCompressible` for AIFC.
    /// - Throws: `.unsupportedDataFormat` for another compression type or a sample size above 32 bits,
    ///   `.invalidFile` for a chunk too short for its form, no channels, a sample rate that is not a positive
    ///   finite number, or a sample size of 0.
    static func sound(_ body: UnsafeRawBufferPointer, isCompressible: Bool, at offset: Int64)
        throws(AudioFileStreamFailure) -> PCMSound
    {
        func invalid(_ reason: String) -> AudioFileStreamFailure {
            AudioFileStreamFailure(.invalidFile, at: offset, "the COMM chunk at \(offset) \(reason)")
        }
        let length = isCompressible ? aifcLength : aiffLength
        guard body.count >= length else {
            throw invalid("holds \(body.count) bytes, fewer than the \(length) of its fields")
        }
        let channels = UInt32(body.bigEndianUInt16(at: 0))
        let bits = UInt32(body.bigEndianUInt16(at: 6))
        let rate = ExtendedFloat80.value(UnsafeRawBufferPointer(rebasing: body[8..<18]))
        guard channels > 0, channels < 0x8000 else {
            throw invalid("states \(Int16(bitPattern: UInt16(channels))) channels")
        }
        guard let rate, rate.isFinite, rate > 0, rate <= AudioStreamBasicDescription.maximumSampleRate else {
            throw invalid("states a sample rate of \(rate.map { "\($0)" } ?? "infinity or NaN")")
        }
        let compression: FourCharCode = isCompressible ? FourCharCode(rawValue: body.bigEndianUInt32(at: 18)) : "NONE"
        guard let encoding = encodings[compression] else {
            throw AudioFileStreamFailure(.unsupportedDataFormat, at: offset, "the AIFC compression type "
                + "'\(compression)' of the COMM chunk at \(offset) is not read; only uncompressed samples "
                + "(NONE, twos, sowt, raw , fl32, fl64), µ-law, A-law and IMA4 are")
        }
        let layout = AudioChannelLayout(impliedByCount: channels)
        var sound: PCMSound
        switch encoding {
        case .integer, .unsigned:
            guard bits > 0 else { throw invalid("states a sample size of 0 bits") }
            guard bits <= 32 else {
                throw AudioFileStreamFailure(.unsupportedDataFormat, at: offset, "the COMM chunk at \(offset) "
                    + "states \(bits)-bit samples; at most 32 are read")
            }
            let isBigEndian = if case .integer(let isBigEndian) = encoding { isBigEndian } else { true }
            let isSigned = if case .integer = encoding { true } else { false }
            sound = PCMSound(format: .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bits,
                                              bytesPerSample: (bits + 7) / 8, isFloat: false,
                                              isBigEndian: isBigEndian, isSigned: isSigned), layout: layout)
        case .float(let bytes):
            sound = PCMSound(format: .linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bytes * 8,
                                              bytesPerSample: bytes, isFloat: true, isBigEndian: true,
                                              isSigned: true), layout: layout)
        case .companded(let formatID):
            sound = PCMSound(format: .interleaved(formatID, sampleRate: rate, channels: channels), layout: layout)
        case .ima4:
            // Compressed: no bytes or bits per frame, as CAF's `desc` of IMA4 states it.
            sound = PCMSound(format: AudioStreamBasicDescription(
                sampleRate: rate, formatID: AudioFormatID.appleIMA4, bytesPerPacket: ima4BytesPerChannel * channels,
                framesPerPacket: ima4FramesPerPacket, channelsPerFrame: channels), layout: layout)
        }
        // IMA4's frames are its packets, as Apple's writers and ffmpeg count them.
        let frames = body.bigEndianUInt32(at: 2)
        sound.statedPacketCount = frames > 0 ? UInt64(frames) : nil
        return sound
    }
}
