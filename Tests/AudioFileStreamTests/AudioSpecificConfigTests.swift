import Testing
@testable import AudioFileStream

/// AudioSpecificConfig's fields (ISO/IEC 14496-3 §1.6.2.1), from bit patterns built by hand: the configurations
/// FFmpeg's encoder does not write (960-sample frames, HE-AAC's explicit SBR and PS signalling).
@Suite struct AudioSpecificConfigTests {
    static func config(_ bytes: [UInt8]) -> AudioSpecificConfig? {
        bytes.withUnsafeBytes(AudioSpecificConfig.init)
    }

    /// Object type 2 (00010), 44.1 kHz (index 4: 0100), stereo (0010), then frameLengthFlag 0 or 1.
    @Test func aacLCHas1024Or960Frames() throws {
        let long = try #require(Self.config([0x12, 0x10]))
        #expect(long.formatID == AudioFormatID.mpeg4AAC && long.audioObjectType == 2)
        #expect(long.sampleRate == 44100 && long.channelCount == 2 && long.framesPerPacket == 1024)
        #expect(Self.config([0x12, 0x14])?.framesPerPacket == 960)
    }

    /// SBR (00101) at 24 kHz (0110), stereo (0010), extension 48 kHz (0011), core AAC LC (00010): HE-AAC at the
    /// extension's rate, 2048 frames a packet.
    @Test func explicitSBRIsHEAACAtTheExtensionRate() throws {
        let config = try #require(Self.config([0x2B, 0x11, 0x88]))
        #expect(config.formatID == AudioFormatID.mpeg4AACHighEfficiency && config.audioObjectType == 5)
        #expect(config.sampleRate == 48000 && config.framesPerPacket == 2048 && config.channelCount == 2)
    }

    /// PS (11101) at 22.05 kHz (0111), mono (0001), extension 44.1 kHz (0100), core AAC LC: HE-AAC v2.
    @Test func explicitPSIsHEAACv2() throws {
        let config = try #require(Self.config([0xEB, 0x8A, 0x10]))
        #expect(config.formatID == AudioFormatID.mpeg4AACHighEfficiencyV2 && config.sampleRate == 44100)
    }

    /// An explicit 24-bit rate (index 15), and configurations cut short.
    @Test func anExplicitRateAndShortConfigurations() throws {
        // 00010 1111 then 24 bits of 0x00BB80 (48000), then 0010 and frameLengthFlag 0.
        #expect(Self.config([0x17, 0x80, 0x5D, 0xC0, 0x10])?.sampleRate == 48000)
        #expect(Self.config([0x12]) == nil)
        #expect(Self.config([]) == nil)
    }

    @Test func mp4HintsNameTheMPEG4Type() {
        for hint in ["mp4", "m4a", "m4b", "mov", "audio/mp4", "audio/x-m4a", "video/quicktime", "m4af"] {
            #expect(AudioFileType(hint: hint) == .mpeg4, "\(hint)")
        }
    }
}
