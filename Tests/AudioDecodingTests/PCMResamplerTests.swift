import AudioDecoding
import AudioFileStream
import FixtureSupport
import Testing

/// Resampling against ffmpeg's libswresample: the fixture script recorded, for every decode reference, ffmpeg's
/// conversion of its PCM to another rate and channel count (`-ar RATE -ac CHANNELS`, the library's defaults), in
/// s16 and f32; chained links of a new format start afresh there, as ours do. (CodecDecoderTests counts the
/// references.)
@Suite struct PCMResamplerTests {
    static let references = DecodeReference.all

    @Test(arguments: references, PCMSampleFormat.allCases)
    func resampledPCMIsBitIdenticalToFFmpeg(reference: DecodeReference, sampleFormat: PCMSampleFormat) throws {
        let expected = reference.resampled
        let target = PCMTarget(sampleFormat: sampleFormat, sampleRate: expected.sampleRate, channels: expected.channels)
        let decoded = try decodeResampled(reference.bytes, to: target)
        #expect(decoded.errors.isEmpty && decoded.unsupportedFormats.isEmpty)
        #expect(decoded.frames == expected.frames)
        #expect(try md5(decoded.pcm) == (sampleFormat == .int16 ? expected.s16Md5 : expected.f32Md5))
        #expect(decoded.formats.allSatisfy { $0.sampleRate == expected.sampleRate && $0.channels == expected.channels })
    }

    /// A target that fixes only the rate keeps the stream's channels, and one that fixes only the channels its rate.
    @Test func anUnfixedFieldFollowsTheStream() throws {
        let bytes = try #require(Self.references.first { $0.name == "adts-lc-44k-stereo.aac" }).bytes
        let rateOnly = try decodeResampled(bytes, to: PCMTarget(sampleFormat: .int16, sampleRate: 48000))
        let channelsOnly = try decodeResampled(bytes, to: PCMTarget(sampleFormat: .int16, channels: 1))
        #expect(rateOnly.formats.map(\.channels) == [2] && rateOnly.formats.map(\.sampleRate) == [48000])
        #expect(channelsOnly.formats.map(\.channels) == [1] && channelsOnly.formats.map(\.sampleRate) == [44100])
    }

    @Test func aRateChangeInTheStreamKeepsTheTargetRate() throws {
        let chain = try #require(Self.references.first { $0.name == "ogg-vorbis-chained-rate.ogg" })
        let decoded = try decodeResampled(chain.bytes, to: PCMTarget(sampleFormat: .float32, sampleRate: 32000))
        #expect(Set(decoded.formats.map(\.sampleRate)) == [32000])
    }
}
