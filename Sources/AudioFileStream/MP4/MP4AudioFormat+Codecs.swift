extension MP4AudioFormat {
    /// AAC from its AudioSpecificConfig, which is also the cookie (as the ADTS reader gives it); the sample
    /// entry's channel count stands in when a program config element gives the channels. The DataFormat is the
    /// core's; explicitly signalled HE-AAC (v2) adds its layers to the FormatList.
    init(aac config: AudioSpecificConfig, cookie: [UInt8], channels: Int) {
        format = config.dataFormat(channels: config.channelCount ?? channels)
        magicCookie = cookie
        let layout = config.channelCount.map { _ in AudioChannelLayout(aacChannelConfiguration: config.channelConfiguration) }
        channelLayout = layout
        hasConstantFrames = true
        extensionLayers = layout.map {
            config.extensionLayers(channels: Int(format.channelsPerFrame), layoutTag: $0.tag)
        } ?? []
    }

    /// ALAC from its 24-byte ALACSpecificConfig (frameLength, compatibleVersion, bitDepth, three tuning bytes,
    /// numChannels, maxRun, maxFrameBytes, avgBitRate, sampleRate), the cookie. The last frame of a file may be
    /// shorter and says so itself, so frames come from the sample table.
    init(alac config: UnsafeRawBufferPointer) {
        let bitDepth = Int(config[5])
        format = AudioStreamBasicDescription(
            sampleRate: Double(config.bigEndianUInt32(at: 20)), formatID: AudioFormatID.appleLossless,
            formatFlags: FLACFormat.dataFormat(sampleRate: 0, channels: 0, bitsPerSample: bitDepth).formatFlags,
            framesPerPacket: 0, channelsPerFrame: UInt32(config[9]))
        magicCookie = Array(config.prefix(24))
        channelLayout = nil
        hasConstantFrames = false
    }

    /// AC-3 from `dac3` (ETSI TS 102 366 §F.4): fscod (2 bits), bsid (5), bsmod (3), acmod (3), lfeon (1).
    init?(ac3 dac3: UnsafeRawBufferPointer) {
        let rateCode = Int(dac3[0] >> 6)
        guard rateCode < AC3FrameHeader.sampleRates.count else { return nil }
        let layout = AudioChannelLayout(ac3CodingMode: Int(dac3[1] >> 3 & 0x07), hasLFE: dac3[1] >> 2 & 1 == 1)
        self.init(dolby: AudioFormatID.ac3, sampleRate: AC3FrameHeader.sampleRates[rateCode], layout: layout)
    }

    /// E-AC-3 from `dec3` (§F.6): data_rate (13 bits), num_ind_sub (3), then the first independent substream's
    /// fscod (2), bsid (5), a reserved bit, asvc (1), bsmod (3), acmod (3), lfeon (1). Reduced rates (fscod 3)
    /// are the sample entry's.
    init(eac3 dec3: UnsafeRawBufferPointer, sampleRate: Int) {
        let rateCode = Int(dec3[2] >> 6)
        let layout = AudioChannelLayout(ac3CodingMode: Int(dec3[3] >> 1 & 0x07), hasLFE: dec3[3] & 1 == 1)
        self.init(dolby: AudioFormatID.enhancedAC3,
                  sampleRate: rateCode < 3 ? AC3FrameHeader.sampleRates[rateCode] : sampleRate, layout: layout)
    }

    /// A syncframe of six 256-sample blocks a packet, as the AC-3 reader states it; no cookie.
    private init(dolby formatID: FourCharCode, sampleRate: Int, layout: AudioChannelLayout) {
        format = AudioStreamBasicDescription(sampleRate: Double(sampleRate), formatID: formatID, framesPerPacket: 1536,
                                             channelsPerFrame: UInt32(layout.channelCount))
        magicCookie = nil
        channelLayout = layout
        hasConstantFrames = true
    }

    /// Opus from `dOps` (Opus in ISOBMFF §4.3.2): its fields are OpusHead's (RFC 7845 §5.1), big-endian, so the
    /// cookie is the OpusHead they make, as the Ogg reader gives it: version 1, channels, pre-skip, input rate,
    /// gain, mapping family and, for families other than 0, the mapping table.
    init?(opus dOps: UnsafeRawBufferPointer) {
        let channels = Int(dOps[1])
        let family = dOps[10]
        guard channels > 0, family == 0 || dOps.count >= 13 + channels else { return nil }
        var head = Array("OpusHead".utf8) + [1, UInt8(channels)]
        head += [dOps[3], dOps[2]]  // pre-skip
        head += [dOps[7], dOps[6], dOps[5], dOps[4]]  // input sample rate
        head += [dOps[9], dOps[8], family]  // output gain, mapping family
        if family != 0 { head += dOps[11..<13 + channels] }
        format = AudioStreamBasicDescription(sampleRate: 48000, formatID: AudioFormatID.opus, framesPerPacket: 0,
                                             channelsPerFrame: UInt32(channels))
        magicCookie = head
        channelLayout = nil
        hasConstantFrames = false
    }

    /// FLAC from the STREAMINFO in `dfLa`, the cookie, as the native and Ogg FLAC readers give it.
    init(flac streamInfo: FLACStreamInfo) {
        format = FLACFormat.dataFormat(sampleRate: streamInfo.sampleRate, channels: streamInfo.channelCount,
                                       bitsPerSample: streamInfo.bitsPerSample)
        magicCookie = streamInfo.bytes
        channelLayout = AudioChannelLayout(flacChannels: streamInfo.channelCount)
        hasConstantFrames = false
    }
}
