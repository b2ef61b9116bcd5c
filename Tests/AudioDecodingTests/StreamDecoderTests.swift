import AudioDecoding
import AudioFileStream
import Testing

/// The decoder per DataFormat: a format no decoder reads is reported once, from the start or after a codec.
@Suite struct StreamDecoderTests {
    @Test func aFormatNoDecoderReadsIsReportedOncePerChange() {
        var decoded = Decoded()
        let decoder = StreamDecoder(sampleFormat: .int16) { decoded.record($0) }
        // QDesign Music 2, which QuickTime files may hold: no decoder here reads it.
        let qdesign = AudioStreamBasicDescription(sampleRate: 8000, formatID: "QDM2", framesPerPacket: 2048,
                                                  channelsPerFrame: 1)
        let pcm = AudioStreamBasicDescription.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16,
                                                        bytesPerSample: 2, isFloat: false, isBigEndian: false,
                                                        isSigned: true)
        for format in [qdesign, qdesign, pcm, qdesign] { decoder.consume(.property(.dataFormat, .format(format))) }
        #expect(decoded.unsupportedFormats == ["QDM2", "QDM2"])
    }
}
