import Testing
@testable import AudioFileStream

/// AudioSpecificConfig's fields (ISO/IEC 14496-3 §1.6.2.1), from bit patterns built by hand: the configurations
/// FFmpeg's encoder does not write (960-sample frames, HE-AAC's explicit SBR and PS signalling, both ways).
@Suite struct AudioSpecificConfigTests {
    static func config(_ bytes: [UInt8]) -> AudioSpecificConfig? {
        bytes.withUnsafeBytes(AudioSpecificConfig.init)
    }

    /// Object type 2 (00010), 44.1 kHz (index 4: 0100), stereo (0010), then frameLengthFlag 0 or 1.
    @Test func aacLCHas1024Or960Frames() throws {
        let long = try #require(Self.config([0x12, 0x10]))
        #expect(long.audioObjectType == 2 && long.sbrSampleRate == nil && !long.hasParametricStereo)
        #expect(long.sampleRate == 44100 && long.channelCount == 2 && long.framesPerPacket == 1024)
        #expect(long.extensionLayers(channels: 2, layoutTag: 0).isEmpty)
        #expect(Self.config([0x12, 0x14])?.framesPerPacket == 960)
    }

    /// SBR (00101) at 24 kHz (0110), stereo (0010), extension 48 kHz (0011), core AAC LC (00010): the DataFormat
    /// is the core's, and the FormatList adds HE-AAC at the extension's rate, 2048 frames a packet.
    @Test func hierarchicalSBRIsHEAACOverTheCore() throws {
        let config = try #require(Self.config([0x2B, 0x11, 0x88]))
        #expect(config.audioObjectType == 2 && config.sampleRate == 24000 && config.framesPerPacket == 1024)
        #expect(config.sbrSampleRate == 48000 && !config.hasParametricStereo && config.channelCount == 2)
        let layers = config.extensionLayers(channels: 2, layoutTag: 7)
        #expect(layers.map(\.format.formatID) == [AudioFormatID.mpeg4AACHighEfficiency])
        #expect(layers.first?.format.sampleRate == 48000 && layers.first?.format.framesPerPacket == 2048)
        #expect(layers.first?.format.channelsPerFrame == 2 && layers.first?.channelLayoutTag == 7)
    }

    /// PS (11101) at 22.05 kHz (0111), mono (0001), extension 44.1 kHz (0100), core AAC LC: HE-AACv2 (stereo),
    /// then HE-AAC (mono), both at 44.1 kHz.
    @Test func hierarchicalPSIsHEAACv2() throws {
        let config = try #require(Self.config([0xEB, 0x8A, 0x08, 0x00]))
        #expect(config.audioObjectType == 2 && config.sampleRate == 22050 && config.channelCount == 1)
        #expect(config.sbrSampleRate == 44100 && config.hasParametricStereo)
        let layers = config.extensionLayers(channels: 1, layoutTag: AudioChannelLayout.mono.tag)
        #expect(layers.map(\.format.formatID) == [AudioFormatID.mpeg4AACHighEfficiencyV2,
                                                  AudioFormatID.mpeg4AACHighEfficiency])
        #expect(layers.map(\.format.channelsPerFrame) == [2, 1])
        #expect(layers.map(\.channelLayoutTag) == [AudioChannelLayout.stereo.tag, AudioChannelLayout.mono.tag])
    }

    /// Backward-compatible signalling: LC 22.05 kHz stereo (00010 0111 0010 000), sync extension 0x2b7, object
    /// type 5, sbrPresentFlag 1, 44.1 kHz (0100); then, for mono, 0x548 and psPresentFlag 1.
    @Test func backwardCompatibleSBRAndPS() throws {
        let sbr = try #require(Self.config([0x13, 0x90, 0x56, 0xE5, 0xA0]))
        #expect(sbr.audioObjectType == 2 && sbr.sampleRate == 22050 && sbr.sbrSampleRate == 44100)
        #expect(!sbr.hasParametricStereo)
        let ps = try #require(Self.config([0x13, 0x88, 0x56, 0xE5, 0xA5, 0x48, 0x80]))
        #expect(ps.channelCount == 1 && ps.sbrSampleRate == 44100 && ps.hasParametricStereo)
    }

    /// What FFmpeg's encoder writes for LC: the sync extension with sbrPresentFlag 0, which is plain AAC; and a
    /// sync extension cut short.
    @Test func sbrNotPresentIsPlainAAC() throws {
        let config = try #require(Self.config([0x12, 0x10, 0x56, 0xE5, 0x00]))
        #expect(config.sbrSampleRate == nil && !config.hasParametricStereo)
        #expect(try #require(Self.config([0x13, 0x90, 0x56])).sbrSampleRate == nil)
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
