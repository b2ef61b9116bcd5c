import AudioDecoding
import AudioFileStream
import Testing

/// The decoder per DataFormat: a format no decoder reads is reported once, from the start or after a codec.
@Suite struct StreamDecoderTests {
    @Test func aFormatNoDecoderReadsIsReportedOncePerChange() {
        var decoded = Decoded()
        let decoder = StreamDecoder(sampleFormat: .int16) { decoded.record($0) }
        let adpcm = AudioStreamBasicDescription(sampleRate: 8000, formatID: "ima4", framesPerPacket: 64,
                                                channelsPerFrame: 1)
        let pcm = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                        bytesPerSample: 2, isFloat: false, isBigEndian: false,
                                                        isSigned: true)
        for format in [adpcm, adpcm, pcm, adpcm] { decoder.consume(.property(.dataFormat, .format(format))) }
        #expect(decoded.unsupportedFormats == ["ima4", "ima4"])
    }
}
