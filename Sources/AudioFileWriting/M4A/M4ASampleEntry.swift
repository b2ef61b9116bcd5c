import AudioFileStream

/// The sample entry of a track (`stsd`'s child), built from the parser's DataFormat and cookie: AAC and ALAC,
/// which an M4A holds, and Opus and FLAC, which fragmented MP4 (CMAF) also carries.
package enum M4ASampleEntry {
    /// Bytes in an ALACSpecificConfig, the ALAC cookie (Apple's ALAC specification, "Magic Cookie").
    private static let alacConfigLength = 24
    /// An AudioSpecificConfig longer than this is not one (the longest real ones, with a program config
    /// element, are tens of bytes); the descriptor's length field could say more.
    private static let largestAudioSpecificConfig = 1024

    /// `mp4a` with an `esds` around the AudioSpecificConfig, `alac` with the ALACSpecificConfig, `Opus` with a
    /// `dOps` made from the OpusHead, or `fLaC` with a `dfLa` holding STREAMINFO.
    /// - Throws: `WriteError.unsupportedFormat` for another codec, or a cookie that is not of the codec's form.
    package static func box(for track: TrackFormat) throws -> [UInt8] {
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
        case AudioFormatID.opus:
            let config = try opusSpecificBox(head: track.cookie)
            // Opus is always decoded at 48 kHz, whatever rate the OpusHead says the input had (RFC 7845 §5.1).
            var opus = format
            opus.sampleRate = 48000
            builder.audioSampleEntry("Opus", format: opus, bitsPerSample: 16) { $0.append(config) }
        case AudioFormatID.flac:
            let streamInfo = try FLACWriter.streamInfo(of: track)
            // STREAMINFO as the last metadata block: a native stream's header without `fLaC`.
            let block = FLACMetadataBlock.streamHeader(streamInfo: streamInfo.bytes, followedBy: []).dropFirst(4)
            builder.audioSampleEntry("fLaC", format: format, bitsPerSample: UInt16(streamInfo.bitsPerSample)) {
                $0.fullBox("dfLa") { $0.append(Array(block)) }
            }
        default:
            throw WriteError.unsupportedFormat("an MP4 track cannot hold \(format.codecName) audio")
        }
        return builder.bytes
    }
}

extension M4ASampleEntry {
    /// The OpusSpecificBox (Encapsulation of Opus in ISO Base Media File Format §4.3.2): the OpusHead's fields
    /// but its magic, big-endian where the OpusHead's are little-endian (RFC 7845 §5.1).
    private static func opusSpecificBox(head: [UInt8]) throws -> [UInt8] {
        guard head.count >= 19, head.starts(with: "OpusHead".utf8), head[8] & 0xF0 == 0, head[9] > 0,
              head[18] == 0 || head.count >= 21 + Int(head[9]) else {
            throw WriteError.unsupportedFormat("the Opus cookie is not an OpusHead")
        }
        var builder = MP4BoxBuilder()
        builder.box("dOps") {
            $0.uint8(0)  // version
            $0.uint8(head[9])  // output channel count
            $0.append([head[11], head[10]])  // pre-skip
            $0.append([head[15], head[14], head[13], head[12]])  // input sample rate
            $0.append([head[17], head[16]])  // output gain
            $0.uint8(head[18])  // channel mapping family
            if head[18] != 0 { $0.append(Array(head[19..<21 + Int(head[9])])) }  // streams, coupled, mapping
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
