import AudioDecoding
import AudioStreamProtocol
@testable import StreamDaemon
import Testing

/// A hello's PCM request as the decoding side takes it.
@Suite struct PCMRequestTargetTests {
    /// The protocol states its limits apart from the decoder's, so the daemon never accepts a hello it cannot serve
    /// only while the two agree.
    @Test func aHelloFixesWhatTheDecoderCanMake() {
        #expect(PCMRequest.sampleRates == PCMTarget.sampleRates)
        #expect(PCMRequest.channelCounts == PCMTarget.channelCounts)
    }

    @Test func aRequestBecomesItsTarget() {
        #expect(PCMRequest(encoding: .f32, sampleRate: 48000, channels: 1).target
                == PCMTarget(sampleFormat: .float32, sampleRate: 48000, channels: 1))
        #expect(PCMRequest().target == PCMTarget(sampleFormat: .int16))
    }
}
