import AudioFileStream

/// The sample entry of an AAC or ALAC track (`stsd`'s child), built from the parser's DataFormat and cookie.
enum M4ASampleEntry {
    /// Bytes in an ALACSpecificConfig, the ALAC cookie (Apple's ALAC specification, "Magic Cookie").
    private static let alacConfigLength = 24
    /// An AudioSpecificConfig longer than this is not one (the longest real ones, with a program config
    /// element, are tens of bytes); the descriptor's length field could say more.
    private static let largestAudioSpecificConfig = 1024

    /// `mp4a` with an `esds` around the AudioSpecificConfig, or `alac` with the ALACSpecificConfig.
    /// - Throws: `WriteError.unsupportedFormat` for another codec, or a cookie that is not of the codec's form.
    static func box(for track: TrackFormat) throws -> [UInt8] {
        let format = track.format
        var builder = MP4BoxBuilder()
        switch format.formatID {
        case AudioFormatID.mpeg4AAC:
            // audioObjectType (5 bits) 0 is not a type; a config is at least its type, rate index and channels.
            guard (2...largestAudioSpecificConfig).contains(track.cookie.count), track.cookie[0] >> 3 != 0 else {
                throw WriteError.unsupportedFormat(
                    "an AAC cookie of \(track.cookie.count) bytes is not an AudioSpecificConfig")
            }
            builder.audioSampleEntry("mp4a", format: format, bitsPerSample: 16) {
                $0.fullBox("esds") { $0.elementaryStreamDescriptor(config: track.cookie) }
            }
        case AudioFormatID.appleLossless:
            guard track.cookie.count == alacConfigLength else {
                throw WriteError.unsupportedFormat(
                    "an ALAC cookie of \(track.cookie.count) bytes is not an ALACSpecificConfig")
            }
            builder.audioSampleEntry("alac", format: format, bitsPerSample: UInt16(track.cookie[5])) {
                $0.fullBox("alac") { $0.append(track.cookie) }
            }
        default:
            throw WriteError.unsupportedFormat("an M4A cannot hold \(format.codecName) audio")
        }
        return builder.bytes
    }
}

extension MP4BoxBuilder {
    /// An AudioSampleEntry (ISO/IEC 14496-12 §12.2.3): the rate field is 16.16 fixed point, 0 past 65535 Hz
    /// (decoders take the rate from the codec's config then).
    fileprivate mutating func audioSampleEntry(_ type: String, format: AudioStreamBasicDescription,
                                               bitsPerSample: UInt16, _ config: (inout MP4BoxBuilder) -> Void) {
        box(type) {
            $0.zeros(6)
            $0.uint16(1)  // data_reference_index
            $0.zeros(8)
            $0.uint16(UInt16(format.channelsPerFrame))
            $0.uint16(bitsPerSample)
            $0.zeros(4)
            let rate = UInt32(format.sampleRate)
            $0.uint32(rate <= UInt32(UInt16.max) ? rate << 16 : 0)
            config(&$0)
        }
    }

    /// ISO/IEC 14496-1's ES_Descriptor as MP4 stores AAC's (14496-14 §5.6): ES_ID 0, a DecoderConfigDescriptor
    /// (object type 0x40, audio stream, the AudioSpecificConfig as DecoderSpecificInfo), an SLConfigDescriptor
    /// of the predefined kind 2. Lengths take four bytes, as ffmpeg and iTunes write them.
    fileprivate mutating func elementaryStreamDescriptor(config: [UInt8]) {
        let decoderSpecificInfo = 5 + config.count
        let decoderConfig = 5 + 13 + decoderSpecificInfo
        let slConfig = 5 + 1
        descriptor(tag: 0x03, length: 3 + decoderConfig + slConfig)
        uint16(0)  // ES_ID
        uint8(0)  // no dependency, URL or OCR stream
        descriptor(tag: 0x04, length: 13 + decoderSpecificInfo)
        uint8(0x40)  // MPEG-4 audio
        uint8(0x15)  // stream type 5 (audio) << 2, upstream 0, reserved 1
        zeros(3 + 4 + 4)  // buffer size, maximum and average bit rates: unknown
        descriptor(tag: 0x05, length: config.count)
        append(config)
        descriptor(tag: 0x06, length: 1)
        uint8(0x02)
    }

    private mutating func descriptor(tag: UInt8, length: Int) {
        uint8(tag)
        uint8(UInt8(length >> 21 & 0x7F) | 0x80)
        uint8(UInt8(length >> 14 & 0x7F) | 0x80)
        uint8(UInt8(length >> 7 & 0x7F) | 0x80)
        uint8(UInt8(length & 0x7F))
    }
}
