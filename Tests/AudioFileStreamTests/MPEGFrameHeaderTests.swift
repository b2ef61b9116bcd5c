import Testing
@testable import AudioFileStream

/// Every version × layer × bitrate × sample rate × padding, against the frame-length formulas and tables of
/// ISO/IEC 11172-3 §2.4.3.1 and 13818-3 §2.4.3.1 (MPEG-2.5 halves the MPEG-2 rates).
@Suite struct MPEGFrameHeaderTests {
    /// kbit/s by bitrate index 1…14, as the specs tabulate them.
    static let bitrates: [String: [Int]] = [
        "1-I": [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
        "1-II": [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
        "1-III": [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        "2-I": [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
        "2-II": [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
    static let sampleRates: [String: [Int]] = [
        "1": [44100, 48000, 32000], "2": [22050, 24000, 16000], "2.5": [11025, 12000, 8000],
    ]

    @Test func everyHeaderHasTheSpecifiedFrameLength() throws {
        var checked = 0
        for (versionBits, version) in [(3, "1"), (2, "2"), (0, "2.5")] {
            for (layerBits, layer) in [(3, 1), (2, 2), (1, 3)] {
                // MPEG-2 and 2.5 share one table for Layer I and one for Layers II and III.
                let key = version == "1" ? "1-" + ["I", "II", "III"][layer - 1] : layer == 1 ? "2-I" : "2-II"
                let table = Self.bitrates[key]!
                for bitrateIndex in 1...14 {
                    for rateIndex in 0...2 {
                        for padding in 0...1 {
                            let word = UInt32(0xFFE0_0000) | UInt32(versionBits) << 19 | UInt32(layerBits) << 17
                                | 1 << 16 | UInt32(bitrateIndex) << 12 | UInt32(rateIndex) << 10 | UInt32(padding) << 9
                            let header = try #require(MPEGFrameHeader(word))
                            let bitRate = table[bitrateIndex - 1] * 1000
                            let sampleRate = Self.sampleRates[version]![rateIndex]
                            let expected = switch layer {
                            case 1: (12 * bitRate / sampleRate + padding) * 4
                            case 2: 144 * bitRate / sampleRate + padding
                            default: (version == "1" ? 144 : 72) * bitRate / sampleRate + padding
                            }
                            #expect(header.frameLength == expected, "\(version) L\(layer) \(bitRate) \(sampleRate)")
                            #expect(header.sampleRate == sampleRate)
                            #expect(header.bitRate == bitRate)
                            #expect(header.layer == layer)
                            #expect(header.samplesPerFrame == (layer == 1 ? 384 : layer == 3 && version != "1" ? 576 : 1152))
                            #expect(header.maximumFrameLength >= expected)
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 3 * 3 * 14 * 3 * 2)
    }

    @Test func wellKnownFrameSizes() throws {
        // 128 kbit/s at 44.1 kHz: 417 bytes, 418 with padding; MPEG-2.5 at 8 kHz, 8 kbit/s: 72 bytes.
        #expect(MPEGFrameHeader(0xFFFB_9000)?.frameLength == 417)
        #expect(MPEGFrameHeader(0xFFFB_9200)?.frameLength == 418)
        #expect(MPEGFrameHeader(0xFFE3_1800)?.frameLength == 72)
    }

    @Test func reservedFieldsAreRejected() {
        #expect(MPEGFrameHeader(0xFFEB_9000) == nil, "version 01 is reserved")
        #expect(MPEGFrameHeader(0xFFF9_9000) == nil, "layer 00 is reserved")
        #expect(MPEGFrameHeader(0xFFFB_F000) == nil, "bitrate index 15 is invalid")
        #expect(MPEGFrameHeader(0xFFFB_9C00) == nil, "sample rate index 3 is reserved")
        #expect(MPEGFrameHeader(0xFF7B_9000) == nil, "no sync")
    }

    @Test func freeFormatHasNoFixedLength() throws {
        let header = try #require(MPEGFrameHeader(0xFFFB_0000))
        #expect(header.isFreeFormat)
        #expect(header.frameLength == nil)
        #expect(header.bitRate == nil)
    }

    @Test func channelModesAndCRC() throws {
        for (bits, mode, channels) in [(0, MPEGFrameHeader.ChannelMode.stereo, 2), (1, .jointStereo, 2),
                                      (2, .dualChannel, 2), (3, .mono, 1)] {
            let header = try #require(MPEGFrameHeader(0xFFFA_9000 | UInt32(bits) << 6))
            #expect(header.channelMode == mode)
            #expect(header.channelCount == channels)
            #expect(header.hasCRC, "protection bit 0 means a CRC follows")
        }
    }

    @Test func compatibilityIgnoresBitrateAndPaddingButNotRateOrChannels() throws {
        let base = try #require(MPEGFrameHeader(0xFFFB_9040))  // joint stereo
        #expect(base.isCompatible(with: try #require(MPEGFrameHeader(0xFFFB_B200))))  // other bitrate, padded, stereo
        #expect(!base.isCompatible(with: try #require(MPEGFrameHeader(0xFFFB_9440))), "48 kHz")
        let mono = try #require(MPEGFrameHeader(0xFFFB_90C0))
        #expect(base.isCompatible(with: mono) && !base.hasSameFormat(as: mono), "mono")
        #expect(!base.isCompatible(with: try #require(MPEGFrameHeader(0xFFFD_9040))), "Layer II")
    }
}
