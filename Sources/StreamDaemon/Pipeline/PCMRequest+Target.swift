import AudioDecoding
import AudioStreamProtocol

extension PCMRequest {
    /// What the decoding side makes of a subscriber's request.
    var target: PCMTarget {
        PCMTarget(sampleFormat: encoding == .s16 ? .int16 : .float32, sampleRate: sampleRate, channels: channels)
    }
}
