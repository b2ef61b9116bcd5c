import AudioDecoding
import AudioFileStream

/// The PCM format a stream decodes to, which only decoding shows when it differs from the DataFormat: HE-AAC's
/// SBR doubles the core rate and its PS makes mono stereo, unsignalled in ADTS and in implicit signalling.
/// Decodes the first packets of each DataFormat only, until the decoder announces its format.
final class DecodedFormatProbe {
    /// The format the last DataFormat decodes to; nil until its first packets decode, or when they cannot.
    private(set) var format: PCMFormat?
    private var decoder: StreamDecoder?

    /// Takes every parser event in order.
    func consume(_ event: AudioFileStreamEvent) {
        if case .property(.dataFormat, _) = event {
            format = nil
            decoder = StreamDecoder(sampleFormat: .int16) { [unowned self] decoded in
                if case .format(let format) = decoded { self.format = format }
            }
        }
        decoder?.consume(event)
        if format != nil { decoder = nil }
    }
}
